"""`arena build` says what it will overwrite and refuses to replace anything but air
without `--yes` (issue 19, item 6), on the embedded world over the real protocol."""

from __future__ import annotations

import pytest
from table_support import ARENA_FILE

from mcbridge.cli import EXIT_OPERATOR, main
from mcbridge.tables.build import chunk_columns, survey
from mcbridge.tables.config import load_arena
from mcbridge.world import blocks
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.geometry import Cuboid, Pos


def build(world: EmbeddedHandle, *extra: str) -> int:
    return main(["arena", "build", str(ARENA_FILE), "--port", str(world.port), "--connect-attempts", "1", *extra])


def test_a_build_over_blocks_is_refused_until_yes(world: EmbeddedHandle, capsys: pytest.CaptureFixture[str]) -> None:
    arena = load_arena(ARENA_FILE)
    box = arena.frame.cuboid_to_world(arena.bounds)
    assert build(world) == 0  # fresh superflat above the floor: nothing to lose
    out = capsys.readouterr().out
    assert f"x {box.lo.x}..{box.hi.x}, y {box.lo.y}..{box.hi.y}, z {box.lo.z}..{box.hi.z}" in out
    assert "all air" in out and "built " in out

    marker = Pos(box.hi.x, box.hi.y, box.hi.z)  # a player's block in a corner the arena leaves empty
    world.set_block(marker.x, marker.y, marker.z, blocks.GOLD_BLOCK.id)
    assert build(world) == EXIT_OPERATOR
    out, err = capsys.readouterr()
    assert "not air" in out and "refused" in err and "--yes" in err and "origin" in err
    assert world.get_block(marker.x, marker.y, marker.z)[0] == blocks.GOLD_BLOCK.id  # nothing written

    assert build(world, "--yes") == 0
    assert world.get_block(marker.x, marker.y, marker.z)[0] != blocks.GOLD_BLOCK.id


def test_the_survey_reads_each_chunk_once_in_one_round_trip(world: EmbeddedHandle) -> None:
    arena = load_arena(ARENA_FILE)
    with Connection(world.host, world.port) as conn:
        before = conn.stats.round_trips
        found = survey(conn, arena)
        assert conn.stats.round_trips - before == 1
    parts = list(chunk_columns(found.bounds))
    assert found.reads == len(parts) > 1
    assert sum(p.volume for p in parts) == found.bounds.volume  # the columns tile the box
    assert all(p.lo.x // 16 == p.hi.x // 16 and p.lo.z // 16 == p.hi.z // 16 for p in parts)
    assert found.non_air == 0  # a fresh superflat: the floor layer is the grass
    assert found.floor_non_air == found.bounds.size[0] * found.bounds.size[2]


def test_chunk_columns_tile_any_box() -> None:
    box = Cuboid(Pos(-17, 3, 30), Pos(16, 9, 31))
    parts = list(chunk_columns(box))
    cells = [c for p in parts for c in p]
    assert len(cells) == len(set(cells)) == box.volume
