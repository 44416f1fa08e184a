"""The supervisor cycle's shortcuts (issue 12 item 7) never keep a change from the world.

* A write skips a table whose scene is unchanged, already shown to the same viewers, with
  nothing in its outbox (`Reconciler.shows`, `Outbox.pending`): every change that must reach
  the world still goes out with the very next write (a word said, a clock second, a note, a
  seat taken, a viewer gone, a reconnect's full redraw, an operator's reset), also for a
  table without input in a cycle whose `background` ran.
* Presence is told to the tables when someone came, went or moved to another cell, and on
  every booth guard cycle (not twice a period for the seated, who are located only then):
  a player who walks into a free booth sits down at once, one who stood still in a booth
  while its match ran sits down within a guard period of the match's end, and a seated
  player in someone else's booth is guarded out.
* `AreaIndex` finds exactly the arenas a scan finds.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_support import CYCLE_SECONDS, StepClock, shipped_arena

from mcbridge.tables.area_index import AreaIndex
from mcbridge.tables.config import Arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.kit import Scene
from mcbridge.tables.reconcile import Reconciler
from mcbridge.tables.supervisor import GUARD_EVERY, SupervisorProtocol
from mcbridge.tables.table import Table
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import ArenaFrame, Cuboid, Facing, Pos

# -- a stand-in server with players -----------------------------------------------------------


class Players:
    """Who is online (entity id -> name) and where they stand (world coordinates)."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.at: dict[int, tuple[float, float, float]] = {}

    def put(self, eid: int, name: str, where: Pos) -> None:
        self.names[eid], self.at[eid] = name, (where.x + 0.5, float(where.y), where.z + 0.5)

    def answer(self, batch: Batch) -> list[tuple[str, tuple[str, ...]]]:
        """Every setter succeeds; the player list, names and positions come from here."""
        sent = []
        for item in batch.items:
            name, args = item.command.name, item.command.args
            sent.append((name, args))
            if item.reply.is_setter:
                item.reply._succeed()
            elif name == "world.getPlayerIds":
                item.reply._set_line("|".join(map(str, self.names)))
            elif name == "entity.getName":
                item.reply._set_line(self.names[int(args[0])])
            elif name == "entity.getPos":
                item.reply._set_line(",".join(map(str, self.at[int(args[0])])))
            elif name == "world.getBlockWithData":
                item.reply._set_line("0,0")
            elif name == "world.getBlocks":  # walls read: empty
                item.reply._set_line(",".join("0" * len(Cuboid(tuple(map(int, args[:3])), tuple(map(int, args[3:]))))))
            else:
                item.reply._set_line("")
        return sent


def cycle(protocol: SupervisorProtocol, players: Players, clock: StepClock,
          background: bool = True) -> list[tuple[str, tuple[str, ...]]]:
    """One supervisor cycle as the sync shell runs it; the first batch's commands."""
    clock.now += CYCLE_SECONDS
    sent = players.answer(protocol.start_cycle())
    if background:
        protocol.background()
    while (follow_up := protocol.absorb()) is not None:
        players.answer(follow_up)
    return sent


