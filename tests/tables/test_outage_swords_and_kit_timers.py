"""Two gaps after world outages (issue 15, item 1): an emptied world took the players'
swords too, so each seated player gets theirs again once back (only on that evidence, never
on a plain reconnect); and a pause moves the Wool Bluff kit's own timers on with the table's,
so a long pause in the middle of a Reveal neither times it out nor reports tampering.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from faults.harness import rejoin, restart_world, step_through_outages
from table_support import Rig
from test_give_mode_restart import SETTLE_CYCLES, baseline, give_rig, kit_of, played, state_of
from test_tables_recovery import drop_every_connection

from mcbridge.tables.pause import OPERATOR
from mcbridge.world.blocks import DIAMOND_SWORD_ITEM
from mcbridge.world.embedded import EmbeddedHandle

SWORD = (DIAMOND_SWORD_ITEM, 0)
SWORD_LINE = "Here is a sword"


def swords(bot: object) -> tuple[int, int]:
    """(swords held, lines saying one was given) for a bot's current player."""
    player = bot.player  # type: ignore[attr-defined]
    return player.inventory().get(SWORD, 0), sum(SWORD_LINE in m for m in player.private_messages())


def settle(r: Rig) -> None:
    while not step_through_outages(r):
        pass  # bounded: the connection dials with a timeout, the world is there
    for _ in range(SETTLE_CYCLES):
        assert step_through_outages(r)


def test_an_emptied_world_gives_every_seated_player_their_sword_again_once(
        world: EmbeddedHandle, tmp_path: Path) -> None:
    r = give_rig(world, tmp_path / "journal.sqlite")
    restarted = None
    try:
        while r.table.state is None:
            step_through_outages(r)
        restarted = restart_world(world)
        rejoin(r.bots, [3, 2, 1, 0], restarted.players.join)
        assert all(swords(b) == (0, 0) for b in r.bots)  # the new world holds nothing of theirs
        assert not step_through_outages(r)
        settle(r)
        assert [swords(b) for b in r.bots] == [(1, 1)] * len(r.bots)  # the give went out once each
        for _ in range(SETTLE_CYCLES):  # and never again
            assert step_through_outages(r)
        assert [swords(b) for b in r.bots] == [(1, 1)] * len(r.bots)
    finally:
        r.close()
        if restarted is not None:
            restarted.stop()


def test_a_plain_reconnect_gives_no_sword(world: EmbeddedHandle, tmp_path: Path) -> None:
    r = give_rig(world, tmp_path / "journal.sqlite")
    try:
        while r.table.state is None:
            step_through_outages(r)
        for _ in range(SETTLE_CYCLES):
            assert step_through_outages(r)
        before = [swords(b) for b in r.bots]
        assert [lines for _, lines in before] == [1] * len(r.bots), before  # each got one on sitting down
        drop_every_connection(world)  # the link goes; the world and its inventories stay
        reconnects = r.conn.stats.reconnects
        for _ in range(2 * SETTLE_CYCLES):
            step_through_outages(r)
        assert r.conn.stats.reconnects == reconnects + 1  # it did reconnect (and probe the shell)
        assert [swords(b) for b in r.bots] == before
    finally:
        r.close()


def test_a_long_pause_mid_reveal_neither_times_it_out_nor_reports_tampering(
        world: EmbeddedHandle, tmp_path: Path) -> None:
    expected = baseline(tmp_path)
    r = give_rig(world, tmp_path / "journal.sqlite")
    try:
        while True:  # the bots act after each cycle until the Reveal starts, not yet on it
            assert step_through_outages(r)
            state = r.table.state
            if state is not None and state_of(r).phase == "reveal":
                break
            for bot in r.bots:
                bot.act()
        kit = kit_of(r)
        for _ in range(3):  # the wait starts, the (still empty) walls are read
            assert step_through_outages(r)
        assert kit.reveal_since is not None and kit.wall_reads is not None
        at_clock = r.clock.now
        waited = at_clock - kit.reveal_since
        at = r.table.seq

        pauses = r.supervisor.protocol.pauses
        pauses.set(0, OPERATOR, True)  # the same pause (and `_shift`) a world outage takes
        paused_at = r.clock.now
        step_through_outages(r)
        r.clock.now += 10 * r.arena.timeouts["reveal"]  # far past the Reveal's wait
        step_through_outages(r)
        pauses.set(0, OPERATOR, False)
        assert r.clock.now - kit.reveal_since == pytest.approx(waited + paused_at - at_clock)  # the time left
        for _ in range(SETTLE_CYCLES):
            assert step_through_outages(r)
        assert r.table.seq == at and state_of(r).phase == "reveal"  # still waiting for the walls

        while not r.table.finished:
            if step_through_outages(r):
                for bot in r.bots:
                    bot.act()
        assert played(r) == expected
        assert not any(d.get("tampered") for _, d in played(r)[0])
    finally:
        r.close()
