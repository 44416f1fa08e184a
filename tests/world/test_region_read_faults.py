"""Region reads (`world.getBlocksWithData`, and walls read through `reads.read_cells`) are no
easier to feed a wrong value than one read per block: a reply of the wrong shape is a desync,
and through a link that drops, duplicates and cuts lines no wrong wall is ever handed out."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from faults.proxy import FaultProxy, Faults

from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.errors import WorldError
from mcbridge.world.geometry import ArenaFrame, Cuboid, Facing, Pos
from mcbridge.world.pipeline import Desync, Pipeline
from mcbridge.world.reads import IdCells, read_cells

BROKEN = Faults(drop=0.01, duplicate=0.01, cut=0.01, delay=0.005)
BATCHES = 400
WALL = Cuboid(Pos(0, 0, 0), Pos(4, 1, 0))  # a 5 x 2 wool wall, as the shipped arena's
CELLS = tuple(sorted(WALL, key=lambda p: (-p.y, p.x, p.z)))


@pytest.fixture
def world() -> Iterator[EmbeddedHandle]:
    with start_embedded(tps=0) as handle:
        yield handle


@pytest.mark.parametrize(
    "line",
    [
        "35,1|35,2|35,3",  # a record short
        "35,1|35,2|35,3|35,4|35,5",  # a record too many
        "35,35,35,35",  # ids only (a getBlocks reply of the same box)
        "35,1|35|35,3|35,4",  # a record without data
        "35,1|35,2|35,3|35,4|",  # a trailing bar
        "Aki",  # a name where blocks were due
    ],
)
def test_a_region_reply_of_the_wrong_shape_is_a_desync(line: str) -> None:
    batch = Batch()
    reply = batch.get_blocks_with_data(Cuboid(Pos(0, 0, 0), Pos(1, 1, 0)))
    pipe = Pipeline()
    pipe.encode(batch.items)
    with pytest.raises(Desync):
        pipe.feed(line)
    assert not reply.done


def test_broken_link_hands_out_no_wrong_wall(world: EmbeddedHandle) -> None:
    rng = random.Random(12)
    frames = [ArenaFrame(Pos(20 * k, 0, 10), facing) for k, facing in enumerate(Facing)]
    accepted = errors = 0
    with FaultProxy((world.host, world.port), replies=BROKEN, seed=12) as proxy:
        conn = Connection(proxy.host, proxy.port, reply_timeout=2.0, resync_timeout=2.0)
        for _ in range(BATCHES):
            truth = {}
            for frame in frames:  # a fresh wall each time: a value of another batch would be wrong
                for cell in CELLS:
                    block = Block(35, rng.randrange(16))
                    at = frame.to_world(cell)
                    world.set_block(at.x, at.y, at.z, block.id, block.data)
                    truth[frame, cell] = block
            batch = conn.batch()
            reads = [(frame, ids, read_cells(batch, frame, IdCells(CELLS) if ids else CELLS, with_data=True))
                     for frame in frames for ids in (False, True)]
            try:
                batch.flush()
            except WorldError:
                errors += 1
                continue
            for frame, ids, read in reads:
                want = [truth[frame, c] for c in CELLS]
                assert read.blocks() == ([Block(b.id) for b in want] if ids else want)
                accepted += 1
        conn.close()
        stats = proxy.replies.stats
    assert stats.dropped > 5 and stats.duplicated > 5 and stats.cut > 5
    assert errors > 0 and conn.stats.resyncs > 0
    assert accepted > BATCHES  # most batches still got through