def interior(table: Table, booth: int) -> Pos:
    inside = table.arena.seats[booth].interior.cuboid
    return table.arena.frame.to_world(Pos((inside.lo.x + inside.hi.x) // 2, inside.lo.y,
                                          (inside.lo.z + inside.hi.z) // 2))


def signs_sent(sent: list[tuple[str, tuple[str, ...]]]) -> dict[tuple[str, ...], tuple[str, ...]]:
    """World position -> lines of every sign written (in the world or privately)."""
    signs = {args[:3]: args[5:] for name, args in sent if name == "world.setSign"}
    signs.update({args[1:4]: args[6:] for name, args in sent if name == "mcbridge.private.setSign"})
    return signs


def world_key(table: Table, local: Pos) -> tuple[str, ...]:
    at = table.arena.frame.to_world(local)
    return (str(at.x), str(at.y), str(at.z))


def standing_in(table: Table) -> Players:
    """Aki (entity 1) and Ben (entity 2) standing in the table's booths 1 and 2."""
    players = Players()
    for eid, name in enumerate(["Aki", "Ben"], start=1):
        players.put(eid, name, interior(table, eid - 1))
    return players


def _arena(i: int) -> Arena:
    return shipped_arena(name=f"t{i}", frame=ArenaFrame(Pos(200 * i, 64, 0), Facing.NORTH))


@pytest.fixture
def two_tables(tmp_path: Path):  # type: ignore[no-untyped-def]
    """Two tables on one protocol, both running their lobby; the players sit in table 1."""
    clock = StepClock()
    journal = Journal(tmp_path / "journal.sqlite")
    tables = [Table(_arena(i), journal, clock, seed=3, start_delay=30.0, can_private=True) for i in range(2)]
    protocol = SupervisorProtocol(tables)
    players = standing_in(tables[1])
    for _ in range(3):
        cycle(protocol, players, clock)
    assert [o.name if o else None for o in tables[1].occupants][:2] == ["Aki", "Ben"]
    yield protocol, players, clock, tables
    journal.close()


# -- every change reaches the next write ------------------------------------------------------


def _said(table: Table) -> None:
    table.tell("Aki", "a word for Aki")


def _note(table: Table) -> None:
    table.notes[0] = (table.seq, "refused: not now")


def _second(table: Table) -> None:
    table.clock.now += 1.0  # type: ignore[attr-defined]  # a whole second of the countdown


def _seat(table: Table) -> None:
    table.join(2, "Chie")


def _viewer_gone(table: Table) -> None:
    occ = table.occupants[0]
    assert occ is not None
    occ.present = False  # as `on_presence` does when they leave; the booth's overlays go


CHANGES: dict[str, Callable[[Table], None]] = {
    "a word said": _said, "a note on the info sign": _note, "a clock second": _second,
    "a seat taken": _seat, "a viewer gone": _viewer_gone,
}


@pytest.mark.parametrize("background", [True, False], ids=["background", "plain"])
@pytest.mark.parametrize("change", list(CHANGES))
def test_a_change_without_input_goes_out_with_the_next_write(two_tables, change: str, background: bool) -> None:  # type: ignore[no-untyped-def]
    protocol, players, clock, tables = two_tables
    table = tables[1]
    for _ in range(2):  # settled: nothing left to send for table 1
        cycle(protocol, players, clock, background)
    before = table.scene()
    quiet = cycle(protocol, players, clock, background)
    assert not [s for s in signs_sent(quiet) if s in {world_key(table, p) for p in before.signs}]

    CHANGES[change](table)
    outbox = [*table.outbox.chat, *(text for _, text in table.outbox.private)]
    after = table.scene()
    sent = cycle(protocol, players, clock, background)
    signs = signs_sent(sent)
    for local, lines in after.signs.items():
        if before.signs.get(local) != lines:
            assert world_key(table, local) in signs, f"{change}: sign {local} not rewritten"
    words = [args[-1] for name, args in sent if name in ("chat.post", "mcbridge.tell")]
    for line in outbox:
        assert any(line in word or word in line for word in words), f"{change}: {line!r} not sent"
    if change == "a viewer gone":
        assert ("mcbridge.private.clear", "Aki") in {(name, args[0]) for name, args in sent if args}
    assert CHANGES[change] is _viewer_gone or after.signs != before.signs or outbox


def test_a_reconnect_redraws_every_table_in_full(two_tables) -> None:  # type: ignore[no-untyped-def]
    protocol, players, clock, tables = two_tables
    cycle(protocol, players, clock)
    protocol.reconnected()
    sent = cycle(protocol, players, clock)
    if any(name == "world.getBlockWithData" for name, _ in sent) and not signs_sent(sent):
        sent = cycle(protocol, players, clock)  # the shell probe's round first
    signs = signs_sent(sent)
    for table in tables:
        assert {world_key(table, p) for p in table.scene().signs} <= set(signs)


def test_an_operator_reset_between_cycles_goes_out_with_the_next_write(tmp_path: Path) -> None:
    clock = StepClock()
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        tables = [Table(_arena(i), journal, clock, seed=3, start_delay=0.0) for i in range(2)]
        protocol = SupervisorProtocol(tables)
        players = standing_in(tables[1])
        for _ in range(40):
            cycle(protocol, players, clock)
        table = tables[1]
        assert table.state is not None and not table.finished
        before = table.scene()
        assert table.reset_match("operator")
        after = table.scene()
        signs = signs_sent(cycle(protocol, players, clock))
        changed = [p for p, lines in after.signs.items() if before.signs.get(p) != lines]
        assert changed and all(world_key(table, p) in signs for p in changed)
    finally:
        journal.close()


# -- presence -----------------------------------------------------------------------------------


def test_presence_is_told_on_a_move_and_each_guard_cycle_not_twice(two_tables) -> None:  # type: ignore[no-untyped-def]
    protocol, players, clock, tables = two_tables
    told: list[int] = []
    presence = tables[0].on_presence

    def counted(online, inside) -> None:  # type: ignore[no-untyped-def]
        told.append(protocol.cycles)
        presence(online, inside)

    tables[0].on_presence = counted  # type: ignore[method-assign]
    for _ in range(3 * GUARD_EVERY):
        cycle(protocol, players, clock)
    assert len(told) == 3  # the seated stood still: once per guard period
    assert all(c % GUARD_EVERY == 0 for c in told)
    told.clear()
    players.put(9, "Dan", interior(tables[0], 3) + Pos(0, 0, 0))  # someone new, not seated
    cycle(protocol, players, clock)
    cycle(protocol, players, clock)  # (their name is learnt in the first)
    assert told and [o.name if o else None for o in tables[0].occupants][3] == "Dan"


def test_a_seated_player_in_another_booth_is_guarded_out(two_tables) -> None:  # type: ignore[no-untyped-def]
    protocol, players, clock, tables = two_tables
    players.put(1, "Aki", interior(tables[1], 1))  # Aki (booth 0) steps into Ben's booth
    moves = []
    for _ in range(GUARD_EVERY + 2):  # the seated are located on the guard cycle
        moves += [args for name, args in cycle(protocol, players, clock) if name == "entity.setPos"]
    assert [args[0] for args in moves] == ["1"]  # out to the plaza, once


def test_someone_who_stood_still_in_a_free_booth_sits_after_the_match(tmp_path: Path) -> None:
    clock = StepClock()
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        table = Table(shipped_arena(), journal, clock, seed=3, start_delay=0.0)
        protocol = SupervisorProtocol([table])
        players = standing_in(table)
        for _ in range(5):
            cycle(protocol, players, clock)
        assert table.state is not None  # the match runs
        players.put(3, "Chie", interior(table, 2))  # walks into the free booth: told it runs
        for _ in range(3):
            cycle(protocol, players, clock)
        assert table.occupants[2] is None
        table.start_delay = 30.0  # the next match waits: the lobby lasts
        table.reset_match("operator")  # back to the lobby; Chie never moves again
        for _ in range(GUARD_EVERY + 1):
            cycle(protocol, players, clock)
            if table.occupants[2] is not None:
                break
        occ = table.occupants[2]
        assert occ is not None and occ.name == "Chie"
    finally:
        journal.close()


# -- the reconciler's "nothing to write" and the area index -------------------------------------

FRAME = ArenaFrame(Pos(0, 64, 0), Facing.NORTH)
SIGN = Block(68, 2)


def _scene(text: str, booth: int | None = None) -> Scene:
    part = Scene({Pos(1, 1, 1): SIGN, Pos(2, 1, 1): Block(35, len(text) % 16)},
                 {Pos(1, 1, 1): (text, "", "", "")}, booth=booth)
    return Scene.of_parts([part, Scene({Pos(0, 0, 0): Block(1)})])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["write", "same", "forget", "cells", "viewer"]),
                          st.sampled_from(["a", "bb", "ccc"])), max_size=20))
