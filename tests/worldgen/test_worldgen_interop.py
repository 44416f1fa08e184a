"""Interoperability with an independent implementation: prismarine-schematic (npm).

Every block of the legacy table goes through both directions: prismarine reads our
.schem (Sponge v2, the version it reads) and our .schematic, and we read the .schem that
prismarine writes. Skips with a reason when Node or the dev dependency is missing
(`make node-deps` installs it).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from worldgen_support import CANONICAL

from worldgen.grid import BlockGrid
from worldgen.schematic import read_schematic, write_schematic
from worldgen.states import BlockState, LegacyTable, format_key

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).with_name("prismarine_interop.js")
MODULE = ROOT / "server" / "node_modules" / "prismarine-schematic"


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.skip("Node is not installed: the prismarine-schematic check needs it")
    if not MODULE.is_dir():
        pytest.skip("server/node_modules/prismarine-schematic is missing: run `make node-deps`")
    return found


def every_block() -> BlockGrid:
    """One cell per canonical legacy block, shuffled, padded with air to a 12-wide box."""
    keys = np.random.default_rng(5).permutation(CANONICAL)
    volume = -(-keys.size // 144) * 144
    cells = np.zeros(volume, dtype=np.uint16)
    cells[: keys.size] = keys
    return BlockGrid(cells.reshape(-1, 12, 12))


def through_prismarine(source: Path, out: Path) -> dict[str, object]:
    done = subprocess.run(
        [node(), str(SCRIPT), str(source), str(out)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize(("fmt", "suffix"), [("sponge-v2", ".schem"), ("mcedit", ".schematic")])
def test_prismarine_reads_ours_and_we_read_theirs(
    tmp_path: Path, table: LegacyTable, fmt: str, suffix: str
) -> None:
    grid = every_block()
    ours = tmp_path / f"ours{suffix}"
    theirs = tmp_path / "theirs.schem"
    write_schematic(grid, ours, fmt=fmt)

    seen = through_prismarine(ours, theirs)
    assert seen["size"] == list(grid.size)
    cells = seen["cells"]
    assert isinstance(cells, list)
    mismatches = []
    for key, text in zip(grid.cells.ravel().tolist(), cells, strict=True):
        back, _ = table.legacy_of(BlockState.parse(text))
        if back != key:
            mismatches.append(f"{format_key(key)} read by prismarine as {text}")
    assert not mismatches, mismatches[:10]

    loaded = read_schematic(theirs)
    assert loaded.format == "Sponge .schem v2"
    assert not loaded.report.unknown, loaded.report.lines()
    assert loaded.grid.same_blocks(grid)
