"""Wool Bluff in give mode through a world that restarts empty (issue 15, item 1): the players'
inventories go with the world, so the table hands every seated player their hand back from
the rules state, once, and the match ends exactly as it would have without the restart. A
plain reconnect to a world that kept its arena hands out nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from faults.harness import rejoin, restart_world, run_until, step_through_outages
from table_support import Rig, make_rig, seat_bots, shipped_arena
from test_tables_recovery import drop_every_connection

from mcbridge.games.wool_bluff import COLOURS, WoolBluffState
from mcbridge.tables.kits.wool_bluff import WoolBluffKit
from mcbridge.world.blocks import REDSTONE_TORCH_ON, wool
from mcbridge.world.embedded import EmbeddedHandle, start_embedded

SEED = 2
RESTART_AT = 30  # actions into the match: a few turns in
REDSTONE_TORCH = REDSTONE_TORCH_ON.id
SETTLE_CYCLES = 15  # reconnect, probe, rebuild, hand back, written; the rest of a 0.5 s Reveal hold


def give_rig(world: EmbeddedHandle, path: Path, torches: str = "controller") -> Rig:
    r = make_rig(world, shipped_arena(dispensing="give", torches=torches), path, seed=SEED)
    assert kit_of(r).dispensing == "give"
    seat_bots(r)
    return r


#: A match as journaled: its actions and its result.
Played = tuple[list[tuple[int, dict[str, Any]]], dict[str, Any] | None]


def played(r: Rig) -> Played:
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    return saved.actions, saved.result


def baseline(tmp_path: Path, torches: str = "controller") -> Played:
    with start_embedded(port=0, tps=0) as world:
        r = give_rig(world, tmp_path / "baseline.sqlite", torches)
        try:
            run_until(r, lambda: r.table.finished)
            return played(r)
        finally:
            r.close()


def kit_of(r: Rig) -> WoolBluffKit:
    kit = r.table.kit
    assert isinstance(kit, WoolBluffKit)
    return kit


def state_of(r: Rig) -> WoolBluffState:
    state = r.table.state
    assert isinstance(state, WoolBluffState)
    return state


def mid_bid(r: Rig) -> bool:
    """Some turns in, every hand dealt and discarded: what the players hold is their hand."""
    return at_phase(r, "bid")


def at_phase(r: Rig, phase: str) -> bool:
    """Some turns in, at `phase`: "reveal" once every wall is up, "deal" while players owe
    torches (`torches: players`)."""
    state = r.table.state
    if not isinstance(state, WoolBluffState) or r.table.seq < RESTART_AT or state.phase != phase:
        return False
    if phase == "reveal":
        return all(b.placed_turn == state.turn for b in r.bots)
    if phase == "deal" and kit_of(r).torches == "players":
        return bool(kit_of(r).torch_wait) and all(b.torches_up for b in r.bots if b.booth in kit_of(r).torch_wait)
    if phase == "discard":  # a seat's pad already read, the rest of its discard still to come
        return any(ui.pad for ui in kit_of(r).ui)
    return True


def start_over(bot: Any, owing: dict[int, int]) -> None:
    """A player back in an empty world does again what it took with it: discards, walls, and
    torches owed (a wall the controller lights it draws again itself)."""
    bot.acted_on, bot.placed_turn, bot.pending_pad = None, 0, []
    if bot.booth in owing:
        bot.torches_up = 0


def held_wool(bot: Any) -> dict[str, int]:
    have = bot.player.inventory()
    return {c: have[(wool(c).id, wool(c).data)] for c in COLOURS if have.get((wool(c).id, wool(c).data))}


def hands(r: Rig) -> dict[str, dict[str, int]]:
    state = state_of(r)
    return {state.players[s]: {c: n for c, n in (state.hands[s] or {}).items() if n} for s in state.active_seats()}


def given_back_lines(bot: Any) -> list[str]:
    return [m for m in bot.player.private_messages() if "wool are given back" in m]


@pytest.mark.parametrize(("phase", "torches"), [
    ("bid", "controller"),  # hands held, nothing else
    ("discard", "controller"),  # some wool already on the pads: the whole drawn hand comes back
    ("reveal", "controller"),  # the hands were up on the walls: back in hand, put up again
    ("deal", "controller"),  # the hold after a Reveal: the next deal hands out the new hands, once
    ("deal", "players"),  # penalised players were putting up torches: those come back too
])
def test_give_mode_an_empty_restart_hands_back_every_hand_and_ends_as_without_it(
        world: EmbeddedHandle, tmp_path: Path, phase: str, torches: str) -> None:
    expected = baseline(tmp_path, torches)
    r = give_rig(world, tmp_path / "journal.sqlite", torches)
    restarted = None
    try:
        run_until(r, lambda: at_phase(r, phase))  # the bots' last moves die with the world: made again
        owing = dict(kit_of(r).torch_wait)
        if phase == "bid":
            assert {b.player.name: held_wool(b) for b in r.bots} == hands(r)  # the world held the hands

        restarted = restart_world(world)
        rejoin(r.bots, [3, 2, 1, 0], restarted.players.join)  # before the controller is back
        assert all(held_wool(b) == {} for b in r.bots)  # the new world holds nothing of theirs
        assert not step_through_outages(r)  # the controller sees the world gone: paused
        r.clock.now += 10 * max(r.arena.timeouts.values())  # a long outage: no wait may run out for it
        while not step_through_outages(r):
            pass  # bounded: the connection dials with a timeout, the world is there
        for _ in range(SETTLE_CYCLES):
            assert step_through_outages(r)

        assert {b.player.name: held_wool(b) for b in r.bots} == hands(r)  # each hand, from the rules
        # once, to each; in the deal phase a new hand comes with its deal (and nothing else)
        assert [len(given_back_lines(b)) for b in r.bots] == [int(phase != "deal")] * len(r.bots)
        for bot in r.bots:
            torches_held = bot.player.inventory().get((REDSTONE_TORCH, 0), 0)
            assert torches_held == owing.get(bot.booth, 0)  # the whole wall they were filling
            told = [m for m in bot.player.private_messages() if "to put up on your penalty wall again" in m]
            assert len(told) == (bot.booth in owing)
        for _ in range(SETTLE_CYCLES):  # and never again
            assert step_through_outages(r)
        assert {b.player.name: held_wool(b) for b in r.bots} == hands(r)

        for bot in r.bots:
            start_over(bot, owing)
            bot.sit_down(by_walking=True)
        run_until(r, lambda: r.table.finished)
        assert played(r) == expected
        assert not any(d.get("tampered") for _, d in played(r)[0])  # every wall was built whole
    finally:
        r.close()
        if restarted is not None:
            restarted.stop()


def test_give_mode_a_reconnect_to_a_world_that_kept_its_arena_gives_nothing_twice(
        world: EmbeddedHandle, tmp_path: Path) -> None:
    expected = baseline(tmp_path)
    r = give_rig(world, tmp_path / "journal.sqlite")
    try:
        run_until(r, lambda: mid_bid(r))
        assert step_through_outages(r)
        before = {b.player.name: held_wool(b) for b in r.bots}
        assert before == hands(r)

        drop_every_connection(world)  # the link goes; the world and its inventories stay
        reconnects = r.conn.stats.reconnects
        for _ in range(2 * SETTLE_CYCLES):
            step_through_outages(r)
        assert r.conn.stats.reconnects == reconnects + 1  # it did reconnect (and probe the shell)

        assert {b.player.name: held_wool(b) for b in r.bots} == before
        assert all(given_back_lines(b) == [] for b in r.bots)
        run_until(r, lambda: r.table.finished)
        assert played(r) == expected
    finally:
        r.close()
