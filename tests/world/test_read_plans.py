"""`read_cells` remembers each wall's plan (world cells, box, indexes) by frame and cells: a
remembered plan reads exactly what a fresh one reads, for every frame, also past the memo's size."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.world import reads
from mcbridge.world.commands import Batch
from mcbridge.world.geometry import ArenaFrame, Cuboid, Facing, Pos
from mcbridge.world.reads import IdCells, read_cells

FRAMES = st.builds(lambda x, z, f: ArenaFrame(Pos(x, 64, z), f), st.integers(-50, 50), st.integers(-50, 50),
                   st.sampled_from(list(Facing)))
WALLS = st.builds(lambda x, w, h: tuple(Cuboid(Pos(x, 0, 0), Pos(x + w, h, 0))), st.integers(-5, 5),
                  st.integers(0, 4), st.integers(0, 2))


def _sent(frame: ArenaFrame, cells: tuple[Pos, ...], ids: bool, with_data: bool) -> tuple[list[str], list[int]]:
    batch = Batch()
    read = read_cells(batch, frame, IdCells(cells) if ids else cells, with_data=with_data)
    for item in batch.items:  # every cell answers its own index: the order comes back as asked
        args = item.command.args
        if item.command.name in ("world.getBlocks", "world.getBlocksWithData"):
            size = len(Cuboid(tuple(map(int, args[:3])), tuple(map(int, args[3:]))))
            data = item.command.name == "world.getBlocksWithData"
            item.reply._set_line(("|" if data else ",").join(f"{k % 200},0" if data else str(k % 200)
                                                             for k in range(size)))
        else:
            item.reply._set_line(f"{sum(map(int, args)) % 200},0")
    return [str(item.command) for item in batch.items], [b.id for b in read.blocks()]


@settings(max_examples=120, deadline=None)
@given(frames=st.lists(FRAMES, min_size=1, max_size=4), wall=WALLS, drop=st.integers(0, 20),
       ids=st.booleans(), with_data=st.booleans(), small=st.booleans())
def test_a_remembered_plan_reads_what_a_fresh_one_reads(frames: list[ArenaFrame], wall: tuple[Pos, ...], drop: int,
                                                         ids: bool, with_data: bool, small: bool) -> None:
    cells = wall if drop >= len(wall) else (*wall[:drop], *wall[drop + 1:])  # sometimes a box, sometimes not
    limit = reads._PLAN_LIMIT
    reads._PLAN_LIMIT = 2 if small else limit
    try:
        fresh = {}
        for frame in frames:  # each frame's plan made afresh
            reads._PLANS.clear()
            fresh[frame] = _sent(frame, cells, ids, with_data)
            if len(fresh[frame][0]) == len(cells) > 1:  # cell by cell: the frame's own world cells
                assert fresh[frame][0] == [f"world.getBlockWithData({','.join(map(str, frame.to_world(c)))})"
                                           for c in cells]
        reads._PLANS.clear()
        for frame in [*frames, *frames]:  # now with the other frames' plans remembered
            assert _sent(frame, cells, ids, with_data) == fresh[frame]
            assert len(reads._PLANS) <= reads._PLAN_LIMIT
    finally:
        reads._PLAN_LIMIT = limit
