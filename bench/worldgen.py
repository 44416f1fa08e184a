"""Schematic paste and repair: commands and server ticks, planned versus one per block.

One run, side by side, on the embedded world at 20 TPS (real sockets on 127.0.0.1):

* **paste**: every block of a build, once with one `world.setBlock` per block (the
  naive way) and once with the planner (box merge, overpaint, supports last, signs with
  text). Printed: blocks, commands each way, ticks each way, and the ratios.
* **repair**: after a simulated match (wool recoloured and placed, torches knocked off,
  a sign broken), `repair` reads the region and rewrites only what differs. Printed:
  changed blocks, read and write commands, round trips, ticks from the first read to the
  last write confirmed. Goal: within 2 ticks.

Builds: a 64x32x64 synthetic village of mixed blocks, the same volume of random noise
(the planner's worst case), and every shipped arena schematic found in config/arenas/
(`*.schem` as `mcbridge worldgen build` writes them, else built from the `*.yaml`). Goals from issue 5: at least 20x
fewer commands than per block on the arena; a post-match repair within 2 ticks.

A large real-world-like case (issue 16): a 256^3 build (16.7M blocks: layered ground,
roads, hollow towers with windows, a wool mosaic, leafy noise) pasted at 20 TPS with the
server's box cap, then exported and compared. Per-block figures for it are counted
(commands, ticks at 8,999 a tick) and timed on a 64^3 slice of it, scaled; running 16.7M
single-block commands would take the better part of an hour.

Readers: each format's read time per million blocks and its peak memory (tracemalloc),
on the 256^3 build (the structure format, one NBT compound per block, on 64^3), with
nbtlib's parse of the same structure file as the before.

Run: .venv/bin/python bench/worldgen.py [--tps 20] [--skip-per-block] [--side 256]
"""

from __future__ import annotations

import argparse
import functools
import logging
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "worldgen"))

import nbtlib
from worldgen_support import city  # the 256^3 build, shared with the tests

from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from worldgen import operations
from worldgen.arena import arena_file_grid
from worldgen.grid import BlockGrid
from worldgen.live import apply_plan
from worldgen.planner import PER_TICK, Plan, Step, plan_paste
from worldgen.schematic import read_schematic, write_schematic
from worldgen.states import default_table, key_of

ROOT = Path(__file__).resolve().parent.parent
AT = (-32, 0, -32)


# --- builds ------------------------------------------------------------------------------


def village(seed: int = 7) -> BlockGrid:
    """64x32x64: ground, a platform, houses with windows, roofs, torches, signs, carpets,
    a wool mosaic (the high-entropy part, like a wall players filled), a quartz tower."""
    rng = np.random.default_rng(seed)
    g = BlockGrid.filled(64, 32, 64, 0)
    g.fill((0, 0, 0), (63, 0, 63), 2)
    g.fill((4, 1, 4), (59, 1, 59), 98)
    for i, (hx, hz) in enumerate([(6, 6), (24, 6), (42, 6), (6, 40), (24, 40), (42, 40)]):
        wood = i % 6
        g.fill((hx, 2, hz), (hx + 13, 8, hz + 13), 5, wood)
        g.fill((hx + 1, 2, hz + 1), (hx + 12, 7, hz + 12), 0)
        for x, z in ((hx, hz), (hx + 13, hz), (hx, hz + 13), (hx + 13, hz + 13)):
            g.fill((x, 2, z), (x, 8, z), 17, wood % 4)  # upright log pillars
        g.fill((hx + 3, 4, hz), (hx + 10, 5, hz), 102)  # windows, front and back
        g.fill((hx + 3, 4, hz + 13), (hx + 10, 5, hz + 13), 102)
        g.fill((hx + 6, 2, hz), (hx + 7, 3, hz), 0)  # door
        g.set_sign(hx + 5, 3, hz - 1, 68, 2, [f"House {i + 1}", "mcbridge", "", ""])
        for step in range(7):  # stepped roof: two stairs rows per layer, slab ridge
            y = 9 + step
            g.fill((hx, y, hz + step), (hx + 13, y, hz + step), 53, 2)
            g.fill((hx, y, hz + 13 - step), (hx + 13, y, hz + 13 - step), 53, 3)
        g.fill((hx, 16, hz + 7), (hx + 13, 16, hz + 7), 126, 0)
        for x in range(hx + 2, hx + 12, 3):  # torches on the inner back wall
            g.set(x, 5, hz + 12, 50, 4)
        carpet = rng.integers(0, 16)
        g.fill((hx + 2, 2, hz + 2), (hx + 11, 2, hz + 11), 171, int(carpet))
    # wool mosaic: 40 wide, 10 high, random colours
    mosaic = rng.integers(0, 16, size=(10, 40)).astype(np.uint16)
    g.cells[2:12, 30, 12:52] = key_of(35) | mosaic
    g.fill((10, 2, 29), (53, 12, 29), 98)  # its backing wall
    # quartz tower with sea lanterns, a sand pile and gravel
    g.fill((28, 2, 52), (35, 30, 59), 155, 0)
    g.fill((29, 2, 53), (34, 29, 58), 0)
    for y in range(4, 30, 4):
        g.fill((28, y, 52), (35, y, 52), 169)
    g.fill((56, 2, 20), (60, 4, 24), 12)
    g.fill((57, 5, 21), (59, 5, 23), 13)
    return g


