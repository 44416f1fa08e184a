"""A busy cycle (issue 12 item 7): a click is answered by the very next write however much
else arrives with it; other input goes out with that write while the cycle's allowances
last, and right behind it (one write later) past them, never later; and none of it changes
what is journaled.

On the embedded world, five Wool Bluff tables wait for a bid; in one tick one player clicks a
COLOUR sign at table 0 and the bidder of each other table types a bid. With two chat lines on
the path (`CHATS_ON_PATH`) and an input allowance of one command:

* the next write shows the click and the first chat table's answer; the next one after it
  shows every table's answer; the two chat lines past the cap are journaled by `background`
  (before that write), the first two in the step that polled them;
* the journals are row for row those of the same play with no caps;
* the chat of a table whose reads are in flight is never taken by `background` (nothing
  may move its state between asking and reading): the next `absorb` takes it, first, and
  then its reads, as it takes any chat line.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from table_support import CYCLE_SECONDS, StepClock, chat_command, shipped_arena, walk_into_booth

from mcbridge.core.legal import ActionRange
from mcbridge.games.wool_bluff import Bid
from mcbridge.tables import supervisor as supervisor_module
from mcbridge.tables.build import build_arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.tables.write_budget import WriteBudget
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.embedded.simulator import EmbeddedPlayer
from mcbridge.world.geometry import ArenaFrame, Facing, Pos
from mcbridge.world.sanitize import sign_line

TABLES = 5


def shows(world: EmbeddedHandle, table: Table) -> bool:
    """Every sign of the table's current scene reads so in the world."""
    for cell, lines in table.scene().signs.items():
        at = table.arena.frame.to_world(cell)
        found = world.sign_lines(at.x, at.y, at.z)
        if found is None or [line.strip() for line in found] != [sign_line(line).strip() for line in lines]:
            return False
    return True


def bids(journal: Journal, table: Table) -> int:
    return sum(1 for m in journal.matches() if m.arena == table.arena.name
               for _, action in m.actions if action.get("type") == "Bid")


class Busy:
    """Five tables at their first bid, two people seated at each."""

    def __init__(self, world: EmbeddedHandle, conn: Connection, journal: Journal) -> None:
        base = shipped_arena()
        base = dataclasses.replace(base, timeouts={k: 3600 for k in base.timeouts})
        self.arenas = [dataclasses.replace(base, name=f"t{i}", frame=ArenaFrame(Pos(-18 + 40 * i, -1, 4), Facing.NORTH))
                       for i in range(TABLES)]
        for arena in self.arenas:
            build_arena(conn, arena)
        self.clock = StepClock()
        self.world = world
        self.tables = [Table(a, journal, self.clock, seed=3, start_delay=0.2) for a in self.arenas]
        self.supervisor = Supervisor(conn, self.tables)
        # the write ahead runs whole: this world answers at once, so the shell's "replies
        # in?" would cut it short every time (see the test of that at the end)
        protocol = self.supervisor.protocol
        whole = protocol.background
        protocol.background = lambda replies_in=None: whole()  # type: ignore[method-assign]
        self.players: dict[tuple[int, int], EmbeddedPlayer] = {}
        for t, arena in enumerate(self.arenas):
            for booth, name in enumerate(("Aki", "Ben")):
                player = self.players[t, booth] = world.players.join(f"{name}{t}")
                walk_into_booth(player, arena, booth)
                player.hold(276)  # a diamond sword
        for _ in range(300):
            self.clock.now += CYCLE_SECONDS
            self.supervisor.step()
            if all(t.state is not None and t.state.phase == "bid" for t in self.tables):
                break
        for _ in range(3):  # every first scene out; from here the clock stands still
            self.supervisor.step()
        assert all(shows(world, t) for t in self.tables)

    def bidder(self, t: int) -> tuple[int, EmbeddedPlayer]:
        table = self.tables[t]
        assert table.state is not None
        seat = min(table.state.to_act())
        return seat, self.players[t, table.booth_of(seat)]

    def act_at_once(self) -> None:
        """Table 0's bidder clicks its COLOUR sign; every other table's bidder types a bid."""
        _, clicker = self.bidder(0)
        booth = self.tables[0].booth_of(self.bidder(0)[0])
        sign = self.arenas[0].frame.to_world(self.arenas[0].seats[booth].signs["colour"].at)
        clicker.right_click(sign.x, sign.y, sign.z)
        for t in range(1, TABLES):
            seat, player = self.bidder(t)
            state = self.tables[t].state
            assert state is not None
            lowest = state.legal_actions(seat)[0]  # the bids of the first colour, from the lowest
            assert isinstance(lowest, ActionRange) and isinstance(lowest.first, Bid)
            bid = lowest.first
            player.chat(chat_command(bid, "en"))


