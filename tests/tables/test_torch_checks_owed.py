"""A Wool Bluff torch-wall look that fell due is asked until it is answered.

Each booth's torch wall is due a look (`("torch_check", booth)`) once every
`TORCH_CHECK_EVERY` calls of `reads_wanted()`, the booths on different calls. The supervisor
may leave a table's reads out of a cycle (its world does not show its scene yet), so a due
look is remembered and asked on every later call until `on_reads` brings its result; only
then does the booth wait for its next period. A booth whose player is putting up their own
torches (`torch_wait`) is not looked at meanwhile, and is owed the look when they are done.

Asserted on a real Table (no world: the test is the supervisor, calling `reads_wanted` and
`on_reads` by hand): the staggering, that a due look is never dropped while unanswered, that
an answer ends it until exactly one period after it first fell due, that an answer showing
the wall as the scene draws it puts nothing back, and the `torch_wait` case.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest
from table_support import NAMES, StepClock, shipped_arena

from mcbridge.tables.journal import Journal
from mcbridge.tables.kits.wool_bluff import TORCH_CHECK_EVERY, WoolBluffKit
from mcbridge.tables.table import Table
from mcbridge.world import blocks
from mcbridge.world.blocks import Block
from mcbridge.world.geometry import Pos

Wanted = dict[tuple[str, int], Sequence[Pos]]


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    """Four players seated, the match begun (the first tick deals)."""
    journal = Journal(tmp_path / "j.sqlite")
    table = Table(shipped_arena(), journal, StepClock(), seed=1, start_delay=0.0)
    for booth, name in enumerate(NAMES):
        table.join(booth, name)
    table.tick()
    assert table.state is not None and not table.paused
    yield table
    journal.close()


def check(booth: int) -> tuple[str, int]:
    return ("torch_check", booth)


def first_due(table: Table, booth: int) -> Wanted:
    """Call `reads_wanted` until it asks for the booth's torch wall (at most one period)."""
    for _ in range(TORCH_CHECK_EVERY):
        wanted = table.reads_wanted()
        if check(booth) in wanted:
            return wanted
    raise AssertionError(f"booth {booth}'s torch wall not asked within {TORCH_CHECK_EVERY} calls")


def as_drawn(table: Table, cells: Sequence[Pos]) -> list[Block]:
    drawn = table.scene().blocks
    return [drawn.get(cell, Block(0)) for cell in cells]


def test_each_booth_falls_due_once_a_period_on_its_own_call(table: Table) -> None:
    due: dict[int, list[int]] = {}
    for call in range(3 * TORCH_CHECK_EVERY):
        wanted = table.reads_wanted()
        for booth in range(len(table.arena.seats)):
            if check(booth) in wanted:
                due.setdefault(booth, []).append(call)
                table.on_reads({check(booth): as_drawn(table, wanted[check(booth)])})  # answered at once
    assert sorted(due) == list(range(len(table.arena.seats)))
    for booth, calls in due.items():
        assert len(calls) == 3 and calls[1] - calls[0] == calls[2] - calls[1] == TORCH_CHECK_EVERY, (booth, calls)
    assert len({calls[0] for calls in due.values()}) == len(due)  # staggered: never two at once


@pytest.mark.parametrize("booth", [0, 3])
@pytest.mark.parametrize("unanswered", [0, 1, TORCH_CHECK_EVERY - 1, 2 * TORCH_CHECK_EVERY + 3])
def test_a_due_look_is_asked_until_answered_then_waits_for_its_period(
        table: Table, booth: int, unanswered: int) -> None:
    wanted = first_due(table, booth)
    cells = list(wanted[check(booth)])
    assert cells == list(table.arena.seats[booth].torch_wall.cells)
    calls = 0  # calls since the look fell due
    for _ in range(unanswered):  # the supervisor left the read out of these cycles
        again = table.reads_wanted()
        calls += 1
        assert check(booth) in again, f"dropped {calls} calls after falling due"
        assert list(again[check(booth)]) == cells
    refresh, chat = list(table.outbox.refresh), list(table.outbox.chat)
    table.on_reads({check(booth): as_drawn(table, cells)})
    assert table.outbox.refresh == refresh and table.outbox.chat == chat  # the wall is as drawn: nothing to put back
    asked = []
    for _ in range(2 * TORCH_CHECK_EVERY):
        calls += 1
        if check(booth) in table.reads_wanted():
            asked.append(calls)
            break
    # asked again on its next own turn (a period after it first fell due, or a multiple), not before
    assert asked and asked[0] % TORCH_CHECK_EVERY == 0 and asked[0] > unanswered, asked
    assert asked[0] - unanswered <= TORCH_CHECK_EVERY


def test_answering_one_booth_leaves_the_others_owed(table: Table) -> None:
    for _ in range(TORCH_CHECK_EVERY):
        wanted = table.reads_wanted()  # nothing answered: by the end every booth is owed
    owed = {booth for kind, booth in wanted if kind == "torch_check"}
    assert owed == set(range(len(table.arena.seats)))
    table.on_reads({check(1): as_drawn(table, wanted[check(1)])})
    after = table.reads_wanted()
    assert {booth for kind, booth in after if kind == "torch_check"} == owed - {1}


def test_a_booth_filling_its_own_wall_is_not_looked_at_but_stays_owed(table: Table) -> None:
    kit = table.kit
    assert isinstance(kit, WoolBluffKit)
    booth = 2
    kit.torch_wait[booth] = 1  # its player must put up one torch (`torches: players` after a penalty)
    seen_torches = False
    for _ in range(2 * TORCH_CHECK_EVERY):  # its look falls due meanwhile
        wanted = table.reads_wanted()
        assert check(booth) not in wanted
        seen_torches = seen_torches or ("torches", booth) in wanted
    assert seen_torches  # what it waits for is read instead
    cells = list(table.arena.seats[booth].torch_wall.cells)
    torches = [blocks.REDSTONE_TORCH_ON, *[Block(0)] * (len(cells) - 1)]
    table.on_reads({("torches", booth): torches})  # the torch is up: the table owns the wall again
    assert booth not in kit.torch_wait
    wanted = table.reads_wanted()
    assert check(booth) in wanted  # the look it was owed, at once and not a period later
    table.on_reads({check(booth): as_drawn(table, wanted[check(booth)])})
    assert check(booth) not in table.reads_wanted()
