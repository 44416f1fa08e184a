"""The tables and caches that make Braff, Bribery and Briscola bugiarda fast agree with the
rules written out the slow way: every fast path is checked against a plain reference here,
so a speed-up that changes an answer fails on its own, not only through a golden transcript."""

from __future__ import annotations

import itertools
import math
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import CHANCE, Rng
from mcbridge.games.braff.bot import _draws
from mcbridge.games.braff.cards import COLOURS, pack_counts, sort_cards
from mcbridge.games.braff.rules import _discard_list
from mcbridge.games.bribery.cards import by_size
from mcbridge.games.briscola_bugiarda.cards import DECK, POINTS, RANKS, SUITS, play_key, suit_of, trick_winner

FAST = settings(max_examples=60, deadline=None)


# -- Bribery ----------------------------------------------------------------------------------
@FAST
@given(st.lists(st.sampled_from([0, 100, 200, 300, 400, 500]), max_size=9))
def test_bribery_picks_are_every_distinct_sub_multiset_in_product_order(cards: list[int]) -> None:
    hand = tuple(sorted(cards))
    counts = sorted(Counter(hand).items())
    expected: dict[int, list[tuple[int, ...]]] = {}
    for takes in itertools.product(*(range(n + 1) for _, n in counts)):
        pick = tuple(value for (value, _), k in zip(counts, takes, strict=True) for _ in range(k))
        expected.setdefault(len(pick), []).append(pick)
    assert {size: list(group) for size, group in by_size(hand).items()} == expected


def test_bribery_legal_bets_are_the_calls_then_the_raises_of_the_hand() -> None:
    game = games.load("bribery")
    state = game.new_match(["a", "b", "c"], 4)
    rng = Rng(4)
    while state.phase != "bet":
        state.apply(CHANCE, state.sample_chance(rng))
    seat = min(state.to_act())
    state.highest = 2  # white-box: someone bet two cards
    hand = state.hands[seat]
    legal = state.legal_actions(seat)
    calls = [a.cards for a in legal if type(a).__name__ == "Call"]
    raises = [a.cards for a in legal if type(a).__name__ == "Raise"]
    assert len(hand) >= 3, hand  # so there are calls and raises to list
    assert calls == list(by_size(tuple(hand)).get(2, ()))
    assert raises == [c for size in range(3, len(hand) + 1) for c in by_size(tuple(hand)).get(size, ())]


# -- Braff ------------------------------------------------------------------------------------
pools = st.dictionaries(st.sampled_from(COLOURS), st.integers(0, 5), min_size=1).filter(lambda p: sum(p.values()) >= 2)


@FAST
@given(pools, st.integers(1, 2))
def test_braff_draw_table_is_the_hypergeometric_distribution(pool: dict[str, int], size: int) -> None:
    deck = [c for c in COLOURS for _ in range(pool.get(c, 0))]
    brute = Counter(pack_counts([hand.count(c) for c in COLOURS]) for hand in itertools.combinations(deck, size))
    total = math.comb(len(deck), size)
    table = _draws(tuple(sorted(pool.items())), size)
    assert len({code for code, _ in table}) == len(table)
    assert {code: p for code, p in table} == {code: n / total for code, n in brute.items()}


@FAST
@given(st.lists(st.sampled_from(COLOURS), min_size=1, max_size=6), st.integers(0, 3))
def test_braff_discards_are_every_distinct_pick_of_at_most_the_limit(hand: list[str], most: int) -> None:
    listed = [d.cards for d in _discard_list(tuple(sort_cards(hand)), most)]
    picks = {sort_cards(p) for k in range(most + 1) for p in itertools.combinations(hand, k)}
    assert sorted(listed, key=lambda c: (len(c), [COLOURS.index(x) for x in c])) == listed
    assert set(listed) == picks and len(listed) == len(picks)


@FAST
@given(st.lists(st.sampled_from(COLOURS), max_size=8), st.integers(0, 2))
def test_braff_cup_of_a_packed_hand_is_the_cup_of_the_hand(hand: list[str], bonus: int) -> None:
    game = games.load("braff")
    for character in game.characters.values():
        packed = pack_counts([hand.count(c) for c in COLOURS])
        assert character.cup_of_packed(packed, bonus) == character.cup(hand, bonus)


# -- Briscola bugiarda ------------------------------------------------------------------------
@FAST
@given(
    st.lists(st.sampled_from(DECK), min_size=1, max_size=5, unique=True),
    st.sampled_from([*SUITS, None]),
)
def test_briscola_trick_winner_is_the_highest_trump_else_the_highest_of_the_suit_led(
    cards: list[str], trump: str | None
) -> None:
    plays = list(enumerate(cards))
    led = suit_of(cards[0])
    trumps = [(s, c) for s, c in plays if suit_of(c) == trump]
    contenders = trumps or [(s, c) for s, c in plays if suit_of(c) == led]
    expected = min(contenders, key=lambda sc: RANKS.index(sc[1][0]))[0]  # RANKS is strongest first
    assert trick_winner(plays, trump) == expected
    for _, c in plays:
        kind = 2 if suit_of(c) == trump else 1 if suit_of(c) == led else 0
        assert play_key(c, trump, led) == (kind, len(RANKS) - RANKS.index(c[0]))


def test_briscola_card_tables_cover_the_pack() -> None:
    assert len(DECK) == 40 and sum(POINTS[c[0]] for c in DECK) == 120
