"""The games that have a table kit, and where each kit and its arena part live.

Adding a game to the world: write `kits/<game>_arena.py` (its `PART`, see
`mcbridge.tables.arena.ArenaPart`) and `kits/<game>.py` (its `KIT` class, see
`mcbridge.tables.kit`), then list the game here. Arena parts load without the runtime.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from mcbridge.tables.arena import ArenaPart

if TYPE_CHECKING:
    from mcbridge.tables.kit import Kit

#: game name -> module holding its kit (`KIT`) and its arena part (`<module>_arena.PART`)
KITS = {"wool_bluff": "mcbridge.tables.kits.wool_bluff"}
KITS["dice_bluff"] = "mcbridge.tables.kits.dice_bluff"
KITS["briscola_bugiarda"] = "mcbridge.tables.kits.briscola_bugiarda"
KITS["bribery"] = "mcbridge.tables.kits.bribery"
KITS["braff"] = "mcbridge.tables.kits.braff"


def games_with_kits() -> list[str]:
    return list(KITS)


def arena_part(game: str) -> ArenaPart:
    part: ArenaPart = importlib.import_module(KITS[game] + "_arena").PART
    return part


def kit_class(game: str) -> type[Kit]:
    kit: type[Kit] = importlib.import_module(KITS[game]).KIT
    return kit
