"""Pausing tables while a part they need is gone (the journal, the world), and resuming them
with the time that was left.

A paused table takes no input, does not tick (no chance, no timeouts) and writes nothing to
the world: its outbox and scene wait, so the world never shows an action the journal could
not commit. On resume every clock-based deadline moves on by the length of the pause, so an
outage never counts against a player's turn, their absence or the lobby countdown
(issue 15) [decided here].
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from mcbridge.tables.table import Table

log = logging.getLogger(__name__)

JOURNAL = "journal"
WORLD = "world"


@dataclass
class _Paused:
    since: float
    reasons: set[str] = field(default_factory=set)


class Pauses:
    """Why each table is paused, and what to tell its players when the world hears again."""

    def __init__(self, tables: list[Table]) -> None:
        self.tables = tables
        self._paused: dict[int, _Paused] = {}
        #: chat lines per table index, sent ahead of its (held) outbox with the next write
        self.notices: dict[int, list[str]] = {}

    def is_paused(self, index: int) -> bool:
        return index in self._paused

    def set(self, index: int, reason: str, on: bool) -> None:
        table = self.tables[index]
        paused = self._paused.get(index)
        if on:
            if paused is None:
                paused = self._paused[index] = _Paused(table.clock())
                table.paused = True
                log.warning("arena %s: paused (%s)", table.arena.name, reason)
            if reason not in paused.reasons:
                paused.reasons.add(reason)
                if reason == JOURNAL:
                    self.notices.setdefault(index, []).append(table.text.t("common.paused_journal"))
            return
        if paused is None or reason not in paused.reasons:
            return
        paused.reasons.discard(reason)
        if paused.reasons:
            return
        del self._paused[index]
        _shift(table, table.clock() - paused.since)
        table.paused = False
        log.warning("arena %s: resumed after %.1f s", table.arena.name, table.clock() - paused.since)
        self.notices.setdefault(index, []).append(table.text.t("common.resumed"))

    def set_all(self, reason: str, on: bool) -> None:
        for index in range(len(self.tables)):
            self.set(index, reason, on)


def _shift(table: Table, seconds: float) -> None:
    """Move the table's clock-based deadlines on by `seconds` (a kit's short display holds,
    a few seconds long, are left to expire: they only delay the next chance action)."""
    table.deadlines = {seat: at + seconds for seat, at in table.deadlines.items()}
    table.last_join += seconds
    table.finished_at += seconds
    for occ in table.occupants:
        if occ is not None and occ.away_since is not None:
            occ.away_since += seconds
