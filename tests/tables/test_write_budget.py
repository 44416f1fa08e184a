"""The write budget (mcbridge.tables.write_budget): input is never deferred, bulk work is
spread over later cycles, and nothing waits longer than the bound.

* The rules of `WriteBudget` under any mix of changes, sizes and inputs (hypothesis).
* On the embedded world, several tables that change at once without input (matches
  starting, library bots playing) with a tiny allowance: tables are deferred, none waits
  past the bound, every world ends showing its table's scene, and the journals are row for
  row those of the same tables run with no limit (a deferred render never changes what the
  journal records, only when the world shows it).
* A click on a table whose neighbours all wait is shown by the very next write.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from table_support import CYCLE_SECONDS, StepClock, shipped_arena, walk_into_booth

from mcbridge.tables.arena import Bots
from mcbridge.tables.build import build_arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.tables.write_budget import WriteBudget
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.geometry import ArenaFrame, Facing, Pos
from mcbridge.world.sanitize import sign_line

TABLES = 4


@settings(max_examples=200, deadline=None)
@given(
    allowance=st.integers(0, 50),
    max_wait=st.integers(1, 6),
    cycles=st.lists(
        st.lists(st.tuples(st.booleans(), st.booleans(), st.integers(1, 40)), min_size=6, max_size=6),
        min_size=1, max_size=40,
    ),
)
def test_input_never_waits_and_a_change_waits_at_most_the_bound(
        allowance: int, max_wait: int, cycles: list[list[tuple[bool, bool, int]]]) -> None:
    """Each cycle, each of 6 tables may change (and stays changed until written) and may get
    input; a write costs its size. Checked: a table with input writes at once; a bulk table
    writes only while the allowance lasts or once it has waited `max_wait` cycles; nothing
    waits longer; the order is input first, then the longest waiting."""
    budget = WriteBudget(allowance, max_wait)
    changed: dict[int, int] = {}  # table -> its pending write's size
    for cycle, tables in enumerate([*cycles, *([[(False, False, 1)] * 6] * (max_wait + 1))]):
        budget.start(cycle)
        urgent = {i for i, (_, has_input, _) in enumerate(tables) if has_input}
        for i, (changes, _, size) in enumerate(tables):
            if changes or i in urgent:
                changed.setdefault(i, size)
        order = budget.order(6, urgent)
        assert sorted(order) == list(range(6)) and set(order[:len(urgent)]) == urgent
        waited = [i for i in order if i in budget.waiting and i not in urgent]
        assert waited == sorted(waited, key=lambda i: (budget.waiting[i], i))
        for i in order:
            if i not in changed:
                continue
            was_waiting, spent = budget.waiting.get(i), budget.spent
            if budget.admit(i, i in urgent):
                assert i in urgent or spent < allowance or cycle - was_waiting >= max_wait  # type: ignore[operator]
                budget.spend(changed.pop(i), i in urgent)
            else:
                assert i not in urgent and spent >= allowance
        assert all(cycle - since < max_wait for since in budget.waiting.values())
    assert not changed and not budget.waiting  # quiet cycles at the end: everything went out


def grid(count: int, timeout: int = 3600, **changes: object) -> list:
    base = shipped_arena(**changes)
    base = dataclasses.replace(base, timeouts={k: timeout for k in base.timeouts})
    return [dataclasses.replace(base, name=f"t{i}", frame=ArenaFrame(Pos(-18 + 40 * i, -1, 4), Facing.NORTH))
            for i in range(count)]


def play_with_bots(tmp_path: Path, name: str, budget: WriteBudget | None) -> tuple[list, list[int], bool]:
    """TABLES Wool Bluff tables, one person seated at each and library bots in the other
    booths, played by the bots and the person's timeouts (no input at all) for a few
    hundred cycles. Returns each
    table's journaled actions, the deferrals per cycle, and whether every world showed its
    table's last written scene at the end."""
    arenas = grid(TABLES, timeout=1, options={"turns": 2})
    arenas = [dataclasses.replace(a, bots=Bots(fill=True, after=0.2, think=0.1)) for a in arenas]
    clock = StepClock()
    journal = Journal(tmp_path / f"{name}.sqlite")
    deferred: list[int] = []
    with start_embedded(port=0, tps=0) as world, Connection(world.host, world.port) as conn:
        for arena in arenas:
            build_arena(conn, arena)
        tables = [Table(a, journal, clock, seed=7, start_delay=0.2, hold=0.3, reveal_hold=0.2) for a in arenas]
        supervisor = Supervisor(conn, tables)
        if budget is not None:
            supervisor.protocol.budget = budget
        for t, arena in enumerate(arenas):
            walk_into_booth(world.players.join(f"Person{t}"), arena, 0)
        for _ in range(600):
            clock.now += CYCLE_SECONDS
            deferred.append(supervisor.step().deferred)
            waiting = supervisor.protocol.budget.waiting
            assert all(supervisor.cycles - since <= supervisor.protocol.budget.max_wait
                       for since in waiting.values()), waiting
        for _ in range(12):  # the clock stands still: whatever waits goes out
            supervisor.step()
        shown = all(world_shows(world, t) for t in tables)
        rows = [[(s, a) for m in journal.matches() if m.arena == t.arena.name for s, a in m.actions] for t in tables]
    journal.close()
    return rows, deferred, shown


