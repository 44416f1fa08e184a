"""One pause mechanism: the operator's pause is a reason beside a world outage (and journal
trouble) in the supervisor's `Pauses`; the table stays paused while any reason holds, its
timers resume with the time that was left, and chat says why it still waits."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from web_support import Clock, seated_table

from mcbridge.tables.pause import WORLD
from mcbridge.tables.supervisor import SupervisorProtocol
from mcbridge.tables.table import Table
from mcbridge.web.hub import Command, WebHub

PAUSED_BY_OPERATOR = ("The operator paused the table. Nothing is lost; turn timers go on with the time "
                      "that was left when it resumes.")
RESUMED = "The table resumes. Turn timers go on with the time that was left."


def op(hub: WebHub, action: str) -> str:
    done: list[dict[str, Any]] = []
    hub.submit(Command(action, "wool-bluff-1", None, "test", done.append))
    hub.cycle()
    [reply] = done
    return str(reply["result"])


@pytest.fixture
def rig(tmp_path: Path) -> tuple[Table, Clock, SupervisorProtocol, WebHub]:
    table, clock = seated_table(tmp_path)
    table.tick()  # dealt: the first bidder's turn timer runs
    assert table.deadlines
    supervisor = SupervisorProtocol([table])
    hub = WebHub([table], pauses=supervisor.pauses)
    return table, clock, supervisor, hub


def shown(hub: WebHub) -> dict[str, Any]:
    return dict(json.loads(hub.latest["wool-bluff-1"]["en"]))


def test_resuming_the_operators_pause_during_an_outage_leaves_the_table_paused(rig: Any) -> None:
    table, clock, supervisor, hub = rig
    deadlines, seq = dict(table.deadlines), table.seq
    assert op(hub, "pause") == "paused"
    supervisor.world_lost()
    clock.now += 100  # past the 60 s turn
    assert op(hub, "resume") == "resumed; still paused: world"
    table.tick()
    assert table.paused and table.seq == seq  # no timeout while the world is away
    assert shown(hub)["pause_reasons"] == ["world"]
    clock.now += 20
    supervisor.pauses.set_all(WORLD, False)  # a cycle went through
    assert not table.paused
    assert table.deadlines == {s: at + 120 for s, at in deadlines.items()}  # the whole pause, once
    assert supervisor.pauses.notices.pop(0) == [PAUSED_BY_OPERATOR, RESUMED]


def test_the_world_coming_back_leaves_the_operators_pause_and_chat_says_so(rig: Any) -> None:
    table, clock, supervisor, hub = rig
    deadlines = dict(table.deadlines)
    supervisor.world_lost()
    assert op(hub, "pause") == "paused"
    hub.cycle()
    state = shown(hub)
    assert state["paused"] is True and state["pause_reasons"] == ["operator", "world"]
    left = dict(state["time_left"])
    clock.now += 30
    supervisor.pauses.set_all(WORLD, False)
    assert table.paused
    hub.cycle()
    assert shown(hub)["time_left"] == left  # the spectators' timers stand still while paused
    # the world heard nothing while it was gone: the operator's reason is said again
    assert supervisor.pauses.notices.pop(0) == [PAUSED_BY_OPERATOR, PAUSED_BY_OPERATOR]
    assert op(hub, "resume") == "resumed" and not table.paused
    assert table.deadlines == {s: at + 30 for s, at in deadlines.items()}
    assert supervisor.pauses.notices.pop(0) == [RESUMED]
    hub.cycle()
    assert shown(hub)["paused"] is False and shown(hub)["pause_reasons"] == []


def test_an_unknown_pause_reason_is_a_bug_not_a_silent_pause(rig: Any) -> None:
    supervisor = rig[2]
    with pytest.raises(ValueError, match="unknown pause reason 'coffee'"):
        supervisor.pauses.set(0, "coffee", True)