def rows(journal: Journal) -> dict[str, list[Any]]:
    return {m.arena: list(m.actions) for m in journal.matches()}


@contextmanager
def busy_tables(path: Path) -> Iterator[tuple[EmbeddedHandle, Busy, Journal]]:
    """A world at once-per-request ticks with the five tables, journaled at `path`."""
    journal = Journal(path)
    try:
        with start_embedded(port=0, tps=0) as world, Connection(world.host, world.port) as conn:
            yield world, Busy(world, conn, journal), journal
    finally:
        journal.close()


def test_a_click_goes_out_next_and_chat_past_the_caps_right_behind(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(supervisor_module, "CHATS_ON_PATH", 2)
    with busy_tables(tmp_path / "capped.sqlite") as (world, busy, journal):
        tables = busy.tables
        busy.supervisor.protocol.budget = WriteBudget(input_writes=1)
        busy.act_at_once()

        busy.supervisor.step()  # polled: the click and two chat lines taken, two left for `background`
        assert [bids(journal, t) for t in tables[1:]] == [1, 1, 0, 0]
        # nothing answered yet (it goes with the next write); the last two did not change yet
        assert [shows(world, t) for t in tables] == [False, False, False, True, True]

        busy.supervisor.step()  # the click and one chat table within the input allowance; the rest ahead
        assert [bids(journal, t) for t in tables[1:]] == [1, 1, 1, 1]  # `background` took the last two
        assert shows(world, tables[0])  # the click: the very next write, always
        assert [shows(world, t) for t in tables[1:3]].count(True) == 1  # one input table on the path
        assert not shows(world, tables[3]) and not shows(world, tables[4])

        busy.supervisor.step()  # right behind: everything
        assert all(shows(world, t) for t in tables)
        capped = rows(journal)

    monkeypatch.setattr(supervisor_module, "CHATS_ON_PATH", 10**6)
    with busy_tables(tmp_path / "plain.sqlite") as (world, busy, plain):
        busy.act_at_once()
        busy.supervisor.step()
        assert [bids(plain, t) for t in busy.tables[1:]] == [1, 1, 1, 1]  # all taken at once
        busy.supervisor.step()
        assert all(shows(world, t) for t in busy.tables)  # and all shown by the next write
        busy.supervisor.step()
        assert rows(plain) == capped  # row for row: the caps change when, never what


def test_the_chat_of_a_table_reading_the_world_waits_for_its_reads(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(supervisor_module, "CHATS_ON_PATH", 1)
    with busy_tables(tmp_path / "journal.sqlite") as (_, busy, journal):
        reader = busy.tables[TABLES - 1]  # its chat comes last: past the cap
        cell = reader.arena.seats[0].torch_wall.cells[0]
        monkeypatch.setattr(reader, "reads_wanted", lambda: {("probe", 0): [cell]})
        reads: list[str] = []
        monkeypatch.setattr(reader, "on_reads", lambda results: reads.append("read"))
        where = ["absorb"]
        background = busy.supervisor.protocol.background

        def marked(replies_in: Callable[[], bool] | None = None) -> None:
            where[0] = "background"
            background()
            where[0] = "absorb"

        monkeypatch.setattr(busy.supervisor.protocol, "background", marked)
        on_chat = reader.on_chat
        taken: list[tuple[str, int]] = []

        def seen(name: str, message: str) -> None:
            taken.append((where[0], len(reads)))
            on_chat(name, message)

        monkeypatch.setattr(reader, "on_chat", seen)
        busy.act_at_once()
        busy.supervisor.step()  # polled; past the cap, and its reads are in flight next cycle
        assert taken == [] and bids(journal, reader) == 0
        before = len(reads)
        busy.supervisor.step()
        assert taken and all(step == "absorb" for step, _ in taken)
        assert taken[0][1] == before < len(reads)  # as any chat line in `absorb`: then its reads
        assert bids(journal, reader) == 1


def test_writes_ahead_cut_short_by_the_replies_go_out_as_input_and_lose_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`background(replies_in)` that always says "in": nothing is written ahead; the input
    carried over goes out from the next writes on, within the input allowance (one table a
    write here), until every table shows its answer; the journal is the one of the whole
    write ahead."""
    monkeypatch.setattr(supervisor_module, "CHATS_ON_PATH", 2)
    with busy_tables(tmp_path / "cut.sqlite") as (world, busy, journal):
        protocol = busy.supervisor.protocol
        protocol.background = lambda replies_in=None: type(protocol).background(  # type: ignore[method-assign]
            protocol, replies_in=lambda: True)
        protocol.budget = WriteBudget(input_writes=1)
        busy.act_at_once()
        busy.supervisor.step()
        busy.supervisor.step()  # the click and one input table; two lines taken by `background`
        assert shows(world, busy.tables[0]) and [bids(journal, t) for t in busy.tables[1:]] == [1, 1, 1, 1]
        assert protocol._next is not None and protocol._next[1].commands == 0  # nothing ahead: replies in
        steps = 0
        while not all(shows(world, t) for t in busy.tables):
            busy.supervisor.step()
            steps += 1
            assert steps <= TABLES, "a carried answer never went out"
        assert steps >= 2  # one table a write: the three left took more than one
        cut = rows(journal)
    with busy_tables(tmp_path / "whole.sqlite") as (world, busy, whole):
        busy.supervisor.protocol.budget = WriteBudget(input_writes=1)
        busy.act_at_once()
        for _ in range(2 + steps):
            busy.supervisor.step()
        assert rows(whole) == cut  # when the world shows an answer never changes what is journaled


def test_a_chat_flood_never_delays_a_click(tmp_path: Path) -> None:
    """A hostile player floods chat (60 lines in one tick, control and bidi characters, a
    forged record separator) while another clicks at another table: the click is answered by
    the very next write, the flood costs its own table at most a tick, and nothing it typed
    reaches the journal but the one well-formed move it held, as the flooder's own."""
    with busy_tables(tmp_path / "flood.sqlite") as (world, busy, journal):
        before = rows(journal)
        flooder_seat, flooder = busy.bidder(1)
        for n in range(60):
            flooder.chat(f"!bid red {n}\u202e|entity 1|!bluff\x07" if n % 2 else "!help")
        flooder.chat("!bid red 1")  # the one well-formed move of the flood, past the cap
        seat, clicker = busy.bidder(0)
        booth = busy.tables[0].booth_of(seat)
        sign = busy.arenas[0].frame.to_world(busy.arenas[0].seats[booth].signs["colour"].at)
        clicker.right_click(sign.x, sign.y, sign.z)
        busy.supervisor.step()  # polled: the click and the first lines of the flood
        busy.supervisor.step()
        assert shows(world, busy.tables[0])  # the click: the very next write, flood or not
        busy.supervisor.step()
        assert all(shows(world, t) for t in busy.tables)  # the flood's own answers: a tick later at most
        after = rows(journal)
        assert {arena: r for arena, r in after.items() if arena != busy.arenas[1].name} == {
            arena: r for arena, r in before.items() if arena != busy.arenas[1].name}  # no other table moved
        flooded = after[busy.arenas[1].name][len(before[busy.arenas[1].name]):]
        assert flooded == [(flooder_seat, {"type": "Bid", "colour": "red", "count": 1})]  # only its own move
