"""Pausing tables while a part they need is gone (the journal, the world) or an operator asks
(the web console), and resuming them with the time that was left.

One mechanism for every cause: a table is paused while any reason holds, so lifting one
reason (the operator's resume, the world answering again) leaves the table paused for the
others, and chat says why it still waits.

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
OPERATOR = "operator"
#: What chat says when a reason starts to hold, or still holds after another is lifted.
#: [decided here] None for the world: while it is gone nobody hears chat anyway.
NOTICES = {JOURNAL: "common.paused_journal", OPERATOR: "common.paused_operator", WORLD: None}


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

    def reasons(self, index: int) -> frozenset[str]:
        paused = self._paused.get(index)
        return frozenset(paused.reasons) if paused else frozenset()

    def since(self, index: int) -> float | None:
        """The table's clock when its pause began (what a view of its timers stands still at)."""
        paused = self._paused.get(index)
        return paused.since if paused else None

    def index(self, table: Table) -> int:
        return next(i for i, t in enumerate(self.tables) if t is table)

    def set(self, index: int, reason: str, on: bool) -> None:
        if reason not in NOTICES:
            raise ValueError(f"unknown pause reason {reason!r}; known: {', '.join(NOTICES)}")
        table = self.tables[index]
        paused = self._paused.get(index)
        if on:
            if paused is None:
                paused = self._paused[index] = _Paused(table.clock())
                table.paused = True
                log.warning("arena %s: paused (%s)", table.arena.name, reason)
            if reason not in paused.reasons:
                paused.reasons.add(reason)
                self._notice(index, reason)
            return
        if paused is None or reason not in paused.reasons:
            return
        paused.reasons.discard(reason)
        if paused.reasons:
            log.warning("arena %s: %s pause lifted, still paused (%s)",
                        table.arena.name, reason, ", ".join(sorted(paused.reasons)))
            for still in sorted(paused.reasons):
                self._notice(index, still)
            return
        del self._paused[index]
        _shift(table, table.clock() - paused.since)
        table.paused = False
        log.warning("arena %s: resumed after %.1f s", table.arena.name, table.clock() - paused.since)
        self.notices.setdefault(index, []).append(table.text.t("common.resumed"))

    def _notice(self, index: int, reason: str) -> None:
        key = NOTICES[reason]
        if key is not None:
            self.notices.setdefault(index, []).append(self.tables[index].text.t(key))

    def set_all(self, reason: str, on: bool) -> None:
        for index in range(len(self.tables)):
            self.set(index, reason, on)


def _shift(table: Table, seconds: float) -> None:
    """Move the table's clock-based deadlines on by `seconds`, and its kit's own timers."""
    table.deadlines = {seat: at + seconds for seat, at in table.deadlines.items()}
    table.last_join += seconds
    table.finished_at += seconds
    for occ in table.occupants:
        if occ is not None and occ.away_since is not None:
            occ.away_since += seconds
    table.kit.shift_timers(seconds)
