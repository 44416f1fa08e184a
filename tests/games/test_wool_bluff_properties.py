"""Property tests over random seeds, 2-8 players, RandomPolicy and the bot (issue 2, item 4)."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st
from test_wool_bluff_helpers import GAME8, new_match, play_match, restore

from mcbridge.core import CHANCE, Action, Policy, Rng
from mcbridge.core.policies import RandomPolicy
from mcbridge.games.wool_bluff import COLOURS, Reveal, WoolBluffState

SEEDS = st.integers(0, 2**32 - 1)
PLAYERS = st.integers(2, 8)
KINDS = st.sampled_from(["random", "bot", "mixed"])
FEW = settings(max_examples=25, deadline=None)


def policies(kind: str, players: int) -> list[Policy]:
    rand, bot = RandomPolicy(), GAME8.bot()
    if kind == "mixed":
        return [bot if seat % 2 else rand for seat in range(players)]
    return [bot if kind == "bot" else rand] * players


@FEW
@given(SEEDS, PLAYERS, KINDS)
def test_legal_play_ends_within_the_turn_limit_with_torches_and_wool_per_the_rules(
    seed: int, players: int, kind: str
) -> None:
    """Also proves the bot plays legally: play_match checks every choice against legal_actions."""
    state = new_match(players, seed)
    turns, hand = int(state.game.options["turns"]), state.hand_size
    last_torches = [0] * players

    def after(state: WoolBluffState, seat: int, action: Action) -> None:
        nonlocal last_torches
        assert all(now >= before for now, before in zip(state.torches, last_torches, strict=True))
        last_torches = list(state.torches)
        assert state.turn <= turns
        if state.phase in ("bid", "respond", "reveal"):
            # every active player keeps H - min(t, H) of the H wool drawn this turn
            expected = sum(hand - min(t, hand) for s, t in enumerate(state.torches) if state.active[s])
            assert state.wool_in_play == expected == state.view(None)["wool_in_play"]

    journal = play_match(state, policies(kind, players), Rng(seed), after=after)
    assert state.is_over
    # a turn: n deals, n discards, at most H*n raises each answered by n-1 seats, one reveal
    assert len(journal) <= turns * (2 * players + 1 + hand * players * players)
    result = state.result()
    assert result["over"] and result["turn"] <= turns
    rows = result["standings"]
    assert sorted(r["seat"] for r in rows) == list(range(players))
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert all(r["winner"] == (r["rank"] == 1) for r in rows) and rows[0]["winner"]
    assert len(state.active_seats()) <= 1 or state.turn == turns


@FEW
@given(SEEDS, PLAYERS, KINDS)
def test_replaying_the_journal_reproduces_the_match_exactly(seed: int, players: int, kind: str) -> None:
    state = new_match(players, seed)
    journal = play_match(state, policies(kind, players), Rng(seed))
    # the journal as a table stores it: (seat, action JSON)
    stored = json.dumps([[seat, action.to_json()] for seat, action in journal])
    replay = new_match(players, seed)
    for seat, data in json.loads(stored):
        replay.apply(seat, GAME8.action_from_json(data))
    assert replay == state
    assert replay.result() == state.result()
    # and the same seed plays the same match again
    assert play_match(new_match(players, seed), policies(kind, players), Rng(seed)) == journal


@settings(max_examples=15, deadline=None)
@given(SEEDS, PLAYERS, KINDS)
def test_json_round_trips_at_every_step_and_the_restored_copy_plays_on_identically(
    seed: int, players: int, kind: str
) -> None:
    state = new_match(players, seed)
    seats = policies(kind, players)
    rng = Rng(seed)
    while not state.is_over:
        copy = restore(state.to_json())
        assert copy == state
        assert copy.to_act() == state.to_act()
        assert copy.view(None) == state.view(None)
        for waiting in state.to_act() - {CHANCE}:
            assert copy.view(waiting) == state.view(waiting)
            assert copy.legal_actions(waiting) == state.legal_actions(waiting)
            assert copy.timeout_action(waiting) == state.timeout_action(waiting)
        ready = sorted(state.to_act())
        seat = ready[rng.randrange(len(ready))]
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = seats[seat].choose(state.view(seat), state.legal_actions(seat), rng)
        assert copy.apply(seat, action) == state.apply(seat, action)
        assert copy == state
        state = copy  # the restored copy is the one that plays on
    assert restore(state.to_json()) == state


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
    # the same game object: from_json would re-read the seed file for every twin
    return WoolBluffState.restore(state.game, data["state"])


@FEW
@given(SEEDS, PLAYERS, KINDS)
def test_no_view_but_the_owners_shows_a_hand_before_the_reveal(seed: int, players: int, kind: str) -> None:
    rng = Rng(seed ^ 0x5EED)
    checked = 0

    def before(state: WoolBluffState, seat: int, action: Action) -> None:
        nonlocal checked
        holders = [s for s in state.active_seats() if state.hands[s] is not None]
        if not holders:
            return
        secret = holders[rng.randrange(len(holders))]
        twin = with_hand_changed(state, secret)
        assert twin.hands[secret] != state.hands[secret]
        assert twin.view(None) == state.view(None)
        for other in range(players):
            if other != secret:
                assert twin.view(other) == state.view(other)
        assert twin.view(secret) != state.view(secret)
        checked += 1
        if isinstance(action, Reveal):
            # the check can see hands: once revealed, the difference is public
            shown = restore(state.to_json())
            shown.apply(CHANCE, action)
            twin.apply(CHANCE, action)
            assert twin.view(None) != shown.view(None)

    play_match(new_match(players, seed), policies(kind, players), Rng(seed), before=before)
    assert checked > 0
