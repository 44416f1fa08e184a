"""Shared by the web tests: tables without a world, driven action by action."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from mcbridge import CONFIG_DIR
from mcbridge.core import CHANCE
from mcbridge.tables.config import load_arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.table import Table

NAMES = ["Aki", "Ben", "Chie", "Dan"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def seated_table(tmp: Path, name: str = "t.sqlite", lang: str = "en") -> tuple[Table, Clock]:
    """The shipped Wool Bluff arena with four players seated and the match started."""
    arena = load_arena(CONFIG_DIR / "arenas" / "wool_bluff.yaml")
    arena = dataclasses.replace(arena, locale=lang, settings={**arena.settings, "dispensing": "booth"})
    clock = Clock()
    table = Table(arena, Journal(tmp / name), clock, seed=3, start_delay=0.0, hold=1.0, reveal_hold=0.0)
    for booth, player in enumerate(NAMES):
        table.join(booth, player)
    table.tick()
    assert table.state is not None
    return table, clock


def chance(table: Table, action: Any) -> None:
    assert table.submit(CHANCE, action), action