def noise(seed: int = 11) -> BlockGrid:
    """Uniform random blocks from the whole table: nothing to merge, the worst case."""
    table = default_table()
    keys = np.array(sorted(table.known_keys()), dtype=np.uint16)
    rng = np.random.default_rng(seed)
    return BlockGrid(rng.choice(keys, size=(32, 64, 64)).astype(np.uint16))


def shipped_arenas() -> Iterator[tuple[str, BlockGrid]]:
    """The shipped arenas: each config/arenas/*.yaml, from its shipped schematic when
    there is one (what operators paste), else built from the YAML layout."""
    for path in sorted((ROOT / "config" / "arenas").glob("*.yaml")):
        schematic = path.with_suffix(".schem")
        if schematic.exists():
            yield f"arena {schematic.name}", read_schematic(schematic).grid
        else:
            yield f"arena {path.name} (built from the layout)", arena_file_grid(path)


# --- measuring -----------------------------------------------------------------------------


def per_block_plan(grid: BlockGrid, at: tuple[int, int, int]) -> Plan:
    """The naive way: one setBlock per block (setSign for signs with text)."""
    steps = []
    ax, ay, az = at
    signed = {p: e.sign_lines() for p, e in grid.block_entities.items()}
    for (y, z, x), key in np.ndenumerate(grid.cells):
        block_id, data = int(key) >> 4, int(key) & 15
        lines = signed.get((x, y, z))
        if lines is not None:
            steps.append(
                Step("world.setSign", (ax + x, ay + y, az + z, block_id, data, *lines), 1)
            )
        else:
            steps.append(Step("world.setBlock", (ax + x, ay + y, az + z, block_id, data), 1))
    return Plan(steps, grid.volume, grid.volume, "one per block")


def timed_run(server: EmbeddedHandle, conn: Connection, plan: Plan) -> tuple[int, float]:
    """Server ticks and seconds from the first write to the last fence answered."""
    conn.sync()
    start_tick, start = server.ticks, time.perf_counter()
    apply_plan(conn, plan)
    return server.ticks - start_tick, time.perf_counter() - start


def clear(server: EmbeddedHandle, grid: BlockGrid) -> None:
    w, h, length = grid.size
    server.fill(AT, (AT[0] + w - 1, AT[1] + h - 1, AT[2] + length - 1), 0)


def simulate_match(server: EmbeddedHandle, grid: BlockGrid, seed: int = 3) -> int:
    """What a match leaves behind: 60 changes on wool, torches, signs and open air."""
    rng = np.random.default_rng(seed)
    ax, ay, az = AT
    wool = np.argwhere((grid.cells >> 4) == 35)
    torches = np.argwhere(np.isin(grid.cells >> 4, [50, 75, 76]))
    air = np.argwhere(grid.cells == 0)
    air = air[air[:, 0] > 0]  # not in the ground layer
    changed = 0
    for cells, block in ((wool, (35, 5)), (torches, (0, 0)), (air, (35, 14))):
        if not len(cells):
            continue
        picks = cells[rng.choice(len(cells), size=min(20, len(cells)), replace=False)]
        for y, z, x in picks.tolist():
            if int(grid.cells[y, z, x]) != key_of(*block):
                server.set_block(ax + x, ay + y, az + z, *block)
                changed += 1
    return changed


