"""What a spectator may see of a table, as JSON: built on the table's thread, public only.

Everything here comes from the rules' public view (`state.view(None)`), the booths'
occupants, the table's timers and the chat lines the table itself says in public (events
its kit keeps quiet stay out, exactly as in chat). Nothing reads a hand, the journal's
seed or a booth's insides, so a spectator learns what a player standing in the arena
learns and no more; `tests/web/test_public_only.py` holds that to account.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping
from typing import Any

from mcbridge.i18n import LANGUAGES, Locale, locale
from mcbridge.tables import rules_view
from mcbridge.tables.layout import arena_layout
from mcbridge.tables.table import Table
from mcbridge.tables.updates import Subscription, TableUpdate
from mcbridge.world.blocks import Block

#: Log lines kept per table for a spectator who arrives late.
LOG_KEEP = 200
#: Updates a table may publish between two web cycles before the oldest are dropped.
FEED_LIMIT = 1000
WOOL_ID, TORCH_IDS, SIGN_IDS, GLASS_IDS = 35, (75, 76, 50), (63, 68), (20, 95, 102, 160)
WOOL_COLOURS = {14: "red", 11: "blue", 4: "yellow", 5: "green", 13: "green", 15: "black", 0: "white"}
#: The live regions a spectator sees from outside the booths: torches and revealed walls.
PUBLIC_REGIONS = ("torch_wall", "wool_wall")


def cell_kind(block: Block) -> str | None:
    """How a map cell is drawn; None for air (the floor shows through)."""
    if block.id == 0:
        return None
    if block.id == WOOL_ID:
        return "wool-" + WOOL_COLOURS.get(block.data, "white")
    if block.id in TORCH_IDS:
        return "torch"
    if block.id in SIGN_IDS:
        return "sign"
    if block.id in GLASS_IDS:
        return "glass"
    return "wall"


class TableWatch:
    """One table seen from the stands. Call `snapshot` on the table's thread only."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.feed: Subscription = table.updates.subscribe(FEED_LIMIT)
        self.texts: dict[str, Locale] = {lang: locale(lang) for lang in LANGUAGES}
        self.log: deque[dict[str, Any]] = deque(maxlen=LOG_KEEP)
        arena = table.arena
        self.origin = (arena.bounds.lo.x, arena.bounds.lo.z)
        self.size = (arena.bounds.hi.x - arena.bounds.lo.x + 1, arena.bounds.hi.z - arena.bounds.lo.z + 1)
        self._static = self._static_map()
        self._public_cells = [p for seat in arena.seats for name in PUBLIC_REGIONS
                              if name in seat.regions for p in seat.regions[name].cells]

    # -- the map ------------------------------------------------------------------------
    def _static_map(self) -> dict[tuple[int, int], str]:
        """Top-down at head height and below: what stands on the floor (walls, signs, board)."""
        feet = self.table.arena.bounds.lo.y + 1
        cells: dict[tuple[int, int], tuple[int, str]] = {}
        for p, block in arena_layout(self.table.arena).blocks.items():
            kind = cell_kind(block)
            if kind is None or p.y < feet or p.y > feet + 2:
                continue
            if (p.x, p.z) not in cells or p.y > cells[(p.x, p.z)][0]:
                cells[(p.x, p.z)] = (p.y, kind)
        return {xz: kind for xz, (_, kind) in cells.items()}

    def map_cells(self) -> list[list[Any]]:
        """[[x, z, kind], ...] relative to the arena's corner: the structure, then the live
        torch and wool walls (the cells anyone outside a booth can see)."""
        cells = dict(self._static)
        scene = self.table.scene().blocks
        for p in self._public_cells:
            block = scene.get(p)
            kind = cell_kind(block) if block is not None else None
            if kind is not None:
                cells[(p.x, p.z)] = kind
        ox, oz = self.origin
        return [[x - ox, z - oz, kind] for (x, z), kind in sorted(cells.items())]

    # -- the state ------------------------------------------------------------------------
    def take_updates(self) -> list[dict[str, Any]]:
        """New public log lines since the last call, in every language."""
        fresh = []
        for update in self.feed.drain():
            fresh.extend(self._lines(update))
        self.log.extend(fresh)
        return fresh

    def _lines(self, update: TableUpdate) -> list[dict[str, Any]]:
        table = self.table
        players = list(update.public.get("players", []))
        numbers = [b + 1 for b in table.booths] if table.match_id == update.match else None
        out = []
        for event in update.events:
            if isinstance(event, table.kit.quiet_events):
                continue
            text = {lang: tx.event(table.game.name, event, players, numbers) for lang, tx in self.texts.items()}
            out.append({"match": update.match, "seq": update.seq, "text": text})
        return out

    def state(self, now: float) -> dict[str, Any]:
        """The table's public state (JSON-able), the same for every spectator."""
        table = self.table
        state = table.state
        booths = []
        for booth, occ in enumerate(table.occupants):
            seat = table.rules_seat(booth)
            booths.append({"booth": booth + 1, "player": occ.name if occ else None,
                           "present": bool(occ and occ.present), "seat": seat})
        to_act = sorted(state.to_act()) if state is not None and not state.is_over else []
        time_left: dict[str, int | None] = {}
        for seat in to_act:
            if seat >= 0:
                deadline = table.deadlines.get(seat, math.inf)
                left = None if math.isinf(deadline) else max(0, math.ceil(deadline - now))
                time_left[str(table.booth_of(seat) + 1)] = left
        return {
            "table": table.arena.name,
            "game": table.game.name,
            "match": table.match_id,
            "seq": table.seq,
            "booths": booths,
            "to_act": [table.booth_of(s) + 1 if s >= 0 else 0 for s in to_act],
            "time_left": time_left,
            "public": plain_json(state.view(None)) if state is not None else None,
            "countdown": table.lobby_countdown(now),
            "holding": table.finished,
            "standings": rules_view.standings(state) if state is not None and state.is_over else None,
        }

    def map_message(self) -> dict[str, Any]:
        return {"type": "map", "table": self.table.arena.name, "size": list(self.size), "cells": self.map_cells()}


def plain_json(data: Mapping[str, Any]) -> dict[str, Any]:
    """The public view with tuples as lists and keys as text, as JSON will show it."""
    def plain(value: Any) -> Any:
        if isinstance(value, Mapping):
            return {str(k): plain(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [plain(v) for v in value]
        return value

    return plain(data)
