"""Dice Bluff's compact legal lists (one count range per face) and one spelling per action.

A long ladder's bids come as `ActionRange` entries (a short one, up to `PLAIN_UP_TO`, is
listed bid by bid), so a list stays a handful of entries however many dice are in play;
the concrete bids they stand for are exactly the ladder's raises, each one accepted by
`apply`. The bot reads the ranges without expanding them and must choose
exactly what the plain scan over the expanded ladder chose before (the reference below).
A set-aside in any dice order is the listed action itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.core import CHANCE, Action, IllegalAction, Rng
from mcbridge.core.legal import PLAIN_UP_TO, ActionRange, count, expand
from mcbridge.core.probability import binomial_tail
from mcbridge.games import load
from mcbridge.games.dice_bluff import Bid, Challenge, DiceBluffBot, DiceBluffState, FirstOpener, Roll, SetAside
from mcbridge.games.dice_bluff.bot import BID_CONFIDENCE, CHALLENGE_BELOW

RULESETS = [{}, {"ruleset": "perudo"}, {"dice_per_player": 10, "max_players": 8}]


def playthrough(options: Mapping[str, Any], players: int, seed: int) -> Iterator[DiceBluffState]:
    """A bot match, yielding the state each time a player is to bid (before the bot acts)."""
    game = load("dice_bluff", dict(options))
    state = game.new_match([f"p{i}" for i in range(min(players, game.player_range[1]))], seed)
    assert isinstance(state, DiceBluffState)
    rng, bot = Rng(seed), game.bot()
    while not state.is_over:
        seat = min(state.to_act())
        if seat == CHANCE:
            state.apply(seat, state.sample_chance(rng))
            continue
        yield state
        state.apply(seat, bot.choose(state.view(seat), state.legal_actions(seat), rng))


def ladder_bids(state: DiceBluffState) -> list[Bid]:
    rungs, start = state._ladder()
    return rungs.bids[start:]


@settings(max_examples=10, deadline=None)
@given(options=st.sampled_from(RULESETS), players=st.integers(2, 8), seed=st.integers(0, 10**6))
def test_the_ranges_stand_for_exactly_the_ladder_and_stay_few(options: dict[str, Any], players: int, seed: int) -> None:
    game = load("dice_bluff", options)
    for step, state in enumerate(playthrough(options, players, seed)):
        seat = state.turn
        assert seat is not None
        legal = state.legal_actions(seat)
        ranges = [e for e in legal if isinstance(e, ActionRange)]
        assert len(ranges) <= 6 and all(isinstance(e.first, Bid) for e in ranges)
        assert bool(ranges) == (len(ladder_bids(state)) > PLAIN_UP_TO)  # short ladders stay plain
        assert len([e for e in legal if isinstance(e, Bid | ActionRange)]) <= PLAIN_UP_TO
        assert sorted(map(repr, (a for a in expand(legal) if isinstance(a, Bid)))) == sorted(
            map(repr, ladder_bids(state))
        )
        if ranges:
            assert ranges[0].first == ladder_bids(state)[0]  # the lowest raise comes first
        assert count(legal) == len(list(expand(legal)))
        if step % 5 == 0:  # each end and the middle of every range, and the rest, are accepted
            ends = [e.at(i) for e in ranges for i in {0, len(e) // 2, len(e) - 1}]
            for action in [*ends, *(a for a in legal if not isinstance(a, ActionRange))]:
                game.from_json(state.to_json()).apply(seat, action)


def test_a_big_table_lists_a_few_entries_not_hundreds() -> None:
    game = load("dice_bluff", {"dice_per_player": 10, "max_players": 8})
    state = game.new_match([f"p{i}" for i in range(8)], 3)
    state.apply(CHANCE, FirstOpener(0))
    for seat in range(8):
        state.apply(CHANCE, Roll(seat, (1, 1, 2, 2, 3, 3, 4, 4, 5, 6)))
    legal = state.legal_actions(0)
    bids = [e for e in legal if isinstance(e, ActionRange)]
    assert len(bids) == 6 and count(bids) == 6 * 80  # 480 bids in six entries
    assert Bid(80, 6) in legal and Bid(81, 6) not in legal and Bid(0, 3) not in legal
    assert json.loads(json.dumps([e.to_json() for e in legal]))  # the compact form is JSON


@pytest.mark.parametrize("order", [(3, 1), (1, 3)])
def test_a_set_aside_in_any_order_is_the_listed_one(order: tuple[int, int]) -> None:
    game = load("dice_bluff", {})
    state = game.new_match(["a", "b"], 1)
    assert isinstance(state, DiceBluffState)
    state.apply(CHANCE, FirstOpener(0))
    state.apply(CHANCE, Roll(0, (1, 3, 5, 5, 6)))
    state.apply(CHANCE, Roll(1, (2, 2, 2, 4, 4)))
    action = SetAside(order)
    assert action == SetAside((1, 3)) and action.dice == (1, 3) and hash(action) == hash(SetAside((1, 3)))
    assert action in state.legal_actions(0)
    assert game.action_from_json({"type": "SetAside", "dice": [3, 1]}) == SetAside((1, 3))
    state.apply(0, action)
    assert state.aside[0] == [1, 3]


def test_a_set_aside_of_non_numbers_is_kept_as_given_and_refused() -> None:
    assert SetAside([2, 1]).dice == (1, 2)  # type: ignore[arg-type]
    odd = SetAside(("3", 1))  # type: ignore[arg-type]
    assert odd.dice == ("3", 1)  # not reinterpreted as 3
    game = load("dice_bluff", {})
    state = game.new_match(["a", "b"], 1)
    state.apply(CHANCE, FirstOpener(0))
    state.apply(CHANCE, Roll(0, (1, 3, 5, 5, 6)))
    state.apply(CHANCE, Roll(1, (2, 2, 2, 4, 4)))
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(0, odd)
    assert err.value.code == "dice_not_held" and state.to_json() == before


# -- the bot reads ranges exactly as the plain list ----------------------------------------
def reference_choice(view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
    """The bot as it was written for plain lists in ladder order (before ranges)."""
    bot = DiceBluffBot()

    def chance(count: int, face: int) -> float:
        rules, palifico = view["rules"], bool(view["palifico_round"])
        wild = rules["wild_face"]
        wild_bid = face == wild and not palifico
        known = list(view.get("hidden") or []) + [d for dice in view["aside"] for d in dice]
        hits = sum(1 for d in known if d == face or (not wild_bid and not palifico and d == wild))
        unseen = sum(n for s, n in enumerate(view["hidden_counts"]) if s != view["seat"])
        return binomial_tail(unseen, 1 / 6 if (wild_bid or palifico) else 2 / 6, count - hits)

    bids = [a for a in legal if isinstance(a, Bid)]
    if Challenge() in legal:
        doubt = CHALLENGE_BELOW + (rng.random() - 0.5) * 0.1
        if not bids or chance(view["bid"]["count"], view["bid"]["face"]) < doubt:
            return Challenge()
    scored = [(chance(b.count, b.face), b) for b in bids]
    believed = [b for p, b in scored if p >= BID_CONFIDENCE]
    if believed:
        return believed[-1]
    best = max(scored, key=lambda pb: pb[0])[1]
    keep = bot._set_aside_for(view, best, legal)
    return keep if keep is not None else best


@settings(max_examples=10, deadline=None)
@given(options=st.sampled_from(RULESETS), players=st.integers(2, 6), seed=st.integers(0, 10**6))
def test_the_bot_on_ranges_chooses_what_the_plain_scan_chose(options: dict[str, Any], players: int, seed: int) -> None:
    for state in playthrough(options, players, seed):
        seat = state.turn
        assert seat is not None
        legal = state.legal_actions(seat)
        plain = [*ladder_bids(state), *(a for a in legal if not isinstance(a, ActionRange))]
        view = state.view(seat)
        assert DiceBluffBot().choose(view, legal, Rng(seed)) == reference_choice(view, plain, Rng(seed))
        assert DiceBluffBot().choose(view, plain, Rng(seed)) == reference_choice(view, plain, Rng(seed))
