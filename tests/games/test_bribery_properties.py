"""Bribery properties beyond the every-game contract suite (test_every_game_contract.py already
checks, at every step, the conservation of luck cards, informants and influencers, twins of
every hidden card, the bot deciding from its own view, round trips and replay): variations of
the deck under the same checks, and how a match ends (one round per influencer in play)."""

from __future__ import annotations

from typing import Any

from contract import POLICY_KINDS, play_checked
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.games import load
from mcbridge.games.bribery import BriberyState

OPTIONS = st.fixed_dictionaries(
    {
        "hand_size": st.integers(0, 8),
        "informants": st.integers(0, 6),
        "pass_draw": st.integers(0, 3),
        "removed_influencers": st.integers(0, 3),
    }
)


@settings(max_examples=6, deadline=None)
@given(options=OPTIONS, players=st.integers(3, 5), seed=st.integers(0, 2**32), kind=st.sampled_from(POLICY_KINDS))
def test_deck_variations_keep_the_contract_and_play_one_round_per_influencer(
    options: dict[str, Any], players: int, seed: int, kind: str
) -> None:
    game = load("bribery", options)
    state, _ = play_checked(game, players, seed, kind)
    assert isinstance(state, BriberyState)
    assert state.round == len(game.influencers) - int(game.options["removed_influencers"])  # type: ignore[attr-defined]
    assert any(row["winner"] for row in state.result()["standings"])
