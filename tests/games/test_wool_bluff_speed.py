"""The speed-ups of Wool Bluff keep the answers: kept wool counts, capped discard lists and
the bot's hit chances equal what is worked out from scratch, at every step of random matches."""

from __future__ import annotations

from itertools import product
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.core import CHANCE, Rng
from mcbridge.games import load
from mcbridge.games.wool_bluff import COLOURS, Discard, Reveal, WoolBluffState
from mcbridge.games.wool_bluff.actions import WILD
from mcbridge.games.wool_bluff.bot import _discard_choice, _hit_chances
from mcbridge.games.wool_bluff.rules import _discards


def wool_from_scratch(state: WoolBluffState) -> tuple[list[int | None], int]:
    sizes = [sum(h.values()) if h is not None else None for h in state.hands]
    in_play = sum(n or 0 for s, n in enumerate(sizes) if state.eliminated_turn[s] is None)
    return sizes, in_play


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4), tamper=st.sampled_from(["warn", "forfeit"]))
def test_kept_wool_counts_match_the_hands_after_every_action_and_a_restore(
    seed: int, players: int, tamper: str
) -> None:
    game = load("wool_bluff", {"turns": 6, "hand_size": 4, "tamper": tamper})
    state = game.new_match([f"p{i}" for i in range(players)], seed)
    assert isinstance(state, WoolBluffState)
    rng = Rng(seed)
    while not state.is_over:
        seat = min(state.to_act())
        if seat == CHANCE:
            action = state.sample_chance(rng)
            if state.phase == "reveal" and rng.random() < 0.2:  # a tamper report can knock a seat out
                action = Reveal(((rng.choice(state.active_seats()), (("red", 1),)),))
        else:
            action = rng.pick(state.legal_actions(seat))
            while not hasattr(action, "__dataclass_fields__"):  # an ActionRange entry
                action = rng.pick(state.legal_actions(seat))
        state.apply(seat, action)
        sizes, in_play = wool_from_scratch(state)
        view = state.view(seat if seat != CHANCE else None)
        assert (view["wool_counts"], view["wool_in_play"], state.wool_in_play) == (sizes, in_play, in_play)
        view["wool_counts"].append(99)  # the view's list is its own: the kept counts do not move
        assert state.view(None)["wool_counts"] == sizes
        restored = game.from_json(state.to_json())
        assert isinstance(restored, WoolBluffState)
        assert restored.view(None) == state.view(None)


def test_a_discard_list_is_the_same_for_counts_capped_at_the_discard() -> None:
    """More of a colour than the discard takes adds no way to discard: the capped key the
    rules look up lists exactly the ways of the full hand."""
    for counts in product(range(4), repeat=3):
        full = (*counts, 0, 0, 5)
        for due in range(1, sum(full) + 1):
            capped = tuple(min(n, due) for n in full)
            assert _discards(full, due) == _discards(capped, due)


def test_hit_chances_are_weight_plus_white_over_total_and_white_alone_for_white() -> None:
    weights = {"red": 2, "blue": 2, "yellow": 2, "green": 2, "black": 2, "white": 1}
    chances = _hit_chances(tuple(weights.items()))
    assert chances["red"] == 3 / 11 and chances["white"] == 1 / 11
    assert set(chances) == set(COLOURS)
    assert _hit_chances(tuple(dict.fromkeys(COLOURS, 0).items())) == dict.fromkeys(COLOURS, 0.0)


def discards_from_scratch(counts: tuple[int, ...], size: int) -> list[tuple[tuple[str, int], ...]]:
    """Every count vector up to the hand that takes `size`, most of the first colour first."""
    ways = [way for way in product(*(range(n, -1, -1) for n in counts)) if sum(way) == size]
    return [tuple((c, n) for c, n in zip(COLOURS, way, strict=True) if n) for way in ways]


@settings(max_examples=200, deadline=None)
@given(counts=st.tuples(*[st.integers(0, 6)] * len(COLOURS)), size=st.integers(0, 14))
def test_the_discard_walk_lists_every_way_in_order_and_only_those(counts: tuple[int, ...], size: int) -> None:
    listed = _discards(counts, size)
    assert all(isinstance(action, Discard) for action in listed)
    assert [getattr(action, "wool", None) for action in listed] == discards_from_scratch(counts, size)


@settings(max_examples=100, deadline=None)
@given(
    weights=st.lists(st.integers(0, 5), min_size=len(COLOURS), max_size=len(COLOURS)).filter(any),
    n=st.integers(0, 40),
    seed=st.integers(0, 10**9),
    shuffled=st.randoms(use_true_random=False),
)
def test_a_weighted_tally_counts_exactly_the_weighted_draws(
    weights: list[int], n: int, seed: int, shuffled: Random
) -> None:
    """The deal counts as it draws: the same stream as `weighted_draws`, whatever the key order."""
    keys = list(COLOURS)
    shuffled.shuffle(keys)
    table = dict(zip(keys, weights, strict=True))
    tally_rng, draws_rng = Rng(seed), Rng(seed)
    draws = draws_rng.weighted_draws(table, n)
    tally = tally_rng.weighted_tally(table, n)
    assert tally == [draws.count(key) for key in table]
    assert tally_rng.random() == draws_rng.random()  # and leaves the stream where the draws left it


def test_a_weighted_tally_refuses_weights_that_sum_to_nothing() -> None:
    with pytest.raises(ValueError, match="greater than zero"):
        Rng(1).weighted_tally(dict.fromkeys(COLOURS, 0), 3)


@settings(max_examples=200, deadline=None)
@given(
    counts=st.lists(st.integers(0, 4), min_size=len(COLOURS), max_size=len(COLOURS)).filter(lambda c: sum(c) > 0),
    data=st.data(),
)
def test_the_kept_bot_discard_is_the_rarest_plain_colours_first_then_white(
    counts: list[int], data: st.DataObject
) -> None:
    drawn = {c: n for c, n in zip(COLOURS, counts, strict=True) if n}
    need = data.draw(st.integers(1, sum(counts)))
    plain = sorted((n, i, c) for i, (c, n) in enumerate(zip(COLOURS, counts, strict=True)) if c != WILD)
    expected: dict[str, int] = {}
    left = need
    for _, _, colour in [*plain, (0, 0, WILD)]:
        take = min(left, drawn.get(colour, 0))
        if take:
            expected[colour] = take
            left -= take
    for order in (drawn, dict(sorted(drawn.items()))):  # a restored view lists keys sorted
        assert _discard_choice(tuple(order.items()), need) == Discard(tuple(expected.items()))


def test_a_restore_reuses_its_own_game_only_for_the_same_options() -> None:
    """`from_json` skips rebuilding the game for its own matches; a match saved with other
    options still gets a game with those options (and plays by them)."""
    game, short = load("wool_bluff"), load("wool_bluff", {"turns": 2})
    own = game.from_json(game.new_match(["a", "b"], 1).to_json())
    other = game.from_json(short.new_match(["a", "b"], 1).to_json())
    assert own.game is game
    assert other.game is not game and other.game.options == short.options != game.options
    assert isinstance(other, WoolBluffState) and other.game.turns == 2
