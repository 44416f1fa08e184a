"""Structured output: one `TableUpdate` per applied action, for any number of subscribers.

Chat is one subscriber (the table's own, inline: it only formats lines into the outbox);
the web view and stats are others. Outside subscribers never run on the table's thread:
each gets a bounded queue it drains at its own pace, and a subscriber that falls behind
loses its oldest updates (counted in `dropped`), never the table's time.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from mcbridge.core import Event

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TableUpdate:
    """After action `seq` of match `match` at table `table`: its events and the public view."""

    table: str
    match: int
    seq: int
    seat: int
    events: tuple[Event, ...]
    public: Mapping[str, Any]


class Subscription:
    """A bounded queue of updates for one outside subscriber."""

    def __init__(self, limit: int) -> None:
        self._queue: deque[TableUpdate] = deque(maxlen=limit)
        self._lock = threading.Lock()
        self.dropped = 0

    def put(self, update: TableUpdate) -> None:
        with self._lock:
            if len(self._queue) == self._queue.maxlen:
                self.dropped += 1
            self._queue.append(update)

    def drain(self) -> list[TableUpdate]:
        """Every update since the last drain, oldest first (safe from any thread)."""
        with self._lock:
            out = list(self._queue)
            self._queue.clear()
        return out


class UpdateFeed:
    def __init__(self) -> None:
        self._inline: list[Callable[[TableUpdate], None]] = []
        self._queued: list[Subscription] = []

    def subscribe(self, limit: int = 1000) -> Subscription:
        """An outside subscriber: pull updates with `drain()`."""
        sub = Subscription(limit)
        self._queued.append(sub)
        return sub

    def subscribe_inline(self, callback: Callable[[TableUpdate], None]) -> None:
        """The table's own cheap subscribers (chat); a failure is logged, never raised."""
        self._inline.append(callback)

    def publish(self, update: TableUpdate) -> None:
        for callback in self._inline:
            try:
                callback(update)
            except Exception:
                log.exception("table %s: an update subscriber failed", update.table)
        for sub in self._queued:
            sub.put(update)
