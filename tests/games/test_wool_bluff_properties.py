"""Wool Bluff properties beyond the every-game contract suite (test_every_game_contract.py,
which already checks round trips, replay, twins, the wool law and monotone torches at every
step of default matches): tables of five to eight (the default allows four) under the same checks, the turn
limit and journal bound, the standings, and the reveal that makes every hand public."""

from __future__ import annotations

import json

from contract import POLICY_KINDS, play_checked, walk
from hypothesis import given, settings
from hypothesis import strategies as st
from test_wool_bluff_helpers import GAME8, restore

from mcbridge.core import CHANCE, Action, Event, Rng, State
from mcbridge.games.wool_bluff import COLOURS, Reveal, WoolBluffState

SEEDS = st.integers(0, 2**32 - 1)


@settings(max_examples=5, deadline=None)
@given(SEEDS, st.integers(5, 8), st.sampled_from(POLICY_KINDS))
def test_tables_of_five_to_eight_keep_the_contract_and_end_within_the_turn_limit(
    seed: int, players: int, kind: str
) -> None:
    turns = int(GAME8.options["turns"])

    def within_the_turn_limit(state: State, seat: int, action: Action, events: list[Event]) -> None:
        assert isinstance(state, WoolBluffState) and state.turn <= turns

    state, journal = play_checked(GAME8, players, seed, kind, on_step=within_the_turn_limit)
    assert isinstance(state, WoolBluffState)
    hand = state.hand_size
    # a turn: n deals, n discards, at most H*n raises each answered by n-1 seats, one reveal
    assert len(journal) <= turns * (2 * players + 1 + hand * players * players)
    result = state.result()
    assert result["turn"] <= turns
    rows = result["standings"]
    assert all(r["winner"] == (r["rank"] == 1 and not r["forfeited"]) for r in rows) and rows[0]["winner"]
    assert len(state.active_seats()) <= 1 or state.turn == turns
    winners = [r for r in rows if r["winner"]]
    assert all(r["prize"]["count"] == GAME8.options["prize"]["winner"] for r in winners)


def with_hand_changed(state: WoolBluffState, seat: int) -> WoolBluffState:
    """The same match except that one wool of `seat` has another colour (in the deal too)."""
    data = json.loads(state.to_json())
    hand = data["state"]["hands"][seat]
    old = next(c for c in COLOURS if hand.get(c, 0) > 0)
    new = COLOURS[(COLOURS.index(old) + 1) % len(COLOURS)]
    for field in ("drawn", "hands"):
        wool = data["state"][field][seat]
        wool[new] = wool.get(new, 0) + 1
        wool[old] -= 1
        if not wool[old]:
            del wool[old]
    return WoolBluffState.restore(state.game, data["state"])


@settings(max_examples=15, deadline=None)
@given(SEEDS, st.integers(2, 8), st.sampled_from(POLICY_KINDS))
def test_the_reveal_shows_every_hand_to_everyone(seed: int, players: int, kind: str) -> None:
    """Until the reveal a changed hand is invisible (the suite's twins); the reveal is where the
    difference becomes public, because the check reads every wall."""
    rng = Rng(seed ^ 0x5EED)
    reveals = 0
    for state in walk(GAME8, players, seed, kind):
        assert isinstance(state, WoolBluffState)
        if state.phase != "reveal":
            continue
        holders = [s for s in state.active_seats() if state.hands[s]]
        if not holders:
            continue
        secret = rng.pick(holders)
        twin = with_hand_changed(state, secret)
        assert twin.view(None) == state.view(None)
        shown = restore(state.to_json())
        action = state.sample_chance(Rng(seed))
        assert isinstance(action, Reveal)
        shown.apply(CHANCE, action)
        twin.apply(CHANCE, action)
        assert twin.view(None) != shown.view(None)
        reveals += 1
    assert reveals > 0
