"""Dice Bluff properties beyond the every-game contract suite (test_every_game_contract.py plays
the two rulesets with their defaults): every mix of the options a ruleset leaves open, under
the suite's per-step checks (dice law, twins of every cup, the bot deciding from its own view,
round trips, replay), and how a match ends: one survivor, the only winner."""

from __future__ import annotations

from typing import Any

from contract import POLICY_KINDS, play_checked
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.games import load
from mcbridge.games.dice_bluff import DiceBluffState

OPTIONS = st.fixed_dictionaries(
    {
        "ruleset": st.sampled_from(["bluff", "perudo"]),
        "dice_per_player": st.integers(1, 3),
        "exact": st.sampled_from([None, "all_others", "challenger_only"]),
        "penalty": st.sampled_from([None, "difference", "one"]),
        "wild_face": st.sampled_from([None, 1, 6]),
        "set_aside": st.sampled_from([None, True, False]),
        "palifico": st.sampled_from([None, True, False]),
    }
)


@settings(max_examples=15, deadline=None)
@given(options=OPTIONS, players=st.integers(2, 6), seed=st.integers(0, 2**32), kind=st.sampled_from(POLICY_KINDS))
def test_every_option_mix_keeps_the_contract_and_ends_with_one_survivor(
    options: dict[str, Any], players: int, seed: int, kind: str
) -> None:
    state, _ = play_checked(load("dice_bluff", options), players, seed, kind)
    assert isinstance(state, DiceBluffState)
    rows = state.result()["standings"]
    assert sum(1 for d in state.dice if d > 0) == 1
    assert [row["seat"] for row in rows if row["winner"]] == [next(s for s, d in enumerate(state.dice) if d)]
