"""World I/O: stock mcpi versus our pipelined connection, side by side in one run.

A RaspberryJuice server answers a query only on its next tick, so a client that waits for
each reply reads one block per tick (20 per second). Reading Wool Bluff's walls (four
10-block wool walls, four 10-torch penalty walls) and writing 10,000 blocks are measured:

  (a) stock mcpi 1.2.1: `getBlockWithData` per block / `setBlock` per block;
  (b) `mcbridge.world.connection`: one pipelined batch (per block, `getBlocks` per wall for
      ids only, and `getBlocksWithData` per wall where the server lists `blocks_with_data`).

Ticks come from the server's tick counter where it has one (the embedded world); otherwise
they are derived from the time at 20 TPS (marked ~). Prints a table; never fails on timing.

    python bench/world_io.py [--server embedded|flying-squid] [--tps 20]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

from mcpi.minecraft import Minecraft as StockMinecraft

from mcbridge.world import blocks
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch
from mcbridge.world.connection import Connection
from mcbridge.world.driver import ServerHandle
from mcbridge.world.geometry import Cuboid, Pos
from mcbridge.world.reads import BLOCKS_WITH_DATA

WALL_LENGTH = 10
WRITES = 10_000
TPS = 20
SETTLE = 1.0


def start_server(kind: str, tps: float = TPS) -> ServerHandle:
    """The server to measure, by kind: the hook the [SERVER] comparison plugs into."""
    if kind == "embedded":
        from mcbridge.world.embedded import start_embedded

        return cast(ServerHandle, start_embedded(tps=tps))
    if kind == "flying-squid":
        from mcbridge.world.realserver import start_flying_squid

        return cast(ServerHandle, start_flying_squid())
    raise SystemExit(f"unknown server kind {kind!r}: use embedded or flying-squid.")


@dataclass
class Row:
    case: str
    seconds: float
    ticks: float
    exact_ticks: bool
    round_trips: int
    commands: int


@contextmanager
def measured(
    server: ServerHandle, rows: list[Row], case: str, trips: int, cmds: int
) -> Iterator[Callable[[int, int], None]]:
    """Time the block; `set_counts(round_trips, commands)` may correct the counts inside."""
    counts = [trips, cmds]

    def set_counts(round_trips: int, commands: int) -> None:
        counts[:] = [round_trips, commands]

    time.sleep(SETTLE)  # let the server finish (and catch up on) the previous case's ticks
    ticks_before = getattr(server, "ticks", None)
    start = time.perf_counter()
    yield set_counts
    seconds = time.perf_counter() - start
    ticks_after = getattr(server, "ticks", None)
    if ticks_before is None or ticks_after is None:
        rows.append(Row(case, seconds, seconds * TPS, False, *counts))
    else:
        rows.append(Row(case, seconds, ticks_after - ticks_before, True, *counts))


def wall_layout() -> tuple[dict[Pos, Block], list[Cuboid], list[Pos]]:
    """Four wool walls and four penalty walls (lit redstone torches on stone, or air)."""
    rng = random.Random(7)
    world: dict[Pos, Block] = {}
    walls: list[Cuboid] = []
    for w in range(4):
        z = 10 + 3 * w
        wool = Cuboid((20, 1, z), (20 + WALL_LENGTH - 1, 1, z))
        torches = Cuboid((40, 1, z), (40 + WALL_LENGTH - 1, 1, z))
        for p in wool:
            world[p] = blocks.wool(rng.randrange(16))
        for p in torches:
            world[p.offset(dz=-1)] = blocks.STONE  # support first: torch data 3 hangs south
            world[p] = rng.choice([blocks.REDSTONE_TORCH_ON.with_data(3), blocks.AIR])
        walls += [wool, torches]
    cells = [p for wall in walls for p in wall]
    return world, walls, cells


def bench_reads(server: ServerHandle, conn: Connection, stock: StockMinecraft, rows: list[Row]) -> None:
    world, walls, cells = wall_layout()
    with conn.batch(fence_every=len(world)) as batch:
        for pos, block in world.items():
            batch.set_block(pos, block)
    with measured(server, rows, f"(a) stock mcpi getBlockWithData x{len(cells)}", len(cells), len(cells)):
        stock_read = [stock.getBlockWithData(*p) for p in cells]
    def pipelined(label: str, queries: Callable[[Batch], list[Any]]) -> list[Any]:
        """One pipelined batch of `queries`, its round trips and lines (markers too) counted."""
        before = conn.stats.snapshot()
        with measured(server, rows, f"(b) pipelined {label}", 0, 0) as counts:
            with conn.batch() as batch:
                replies = queries(batch)
            spent = conn.stats - before
            counts(spent.round_trips, spent.commands + spent.fences)  # markers between queries too
        return replies

    replies = pipelined(f"getBlockWithData x{len(cells)}", lambda b: [b.get_block_with_data(p) for p in cells])
    id_replies = pipelined(f"getBlocks x{len(walls)} (ids only)", lambda b: [b.get_blocks(w) for w in walls])
    region_replies = []
    if BLOCKS_WITH_DATA in conn.capabilities():  # the embedded world and server/, not plain RJ
        region_replies = pipelined(f"getBlocksWithData x{len(walls)}",
                                   lambda b: [b.get_blocks_with_data(w) for w in walls])
    expected = [world[p] for p in cells]
    assert [Block(b.id, b.data) for b in stock_read] == expected, "stock read differs"
    assert [r.result() for r in replies] == expected, "pipelined read differs"
    assert [i for r in id_replies for i in r.result()] == [b.id for b in expected]
    if region_replies:
        assert [b for r in region_replies for b in r.result()] == expected, "region read differs"


def bench_writes(server: ServerHandle, conn: Connection, stock: StockMinecraft, rows: list[Row]) -> None:
    area = Cuboid((0, 20, 0), (99, 20, 99))
    assert area.volume == WRITES
    with measured(server, rows, f"(a) stock mcpi setBlock x{WRITES} + getBlock", 1, WRITES + 1):
        for i, p in enumerate(area):
            stock.setBlock(p.x, p.y, p.z, 35, i % 16)
        stock.getBlock(*area.hi)  # replies come in order: this one confirms every write
    for fence_every, label in ((1, "fence per setter"), (WRITES, "one fence")):
        before = conn.stats.snapshot()
        case = f"(b) pipelined setBlock x{WRITES}, {label}"
        with measured(server, rows, case, 0, 0) as counts:
            with conn.batch(fence_every=fence_every) as batch:
                for i, p in enumerate(area):
                    batch.set_block(p, Block(35, (i + fence_every) % 16))
            spent = conn.stats - before
            counts(spent.round_trips, spent.commands + spent.fences)
    check = conn.batch()
    last = check.get_block_with_data(area.hi)
    check.flush()
    assert last.result() == Block(35, (WRITES - 1 + WRITES) % 16)


def print_table(title: str, rows: list[Row]) -> None:
    base = rows[0]
    print(f"\n{title}")
    print(f"{'case':<52}{'seconds':>9}{'ticks':>8}{'trips':>7}{'lines':>8}{'speed-up':>10}")
    for row in rows:
        ticks = f"{row.ticks:.0f}" if row.exact_ticks else f"~{row.ticks:.0f}"
        ratio = base.seconds / row.seconds if row.seconds else float("inf")
        print(
            f"{row.case:<52}{row.seconds:>9.3f}{ticks:>8}{row.round_trips:>7}"
            f"{row.commands:>8}{ratio:>9.1f}x"
        )


def measure(kind: str, tps: float = TPS) -> tuple[list[Row], list[Row]]:
    """Both cases (wall reads, 10,000 writes) on one freshly started server of `kind`."""
    server = start_server(kind, tps)
    try:
        stock = StockMinecraft.create(server.host, server.port)
        stock.conn.socket.settimeout(30)
        with Connection(server.host, server.port, reply_timeout=30) as conn:
            reads: list[Row] = []
            bench_reads(server, conn, stock, reads)
            writes: list[Row] = []
            bench_writes(server, conn, stock, writes)
        stock.conn.socket.close()
        return reads, writes
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", default="embedded", choices=["embedded", "flying-squid"])
    parser.add_argument("--tps", type=float, default=TPS, help="embedded world tick rate")
    args = parser.parse_args()
    reads, writes = measure(args.server, args.tps)
    where = f"{args.server}" + (f" at {args.tps:g} TPS" if args.server == "embedded" else "")
    print_table(f"Reading 4 wool walls + 4 torch walls (10 blocks each), {where}", reads)
    print_table(f"Writing {WRITES} blocks, confirmed, {where}", writes)
    print("\nticks: server tick counter (~ = derived from seconds at 20 TPS); trips = waits "
          "for replies; lines = request lines sent (fences included).")


if __name__ == "__main__":
    main()