def world_shows(world: EmbeddedHandle, table: Table) -> bool:
    """Every sign of the table's scene reads in the world as the scene has it (as sent)."""
    scene = table.scene()
    for cell, lines in scene.signs.items():
        at = table.arena.frame.to_world(cell)
        found = world.sign_lines(at.x, at.y, at.z)
        if found is None or [line.strip() for line in found] != [sign_line(line).strip() for line in lines]:
            return False
    return True


def test_a_burst_without_input_is_spread_within_the_bound_and_journals_the_same(tmp_path: Path) -> None:
    free, deferred_free, shown_free = play_with_bots(tmp_path, "free", WriteBudget(bulk_writes=10**9))
    tight, deferred_tight, shown_tight = play_with_bots(tmp_path, "tight", WriteBudget(bulk_writes=1, max_wait=3))
    assert sum(deferred_free) == 0 and sum(deferred_tight) > 10  # the tiny allowance made tables wait
    # the bots played: deals, bids, reveals, a second match
    assert all(len(rows) > 20 for rows in free), [len(rows) for rows in free]
    # row for row: when the world shows a change never changes what is journaled. A table reads
    # the world only once it shows the table's scene, so a deferred table's Reveal reads its
    # walls a cycle or two later, and at the cut the tight run may be a row or two behind.
    for rows_free, rows_tight in zip(free, tight, strict=True):
        common = min(len(rows_free), len(rows_tight))
        assert rows_free[:common] == rows_tight[:common]
        assert len(rows_free) - 3 <= len(rows_tight) <= len(rows_free)
    assert shown_free and shown_tight


def test_a_click_is_shown_by_the_next_write_while_every_other_table_waits(tmp_path: Path) -> None:
    """No allowance at all and no bound in sight: only input writes. Aki's click on the
    COLOUR sign is polled by one step and drawn by the next."""
    arenas = grid(TABLES)
    clock = StepClock()
    journal = Journal(tmp_path / "journal.sqlite")
    with start_embedded(port=0, tps=0) as world, Connection(world.host, world.port) as conn:
        for arena in arenas:
            build_arena(conn, arena)
        tables = [Table(a, journal, clock, seed=3, start_delay=0.2) for a in arenas]
        supervisor = Supervisor(conn, tables)
        players = {}
        for t, arena in enumerate(arenas):
            for booth, name in enumerate(("Aki", "Ben")):
                player = players[t, booth] = world.players.join(f"{name}{t}")
                walk_into_booth(player, arena, booth)
                player.hold(276)  # a diamond sword
        for _ in range(200):
            clock.now += CYCLE_SECONDS
            supervisor.step()
            if all(t.state is not None and t.state.phase == "bid" for t in tables):
                break
        for _ in range(3):  # every first scene out
            supervisor.step()
        supervisor.protocol.budget = WriteBudget(bulk_writes=0, max_wait=10**6)
        bidder = tables[2].booth_of(min(tables[2].state.to_act()))  # type: ignore[union-attr]
        sign = arenas[2].frame.to_world(arenas[2].seats[bidder].signs["colour"].at)
        before = world.sign_lines(sign.x, sign.y, sign.z)
        for t in (0, 1, 3):  # the other tables change without input: their countdown-free scenes wait
            tables[t].notes[0] = (tables[t].seq, "a note nobody asked for")
        players[2, bidder].right_click(sign.x, sign.y, sign.z)
        supervisor.step()  # the poll sees the click
        reading = set(supervisor.protocol._reading)  # a table reading the world draws first
        assert world.sign_lines(sign.x, sign.y, sign.z) == before
        stats = supervisor.step()  # the write draws it
        assert world.sign_lines(sign.x, sign.y, sign.z) != before
        reading |= supervisor.protocol._reading
        assert set(supervisor.protocol.budget.waiting) == {0, 1, 3} - reading != set()
        assert stats.deferred == len(supervisor.protocol.budget.waiting)
    journal.close()