def test_shows_means_a_write_would_send_nothing(ops: list[tuple[str, str]]) -> None:
    rec = Reconciler(FRAME, booths=[Cuboid(Pos(0, 0, 0), Pos(3, 3, 3))])
    scene, viewers = _scene("a", booth=0), ["Aki"]
    rec.write(Batch(), scene, viewers)
    for op, text in ops:
        if op == "write":
            scene = _scene(text, booth=0)
        elif op == "forget":
            rec.forget()
        elif op == "cells":
            rec.forget_cells([Pos(1, 1, 1)])
        elif op == "viewer":
            viewers = [None if viewers[0] else text]
        claimed = rec.shows(scene, viewers)
        batch = Batch()
        added = rec.write(batch, scene, viewers)
        if claimed:
            assert added == 0 and len(batch) == 0, op
        assert rec.shows(scene, viewers)  # what was just written is shown
    assert not rec.shows(None, viewers)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(-70, 70), st.integers(-70, 70), st.integers(1, 40), st.integers(1, 40)),
                min_size=1, max_size=8),
       st.lists(st.tuples(st.integers(-90, 90), st.integers(60, 70), st.integers(-90, 90)), max_size=30))
def test_the_area_index_finds_what_a_scan_finds(boxes: list[tuple[int, int, int, int]],
                                                 points: list[tuple[int, int, int]]) -> None:
    areas = [Cuboid(Pos(x, 62, z), Pos(x + w - 1, 68, z + d - 1)) for x, z, w, d in boxes]
    index = AreaIndex(areas)
    for point in points:
        at = Pos(*point)
        scan = [i for i, area in enumerate(areas) if area.contains(at)]
        assert index.holding(at) == scan
        assert index.first(at) == (scan[0] if scan else None)
