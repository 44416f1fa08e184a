"""`worldgen build`: arena YAML -> schematic, consistent with `arena build` and shipped files."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcbridge.cli import main
from mcbridge.tables.build import build_arena
from mcbridge.tables.config import load_arena
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle
from worldgen import operations
from worldgen.arena import arena_file_grid, arena_grid
from worldgen.planner import plan_paste
from worldgen.schematic import read_schematic

ROOT = Path(__file__).resolve().parents[2]
ARENAS = sorted((ROOT / "config" / "arenas").glob("*.yaml"))


@pytest.mark.parametrize("path", ARENAS, ids=lambda p: p.name)
def test_shipped_schematic_is_up_to_date(path: Path) -> None:
    shipped = path.with_suffix(".schem")
    if not shipped.exists():
        pytest.skip(f"{shipped.name} is not shipped yet: run mcbridge worldgen build {path.relative_to(ROOT)}")
    built = arena_file_grid(path)
    loaded = read_schematic(shipped).grid
    assert loaded == built, (
        f"{shipped} is out of date with {path.name}: run `mcbridge worldgen build"
        f" {path.relative_to(ROOT)}` and commit the result"
    )


@pytest.mark.parametrize("path", ARENAS, ids=lambda p: p.name)
def test_an_arena_pastes_in_at_least_20x_fewer_commands(path: Path) -> None:
    grid = arena_file_grid(path)
    plan = plan_paste(grid, (0, 0, 0))
    assert plan.ratio >= 20, plan.summary()
    assert plan.ticks == 1


def test_build_writes_what_arena_build_places(
    server: EmbeddedHandle, conn: Connection, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = ROOT / "config" / "arenas" / "wool_bluff.yaml"  # the 42 signs below are its
    out = tmp_path / "arena.schem"
    assert main(["worldgen", "build", str(path), "-o", str(out)]) == 0
    assert f"wrote {out}: " in capsys.readouterr().out
    grid = read_schematic(out).grid
    arena = load_arena(path)
    assert grid == arena_grid(arena)
    signs = [e.sign_lines() for e in grid.block_entities.values()]
    assert len(signs) == 42 and all(lines is not None for lines in signs)

    build_arena(conn, arena)  # the tables' own builder, at the arena's frame
    if arena.frame.facing.value:
        grid, _ = operations.rotate(grid, arena.frame.facing.value * 90)
    corners = [arena.frame.to_world(arena.bounds.lo), arena.frame.to_world(arena.bounds.hi)]
    low = tuple(min(a, b) for a, b in zip(*corners, strict=True))
    found = operations.repair(conn, grid, (low[0], low[1], low[2]))
    assert found.diff.count == 0, found.diff.summary()
    assert found.diff.read.round_trips == 1


def test_build_reports_arena_problems(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\ngame: chess\n")
    assert main(["worldgen", "build", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "bad.yaml:" in err
