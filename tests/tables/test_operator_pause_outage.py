"""The operator's pause from the web console and a real world outage are one pause with two
reasons (`mcbridge.tables.pause`): `start_web` hands the hub the supervisor's `Pauses`, the
world coming back leaves the table paused for the operator (and chat says so), and the
operator's resume then lets the turn go on with the time that was left."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from faults.harness import restart_world, step_through_outages
from table_support import NAMES, make_rig, seat_players, shipped_arena

from mcbridge.tables.pause import OPERATOR, WORLD
from mcbridge.web import start_web
from mcbridge.web.hub import Command, WebHub
from mcbridge.world.embedded import EmbeddedHandle

PAUSED = ("The operator paused the table. Nothing is lost; turn timers go on with the time that was left "
          "when it resumes.")
RESUMED = "The table resumes. Turn timers go on with the time that was left."


def op(hub: WebHub, action: str, table: str) -> str:
    done: list[dict[str, Any]] = []
    hub.submit(Command(action, table, None, "test", done.append))
    hub.cycle()  # what `run` does after every cycle
    [reply] = done
    return str(reply["result"])


def test_a_world_outage_during_an_operator_pause_ends_with_the_operators_resume(
        world: EmbeddedHandle, tmp_path: Path) -> None:
    r = make_rig(world, shipped_arena(), tmp_path / "journal.sqlite")
    restarted = None
    hub, server = start_web(":0", [r.table], token="tok", journal_path=tmp_path / "journal.sqlite",
                            conn=r.conn, supervisor=r.supervisor)
    try:
        name = r.table.arena.name
        pauses = r.supervisor.protocol.pauses
        assert hub.pauses is pauses  # one mechanism, not the hub's own
        seat_players(r)
        r.run_until(lambda: bool(r.table.deadlines), max_cycles=400)  # a player's turn is timed
        assert op(hub, "pause", name) == "paused"
        left = {seat: due - r.clock.now for seat, due in r.table.deadlines.items()}
        at = r.table.seq

        restarted = restart_world(world)  # the world goes, and comes back empty
        watcher = restarted.players.join(NAMES[0])
        assert not step_through_outages(r)
        assert pauses.reasons(0) == {OPERATOR, WORLD}
        r.clock.now += 1000  # far past every timeout
        for _ in range(20):
            if step_through_outages(r):
                break
        else:
            raise AssertionError("the controller did not reconnect")
        assert pauses.reasons(0) == {OPERATOR} and r.table.paused  # still paused: the operator's reason holds
        for _ in range(3):
            step_through_outages(r)  # the notice goes out; nothing ticks
        assert PAUSED in watcher.chat_heard()  # the players of the new world hear why
        assert r.table.seq == at

        assert op(hub, "resume", name) == "resumed" and not r.table.paused
        assert {s: due - r.clock.now for s, due in r.table.deadlines.items()} == pytest.approx(left)  # the time left
        assert r.table.seq == at
        step_through_outages(r)
        assert RESUMED in watcher.chat_heard()
        assert [e["result"] for e in hub.oplog] == ["paused", "resumed"]
    finally:
        server.stop()
        r.close()
        if restarted is not None:
            restarted.stop()
