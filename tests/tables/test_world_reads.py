"""What a Wool Bluff table reads from the world, and with which commands (issue 12 item 7).

At each Reveal the table reads every seat's wool wall once, in one line per wall where the
server has `world.getBlocksWithData`; torch walls are read by id with `world.getBlocks`; each
seat's torch wall is looked at once per `TORCH_CHECK_EVERY` cycles, the seats on different
cycles. On a server without region reads with data (plain RaspberryJuice) the walls are read
one block at a time, and the match is the same, action for action.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from table_support import Rig, make_rig, seat_bots, shipped_arena

from mcbridge.tables.config import Arena
from mcbridge.tables.kits.wool_bluff import TORCH_CHECK_EVERY
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.geometry import Cuboid
from mcbridge.world.reads import BLOCKS_WITH_DATA


def record(r: Rig) -> list[list[tuple[str, tuple[str, ...]]]]:
    """Every batch the rig's connection runs, as (command, args) lists."""
    sent: list[list[tuple[str, tuple[str, ...]]]] = []
    run_batch = r.conn.run_batch

    def recorded(items: Any, fence_every: int, **options: Any) -> None:
        sent.append([(item.command.name, item.command.args) for item in items])
        run_batch(items, fence_every, **options)

    r.conn.run_batch = recorded  # type: ignore[method-assign]
    return sent


def boxes(r: Rig, region: str) -> set[tuple[str, ...]]:
    """The world boxes of one region of every seat, as getBlocks arguments."""
    return {tuple(map(str, r.arena.frame.cuboid_to_world(seat.regions[region].cuboid).args()))
            for seat in r.arena.seats}


def cells(r: Rig, region: str) -> set[tuple[str, ...]]:
    return {tuple(map(str, r.arena.frame.to_world(cell))) for seat in r.arena.seats
            for cell in seat.regions[region].cells}


def play(rig: Callable[..., Rig], region_reads: bool) -> tuple[Rig, list[list[tuple[str, tuple[str, ...]]]]]:
    r = rig(shipped_arena(options={"turns": 3}), name=f"reads-{region_reads}")
    caps = r.conn.capabilities()
    r.conn.capabilities = (lambda: caps) if region_reads else (lambda: caps - {BLOCKS_WITH_DATA})  # type: ignore[method-assign]
    sent = record(r)
    seat_bots(r)
    r.finish()
    return r, sent


@pytest.mark.parametrize("region_reads", [True, False])
def test_each_reveal_reads_every_wool_wall_once_and_torch_walls_by_id(
    rig: Callable[..., Rig], region_reads: bool
) -> None:
    r, sent = play(rig, region_reads)
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    reveals = sum(1 for _, data in saved.actions if data["type"] == "Reveal")
    assert reveals == 3
    walls, torches = boxes(r, "wool_wall"), boxes(r, "torch_wall")
    wall_cells, torch_cells = cells(r, "wool_wall"), cells(r, "torch_wall")
    counts: Counter[str] = Counter()
    for batch in sent:
        for name, args in batch:
            if name == "world.getBlocksWithData":
                counts["wall boxes"] += args in walls
                counts["other boxes"] += args not in walls
            elif name == "world.getBlockWithData":
                counts["wall cells"] += args in wall_cells
                counts["torch cells"] += args in torch_cells
            elif name == "world.getBlocks" and args in torches:
                counts["torch boxes"] += 1
    seats = len(r.arena.seats)
    if region_reads:
        assert counts["wall boxes"] == seats * reveals and counts["wall cells"] == 0
    else:
        assert counts["wall cells"] == seats * reveals * len(r.arena.seats[0].wool_wall.cells)
        assert counts["wall boxes"] == 0
    assert counts["other boxes"] == 0 and counts["torch cells"] == 0 and counts["torch boxes"] > 0


def test_torch_walls_are_looked_at_once_per_period_a_seat_at_a_time(rig: Callable[..., Rig]) -> None:
    r = rig(shipped_arena(options={"turns": 3}))
    sent = record(r)
    seat_bots(r)
    r.run_until(lambda: r.table.state is not None and r.table.state.phase == "bid", max_cycles=400)
    start = len(sent)
    for _ in range(3 * TORCH_CHECK_EVERY):
        r.step()
    torches = {box: seat.index for box, seat in zip(
        [tuple(map(str, r.arena.frame.cuboid_to_world(s.torch_wall.cuboid).args())) for s in r.arena.seats],
        r.arena.seats, strict=True)}
    looks: dict[int, list[int]] = {seat.index: [] for seat in r.arena.seats}
    for cycle, batch in enumerate(sent[start:]):
        seen = [torches[args] for name, args in batch if name == "world.getBlocks" and args in torches]
        assert len(seen) <= 1, f"cycle {cycle} looked at the torch walls of seats {seen} at once"
        for seat in seen:
            looks[seat].append(cycle)
    for seat, when in looks.items():
        assert len(when) == 3 and {b - a for a, b in itertools.pairwise(when)} == {TORCH_CHECK_EVERY}, (seat, when)


def test_the_match_is_the_same_with_and_without_region_reads(tmp_path: Path) -> None:
    journals = []
    for region_reads in (True, False):
        with start_embedded(port=0, tps=0) as world:
            def rig(arena: Arena, name: str, here: EmbeddedHandle = world) -> Rig:
                return make_rig(here, arena, tmp_path / f"{name}.sqlite")

            r, _ = play(rig, region_reads)
            saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
            journals.append(saved.actions)
            r.close()
    assert len(journals[0]) > 20 and journals[0] == journals[1]


def test_a_wall_box_is_the_region_cuboid() -> None:
    """The reads above find walls by box: the shipped walls are whole boxes (reading order aside)."""
    arena = shipped_arena()
    for seat in arena.seats:
        for region in ("wool_wall", "torch_wall"):
            assert set(seat.regions[region].cells) == set(Cuboid(seat.regions[region].cuboid.lo,
                                                                 seat.regions[region].cuboid.hi))
