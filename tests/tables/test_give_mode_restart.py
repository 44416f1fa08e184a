"""Wool Bluff in give mode through a world that restarts empty (issue 15, item 1): the players'
inventories go with the world, so the table hands every seated player their hand back from
the rules state, once, and the match ends exactly as it would have without the restart. A
plain reconnect to a world that kept its arena hands out nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from faults.harness import rejoin, restart_world, run_until, step_through_outages
from table_support import Rig, make_rig, seat_bots, shipped_arena
from test_tables_recovery import drop_every_connection

from mcbridge.games.wool_bluff import COLOURS, WoolBluffState
from mcbridge.world.blocks import wool
from mcbridge.world.embedded import EmbeddedHandle, start_embedded

SEED = 2
RESTART_AT = 30  # actions into the match: a few turns in
SETTLE_CYCLES = 5  # reconnect, probe, rebuild, hand back, written


def give_rig(world: EmbeddedHandle, path: Path) -> Rig:
    r = make_rig(world, shipped_arena(dispensing="give"), path, seed=SEED)
    assert r.table.kit.dispensing == "give"
    seat_bots(r)
    return r


def played(r: Rig) -> tuple[list[tuple[int, dict[str, Any]]], dict[str, Any] | None]:
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    return saved.actions, saved.result


def baseline(tmp_path: Path) -> tuple[list[tuple[int, dict[str, Any]]], dict[str, Any] | None]:
    with start_embedded(port=0, tps=0) as world:
        r = give_rig(world, tmp_path / "baseline.sqlite")
        try:
            run_until(r, lambda: r.table.finished)
            return played(r)
        finally:
            r.close()


def state_of(r: Rig) -> WoolBluffState:
    state = r.table.state
    assert isinstance(state, WoolBluffState)
    return state


def mid_bid(r: Rig) -> bool:
    """Some turns in, every hand dealt and discarded: what the players hold is their hand."""
    state = r.table.state
    return isinstance(state, WoolBluffState) and r.table.seq >= RESTART_AT and state.phase == "bid"


def held_wool(bot: Any) -> dict[str, int]:
    have = bot.player.inventory()
    return {c: have[(wool(c).id, wool(c).data)] for c in COLOURS if have.get((wool(c).id, wool(c).data))}


def hands(r: Rig) -> dict[str, dict[str, int]]:
    state = state_of(r)
    return {state.players[s]: {c: n for c, n in (state.hands[s] or {}).items() if n} for s in state.active_seats()}


def given_back_lines(bot: Any) -> list[str]:
    return [m for m in bot.player.private_messages() if "wool are given back" in m]


def test_give_mode_an_empty_restart_hands_back_every_hand_and_ends_as_without_it(
        world: EmbeddedHandle, tmp_path: Path) -> None:
    expected = baseline(tmp_path)
    r = give_rig(world, tmp_path / "journal.sqlite")
    restarted = None
    try:
        run_until(r, lambda: mid_bid(r))
        assert step_through_outages(r)
        assert {b.player.name: held_wool(b) for b in r.bots} == hands(r)  # the world held the hands

        restarted = restart_world(world)
        rejoin(r.bots, [3, 2, 1, 0], restarted.players.join)  # before the controller is back
        assert all(held_wool(b) == {} for b in r.bots)  # the new world holds nothing of theirs
        while not step_through_outages(r):
            pass  # bounded: the connection dials with a timeout, the world is there
        for _ in range(SETTLE_CYCLES):
            assert step_through_outages(r)

        assert {b.player.name: held_wool(b) for b in r.bots} == hands(r)  # each hand, from the rules
        assert all(len(given_back_lines(b)) == 1 for b in r.bots)  # said once, to each
        for _ in range(SETTLE_CYCLES):  # and never again
            assert step_through_outages(r)
        assert {b.player.name: held_wool(b) for b in r.bots} == hands(r)

        for bot in r.bots:
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
