"""The demo's arena: the shipped Wool Bluff arena, English, hands in the booths."""

from __future__ import annotations

import dataclasses

from mcbridge import CONFIG_DIR
from mcbridge.tables.arena import Arena
from mcbridge.tables.config import load_arena


def demo_arena(turns: int = 2) -> Arena:
    arena = load_arena(CONFIG_DIR / "arenas" / "wool_bluff.yaml")
    return dataclasses.replace(arena, locale="en", options={**arena.options, "turns": turns},
                               settings={**arena.settings, "dispensing": "booth"})
