"""Dice Bluff property tests: random matches with RandomPolicy and the bot.

Every step checks: dice only decrease and cups + set-aside dice equal the dice owned; the
JSON round trip is lossless; no view (public or another seat's) changes when only one
seat's hidden dice change; the timeout action is legal. At the end the journal replays
to an equal state.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.core import CHANCE, Action, Rng
from mcbridge.core.policies import RandomPolicy
from mcbridge.games import load
from mcbridge.games.dice_bluff import DiceBluffState

MAX_ACTIONS = 20_000


def twin_with_other_cup(state: DiceBluffState, seat: int) -> DiceBluffState:
    """The same match except that `seat`'s hidden dice show other faces."""
    twin = state.game.from_json(state.to_json())
    assert isinstance(twin, DiceBluffState)
    twin.hidden[seat] = [d % 6 + 1 for d in state.hidden[seat] or []]
    return twin


def check_no_leak(state: DiceBluffState) -> None:
    for hider in range(len(state.players)):
        if not state.hidden[hider]:
            continue
        twin = twin_with_other_cup(state, hider)
        assert twin.view(None) == state.view(None)
        for seat in range(len(state.players)):
            if seat != hider:
                assert twin.view(seat) == state.view(seat), (hider, seat)
        assert twin.view(hider) != state.view(hider)  # the change was real


def play(options: dict[str, Any], players: int, seed: int, use_bot: bool) -> None:
    game = load("dice_bluff", options)
    names = [f"p{i}" for i in range(players)]
    state = game.new_match(names, seed)
    assert isinstance(state, DiceBluffState)
    policy = game.bot() if use_bot else RandomPolicy()
    rng = Rng(seed)
    journal: list[tuple[int, Action]] = []
    dice_before = list(state.dice)
    while not state.is_over:
        assert len(journal) < MAX_ACTIONS, "match did not terminate"
        seat = min(state.to_act())
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions(seat)
            assert state.timeout_action(seat) in legal
            action = policy.choose(state.view(seat), legal, rng)
            if use_bot and state.phase == "bid":
                # the bot decides from its own view: other cups do not change its choice
                for hider in state.active_seats():
                    if hider != seat and state.hidden[hider]:
                        twin = twin_with_other_cup(state, hider)
                        again = policy.choose(twin.view(seat), twin.legal_actions(seat), Rng(len(journal)))
                        assert again == policy.choose(state.view(seat), legal, Rng(len(journal)))
        state.apply(seat, action)
        journal.append((seat, action))
        assert game.action_from_json(action.to_json()) == action

        assert all(now <= before for now, before in zip(state.dice, dice_before, strict=True))
        dice_before = list(state.dice)
        for s, cup in enumerate(state.hidden):
            if cup is not None and not state.is_over:  # the last cups stay up after the match
                assert len(cup) + len(state.aside[s]) == state.dice[s]
        assert game.from_json(state.to_json()) == state
        check_no_leak(state)

    result = state.result()
    assert result["over"] and sum(1 for row in result["standings"] if row["winner"]) == 1
    assert sum(1 for d in state.dice if d > 0) == 1
    replay = game.new_match(names, seed)
    for seat, action in journal:
        replay.apply(seat, action)
    assert replay == state


OPTIONS = st.fixed_dictionaries(
    {
        "ruleset": st.sampled_from(["bluff", "perudo"]),
        "dice_per_player": st.integers(1, 3),
        "exact": st.sampled_from([None, "all_others", "challenger_only"]),
        "penalty": st.sampled_from([None, "difference", "one"]),
        "wild_face": st.sampled_from([None, 1, 6]),
    }
)


@settings(max_examples=50, deadline=None)
@given(options=OPTIONS, players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_random_matches(options: dict[str, Any], players: int, seed: int) -> None:
    play(options, players, seed, use_bot=False)


@settings(max_examples=50, deadline=None)
@given(options=OPTIONS, players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_bot_matches(options: dict[str, Any], players: int, seed: int) -> None:
    play(options, players, seed, use_bot=True)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32))
def test_full_size_bot_matches(players: int, seed: int) -> None:
    play({}, players, seed, use_bot=True)