def bench_case(server: EmbeddedHandle, conn: Connection, name: str, grid: BlockGrid,
               per_block: bool) -> None:
    started = time.perf_counter()
    plan = plan_paste(grid, AT)
    planning = time.perf_counter() - started
    print(f"\n== {name}: {grid.width}x{grid.height}x{grid.length} = {grid.volume} blocks,"
          f" {len(grid.block_entities)} signs")
    print(f"   plan: {plan.strategy}; planned in {planning * 1000:.0f} ms")
    naive_ticks = naive_seconds = None
    if per_block:
        clear(server, grid)
        naive = per_block_plan(grid, AT)
        naive_ticks, naive_seconds = timed_run(server, conn, naive)
    clear(server, grid)
    ticks, seconds = timed_run(server, conn, plan)
    assert operations.export(
        conn, AT, tuple(a + s - 1 for a, s in zip(AT, grid.size, strict=True))  # type: ignore[arg-type]
    ).same_blocks(grid), "the paste did not reproduce the build"
    print(f"   commands: per block {plan.per_block:>7}   planned {plan.commands:>6}"
          f"   ratio {plan.ratio:8.1f}x")
    if naive_ticks is not None and naive_seconds is not None:
        print(f"   ticks:    per block {naive_ticks:>7}   planned {ticks:>6}"
              f"   ratio {naive_ticks / max(ticks, 1):8.1f}x"
              f"   ({naive_seconds:.2f} s vs {seconds:.2f} s)")
    else:
        print(f"   ticks:    planned {ticks} ({seconds:.2f} s)")

    changed = simulate_match(server, grid)
    conn.sync()
    start_tick = server.ticks
    result = operations.repair(conn, grid, AT)
    repair_ticks = server.ticks - start_tick
    print(f"   repair after a match: {changed} blocks changed, found {result.diff.count}"
          f" (+{result.diff.unverified_count} unread, written again);"
          f" {result.diff.read.commands} read commands in {result.diff.read.round_trips}"
          f" round trip(s), {result.plan.commands} write commands;"
          f" {repair_ticks} ticks (goal <= 2)")


def formats_line(grid: BlockGrid, tmp: Path) -> None:
    path = tmp / "village.schem"
    started = time.perf_counter()
    write_schematic(grid, path)
    written = time.perf_counter()
    read_schematic(path)
    done = time.perf_counter()
    print(f"\n.schem v3 of the village: write {1000 * (written - started):.0f} ms,"
          f" read {1000 * (done - written):.0f} ms, {path.stat().st_size / 1024:.1f} KB")


