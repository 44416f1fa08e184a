"""The runtime's public operator actions (`Table.unseat`, `Table.reset_match`), used by the
web console: each leaves the table as the runtime's own path does (a player who left and
stayed away, a match that ended and was held), and the reset is journaled."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from table_support import StepClock as Clock

from mcbridge import CONFIG_DIR
from mcbridge.tables.config import load_arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.table import Table

NAMES = ["Aki", "Ben", "Chie", "Dan"]
STEP = 5.0  # seconds per tick: past `absent` (2 s), short of every phase's timeout
MAX_TICKS = 20_000


def started(tmp: Path, name: str) -> tuple[Table, Clock]:
    """The shipped Bribery arena (a match that the rules' timeouts alone play to its end),
    four players seated, the match started."""
    arena = load_arena(CONFIG_DIR / "arenas" / "bribery.yaml")
    arena = dataclasses.replace(arena, locale="en", timeouts={**arena.timeouts, "absent": 2})
    clock = Clock()
    table = Table(arena, Journal(tmp / f"{name}.sqlite"), clock, seed=3, start_delay=0.0, hold=1.0, reveal_hold=0.0)
    for booth, player in enumerate(NAMES):
        table.join(booth, player)
    table.tick()  # the match starts
    assert table.state is not None
    return table, clock


def step(table: Table, clock: Clock, online: list[str]) -> None:
    clock.now += STEP
    table.on_presence(online, {})
    table.tick()


def lobby_state(table: Table) -> dict[str, Any]:
    scene = table.scene()
    return {"state": table.state, "match": table.match_id, "booths": table.booths, "seq": table.seq,
            "deadlines": table.deadlines, "finished": table.finished,
            "occupants": [(o.name, o.present) if o else None for o in table.occupants],
            "blocks": scene.blocks, "signs": scene.signs, "countdown": table.lobby_countdown(table.clock())}


def test_an_unseated_player_is_played_for_as_one_who_left_and_the_booth_is_freed(tmp_path: Path) -> None:
    left, left_clock = started(tmp_path, "left")
    unseated, unseated_clock = started(tmp_path, "unseated")
    assert left.state is not None and unseated.state is not None
    assert left.state.to_json() == unseated.state.to_json()
    everyone, without_ben = NAMES, [n for n in NAMES if n != "Ben"]

    left.on_presence(without_ben, {})  # the runtime's own path: Ben goes offline...
    assert unseated.unseat(1, "operator") == "Ben"  # ... and the operator's, at the same moment
    told = "The operator unseated Ben from seat 2; the rules play for them until the match ends."
    assert told in unseated.outbox.chat
    for _ in range(MAX_TICKS):
        step(left, left_clock, without_ben)
        step(unseated, unseated_clock, everyone)  # Ben is still online: the poll must not bring him back
        assert left.state is not None and unseated.state is not None
        assert unseated.state.to_json() == left.state.to_json()
        assert unseated.occupants[1] is not None and not unseated.occupants[1].present
        if left.state.is_over:
            break
    else:
        raise AssertionError(f"the match did not end within {MAX_TICKS} ticks")
    first = left.match_id
    assert first is not None
    assert unseated.journal.match(first).actions == left.journal.match(first).actions
    assert unseated.journal.match(first).result == left.journal.match(first).result
    for _ in range(MAX_TICKS):  # the standings' hold, then the lobby
        step(left, left_clock, without_ben)
        step(unseated, unseated_clock, everyone)
        if left.state is None:
            break
    assert lobby_state(unseated) == lobby_state(left)
    assert unseated.occupants[1] is None  # the booth is free once the match is over
    unseated.join(1, "Ben")  # ... and Ben may sit down again for the next one
    assert unseated.occupants[1] is not None and unseated.occupants[1].present


def test_an_operator_reset_journals_the_abandoned_match_and_leaves_the_lobby_of_a_finished_one(
        tmp_path: Path) -> None:
    ended, ended_clock = started(tmp_path, "ended")
    reset, reset_clock = started(tmp_path, "reset")
    online = [n for n in NAMES if n != "Dan"]  # Dan went away: both lobbies free his booth
    step(ended, ended_clock, online)
    step(reset, reset_clock, online)
    match = reset.match_id
    assert match is not None
    assert reset.reset_match("operator")
    assert reset.journal.match(match).result == {"standings": [], "aborted": "operator"}
    assert reset.journal.unfinished(reset.arena.name) is None  # a restart does not bring it back
    assert "The operator ended this match; nobody wins it. Back to the lobby." in reset.outbox.chat
    assert not reset.reset_match("operator")  # nothing left to reset
    for _ in range(MAX_TICKS):
        step(ended, ended_clock, online)
        if ended.state is None:
            break
    else:
        raise AssertionError(f"the match did not end within {MAX_TICKS} ticks")
    reset_clock.now = ended_clock.now = max(reset_clock.now, ended_clock.now)
    reset.last_join = ended.last_join  # the countdown restarted when each went back to the lobby
    assert lobby_state(reset) == lobby_state(ended)
    assert reset.occupants[3] is None and [o.name for o in reset.occupants if o] == ["Aki", "Ben", "Chie"]


def test_unseating_in_the_lobby_frees_the_booth_and_sends_the_player_to_the_plaza(tmp_path: Path) -> None:
    table, _ = started(tmp_path, "lobby")
    assert table.reset_match("operator")
    table.outbox.drain()
    assert table.unseat(2, "operator") == "Chie"
    out = table.outbox.drain()
    assert table.occupants[2] is None and "The operator unseated Chie; seat 3 is free." in out.chat
    [(who, spot)] = out.moves
    assert who == "Chie" and not table.arena.seats[2].booth.cuboid.contains(spot)
    assert table.unseat(2, "operator") is None and table.unseat(99, "operator") is None
    assert table.unseat(-1, "operator") is None
