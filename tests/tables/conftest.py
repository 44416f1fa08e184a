"""Fixtures for the table tests: a fresh embedded world per test, and rigs closed at teardown."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from table_support import Rig, make_rig

from mcbridge.tables.config import Arena
from mcbridge.world.embedded import EmbeddedHandle, start_embedded


@pytest.fixture
def world() -> Iterator[EmbeddedHandle]:
    """An embedded world ticking as fast as there is work (tps=0)."""
    with start_embedded(port=0, tps=0) as handle:
        yield handle


@pytest.fixture
def rig(world: EmbeddedHandle, tmp_path: Path) -> Iterator[Callable[..., Rig]]:
    """Factory: `rig(arena, **options)` builds the arena and returns a table rig on `world`."""
    made: list[Rig] = []

    def factory(arena: Arena, name: str = "journal", **options: object) -> Rig:
        r = make_rig(world, arena, tmp_path / f"{name}.sqlite", **options)  # type: ignore[arg-type]
        made.append(r)
        return r

    yield factory
    for r in made:
        r.close()