def big_build_case(server: EmbeddedHandle, conn: Connection, side: int, per_block: bool) -> None:
    grid = city(side)
    at = (-side // 2, 0, -side // 2)
    started = time.perf_counter()
    plan = plan_paste(grid, at, max_box=operations.server_max_box(conn))
    planning = time.perf_counter() - started
    print(f"\n== real-world-like build: {side}^3 = {grid.volume} blocks, box cap {plan.max_box}")
    print(f"   plan: {plan.strategy}; planned in {planning:.1f} s;"
          f" largest box {max(step.blocks for step in plan.steps)} blocks")
    w, h, length = grid.size
    server.fill(at, (at[0] + w - 1, at[1] + h - 1, at[2] + length - 1), 1)
    ticks, seconds = timed_run(server, conn, plan)
    naive_commands = grid.volume
    naive_ticks = -(-naive_commands // PER_TICK)
    print(f"   commands: per block {naive_commands:>9}   planned {plan.commands:>7}"
          f"   ratio {naive_commands / plan.commands:8.1f}x")
    line = (f"   ticks:    per block {naive_ticks:>9}   planned {ticks:>7}"
            f"   ratio {naive_ticks / max(ticks, 1):8.1f}x   (pasted in {seconds:.1f} s")
    if per_block:
        piece = BlockGrid(grid.cells[:64, :64, :64].copy())
        slice_ticks, slice_seconds = timed_run(server, conn, per_block_plan(piece, (at[0], 300, at[2])))
        scaled = slice_seconds * grid.volume / piece.volume
        line += f"; per block ~{scaled:.0f} s, timed on a 64^3 slice: {slice_ticks} ticks, {slice_seconds:.1f} s"
    print(line + ")")
    started, start_tick = time.perf_counter(), server.ticks
    exported = operations.export(conn, at, (at[0] + w - 1, at[1] + h - 1, at[2] + length - 1))
    print(f"   export: {time.perf_counter() - started:.1f} s, {server.ticks - start_tick} ticks"
          " (data read block by block where the id has several states);"
          f" equal to the build: {exported.same_blocks(grid)}")


def litematic_of(grid: BlockGrid, path: Path) -> None:
    """A one-region Litematica file of the grid (the bench needs one; the package only reads)."""
    table = default_table()
    keys, inverse = np.unique(grid.cells.ravel(), return_inverse=True)
    states = [str(table.state_of(int(k)) or "minecraft:stone") for k in keys]
    bits = max(2, (len(states) - 1).bit_length())
    values = inverse.astype(np.uint64)
    start = np.arange(values.size, dtype=np.uint64) * np.uint64(bits)
    word, offset = (start >> np.uint64(6)).astype(np.intp), start & np.uint64(63)
    words = np.zeros(-(-values.size * bits // 64) + 1, dtype=np.uint64)
    np.bitwise_or.at(words, word, values << offset)
    spill = offset + np.uint64(bits) > np.uint64(64)
    np.bitwise_or.at(words, word[spill] + 1, values[spill] >> (np.uint64(64) - offset[spill]))

    def xyz(x: int, y: int, z: int) -> nbtlib.Compound:
        return nbtlib.Compound({"x": nbtlib.Int(x), "y": nbtlib.Int(y), "z": nbtlib.Int(z)})

    palette = []
    for text in states:
        name, _, props = text.partition("[")
        entry = nbtlib.Compound({"Name": nbtlib.String(name)})
        if props:
            entry["Properties"] = nbtlib.Compound(
                {k: nbtlib.String(v) for k, v in (p.split("=") for p in props[:-1].split(","))}
            )
        palette.append(entry)
    region = nbtlib.Compound({
        "Position": xyz(0, 0, 0), "Size": xyz(*grid.size),
        "BlockStatePalette": nbtlib.List[nbtlib.Compound](palette),
        "BlockStates": nbtlib.LongArray(words[:-1].view(np.int64)),
    })
    root = nbtlib.Compound({"MinecraftDataVersion": nbtlib.Int(2586), "Version": nbtlib.Int(5),
                            "Regions": nbtlib.Compound({"build": region})})
    nbtlib.File(root, root_name="").save(path, gzipped=True)


def measured(read: Callable[[], object]) -> tuple[float, int]:
    """(seconds, peak bytes): warmed up, timed without tracing, then traced for memory."""
    read()
    started = time.perf_counter()
    read()
    seconds = time.perf_counter() - started
    tracemalloc.start()
    read()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return seconds, peak


def readers_line(side: int, tmp: Path) -> None:
    big, small = city(side), city(64)
    print("\nreaders (read time per million blocks, peak memory):")
    cases = [("sponge-v3", ".schem", big), ("sponge-v2", ".schem", big),
             ("mcedit", ".schematic", big), ("structure", ".nbt", small)]
    for fmt, suffix, grid in cases:
        path = tmp / f"{fmt}{suffix}"
        write_schematic(grid, path, fmt=fmt)
        seconds, peak = measured(functools.partial(read_schematic, path))
        print(f"   {fmt:<10} {grid.width}^3: {seconds * 1e6 / grid.volume:7.3f} s/M blocks"
              f"   peak {peak / 2**20:7.1f} MiB   file {path.stat().st_size / 2**20:.1f} MiB")
        if fmt == "structure":
            before = time.perf_counter()
            nbtlib.load(path)
            old = time.perf_counter() - before
            print(f"   {'':<10} before (nbtlib parse alone): {old * 1e6 / grid.volume:7.3f} s/M blocks,"
                  f" {old / seconds:.0f}x slower")
    path = tmp / "build.litematic"
    litematic_of(big, path)
    seconds, peak = measured(lambda: read_schematic(path))
    print(f"   {'litematica':<10} {side}^3: {seconds * 1e6 / big.volume:7.3f} s/M blocks"
          f"   peak {peak / 2**20:7.1f} MiB   file {path.stat().st_size / 2**20:.1f} MiB")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tps", type=float, default=20.0, help="embedded server tick rate")
    parser.add_argument("--skip-per-block", action="store_true", help="skip the naive runs")
    parser.add_argument("--side", type=int, default=256, help="side of the large build (256)")
    args = parser.parse_args()
    # The embedded server logs every deferred tick, as RaspberryJuice does; quiet here.
    logging.getLogger("mcbridge.world.embedded").setLevel(logging.ERROR)
    cases = [("synthetic village", village()), ("random noise", noise())]
    cases = list(shipped_arenas()) + cases
    print(f"embedded world at {args.tps:g} TPS, 9000 lines per tick per connection")
    with start_embedded(tps=args.tps, absolute=True) as server, Connection(
        server.host, server.port, reply_timeout=60
    ) as conn:
        conn.capabilities()  # learnt once per connection (box cap...), outside every measure
        for name, grid in cases:
            bench_case(server, conn, name, grid, per_block=not args.skip_per_block)
        big_build_case(server, conn, args.side, per_block=not args.skip_per_block)
    with tempfile.TemporaryDirectory() as tmp:
        formats_line(village(), Path(tmp))
        readers_line(args.side, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())
