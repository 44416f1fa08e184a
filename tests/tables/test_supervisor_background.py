"""The supervisor's `background` work (the tables' clocks and the writes they cause, done
while a batch is in flight) and what it must never change.

* Sans-I/O: `background` ticks every table once (and `absorb` does not tick it again
  without input); what a tick journals is committed before the next batch carries its world
  changes, and those go out ahead of the next cycle's writes for input.
* A table whose reads are in the batch ticks after they are taken (in `absorb`), never
  while they are in flight: what it read describes the state it asked in.
* A reconnect noticed on the shell's I/O thread (`note_reconnect`) is applied before the
  replies are absorbed: the world is probed and every player's name learnt afresh.
* On the embedded world, the sync and asyncio shells with `background` play the same
  seeded match with the same bots into the same journal rows as the plain protocol loop
  (tick in `absorb`, no overlap).
"""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from collections.abc import Callable
from pathlib import Path

from table_support import CYCLE_SECONDS, StepClock, answer, shipped_arena, walk_into_booth

from mcbridge.tables.arena import Bots
from mcbridge.tables.build import build_arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.supervisor import AsyncSupervisor, Supervisor, SupervisorProtocol
from mcbridge.tables.table import Table
from mcbridge.world.aconnection import AsyncConnection
from mcbridge.world.commands import Batch
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import start_embedded


def test_background_ticks_once_commits_then_writes_ahead_of_the_next_cycle(tmp_path: Path) -> None:
    clock = StepClock()
    path = tmp_path / "journal.sqlite"
    table = Table(shipped_arena(), Journal(path), clock, seed=1, start_delay=0.0)
    for booth, name in enumerate(["Aki", "Ben"]):
        table.join(booth, name)
    protocol = SupervisorProtocol([table])
    ticks: list[str] = []  # in which step each tick came
    step = ["background"]
    tick = table.tick

    def counted() -> None:
        ticks.append(step[0])
        tick()

    table.tick = counted  # type: ignore[method-assign]

    step[0] = "absorb"
    answer(protocol.start_cycle())  # a cycle without `background`: the tables tick in absorb
    assert protocol.absorb() is None and ticks == ["absorb"] and table.state is not None  # the match began

    step[0] = "background"
    answer(protocol.start_cycle())
    protocol.background()  # the deal is journaled and committed before any write shows it
    protocol.background()  # once a cycle, however often a shell asks
    assert ticks == ["absorb", "background"]
    dealt = table.seq
    assert dealt > 0
    with sqlite3.connect(path) as other:  # another connection sees it: committed
        assert other.execute("SELECT count(*) FROM actions").fetchone()[0] == dealt
    step[0] = "absorb"
    assert protocol.absorb() is None and ticks == ["absorb", "background"]  # no input: not again
    names = answer(protocol.start_cycle())  # the next batch: the deal's world changes, then the polls
    polls = names.index("world.getPlayerIds")
    assert names[:polls].count("world.setSign") > 0
    assert protocol.stats.commands > 0 and protocol.stats.urgent == 0  # no input: all bulk, written ahead
    assert protocol.absorb() is None and ticks == ["absorb", "background", "absorb"]


def test_a_table_reading_the_world_ticks_after_its_reads_are_taken(tmp_path: Path) -> None:
    clock = StepClock()
    journal = Journal(tmp_path / "journal.sqlite")
    reading, other = (Table(shipped_arena(name=f"t{i}"), journal, clock, seed=1) for i in range(2))
    protocol = SupervisorProtocol([reading, other])
    calls: list[str] = []
    cell = reading.arena.seats[0].wool_wall.cells[0]
    reading.reads_wanted = lambda: {("wall", 0): [cell]}  # type: ignore[method-assign]
    reading.on_reads = lambda results: calls.append("reading: reads")  # type: ignore[method-assign]
    for name, table in (("reading", reading), ("other", other)):
        tick = table.tick

        def counted(name: str = name, tick: Callable[[], None] = tick) -> None:
            calls.append(f"{name}: tick")
            tick()

        table.tick = counted  # type: ignore[method-assign]
    answer(protocol.start_cycle())
    protocol.background()
    assert calls == ["other: tick"]  # the reading table waits for its reads
    assert protocol.absorb() is None
    assert calls == ["other: tick", "reading: reads", "reading: tick"]
    journal.close()


def test_a_reconnect_seen_on_the_io_thread_is_applied_before_the_replies(tmp_path: Path) -> None:
    table = Table(shipped_arena(), Journal(tmp_path / "journal.sqlite"), StepClock(), seed=1)
    protocol = SupervisorProtocol([table])
    answer(protocol.start_cycle())
    assert protocol.absorb() is None
    answer(protocol.start_cycle())
    protocol.background()
    protocol.note_reconnect()  # as the I/O thread's callback does, mid-batch
    follow_up = protocol.absorb()  # first the probe of the (maybe restarted) world
    assert follow_up is not None and set(answer(follow_up)) == {"world.getBlockWithData"}
    assert protocol.absorb() is None
    names = answer(protocol.start_cycle())  # then a full re-render
    assert names.count("world.setSign") >= len(table.arena.board_signs)


def run_bot_match(tmp_path: Path, name: str, shell: str) -> list[tuple[int, dict]]:
    """A seeded Wool Bluff match: one person (whose turns time out) and three library bots."""
    arena = shipped_arena(options={"turns": 2})
    arena = dataclasses.replace(arena, timeouts={k: 1 for k in arena.timeouts},
                                bots=Bots(fill=True, after=0.2, think=0.1))
    clock = StepClock()
    journal = Journal(tmp_path / f"{name}.sqlite")
    with start_embedded(port=0, tps=0) as world:
        with Connection(world.host, world.port) as conn:
            build_arena(conn, arena)
        walk_into_booth(world.players.join("Person"), arena, 0)
        table = Table(arena, journal, clock, seed=4, start_delay=0.2, reveal_hold=0.2)

        def done() -> bool:
            return table.finished

        if shell == "async":
            async def main() -> None:
                aconn = await AsyncConnection.open(world.host, world.port)
                supervisor = AsyncSupervisor(aconn, [table])
                try:
                    for _ in range(3000):
                        if done():
                            return
                        clock.now += CYCLE_SECONDS
                        await supervisor.step()
                finally:
                    await aconn.close()

            asyncio.run(main())
        else:
            with Connection(world.host, world.port) as conn:
                if shell == "sync":
                    supervisor = Supervisor(conn, [table])
                    for _ in range(3000):
                        if done():
                            break
                        clock.now += CYCLE_SECONDS
                        supervisor.step()
                else:  # the protocol alone: no overlap, the tables tick in absorb
                    protocol = SupervisorProtocol([table])
                    protocol.chat_all = True
                    for _ in range(3000):
                        if done():
                            break
                        clock.now += CYCLE_SECONDS
                        batch: Batch | None = protocol.start_cycle()
                        while batch is not None:
                            conn.run_batch(batch.items, batch.fence_every)
                            batch = protocol.absorb()
        assert done(), f"{shell}: the match did not finish"
        assert table.match_id is not None
        rows = journal.match(table.match_id).actions
    journal.close()
    return rows


def test_the_shells_overlapping_the_wait_journal_what_the_plain_loop_journals(tmp_path: Path) -> None:
    plain = run_bot_match(tmp_path, "plain", "plain")
    assert len(plain) > 20
    assert run_bot_match(tmp_path, "sync", "sync") == plain
    assert run_bot_match(tmp_path, "async", "async") == plain
