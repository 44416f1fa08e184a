"""`!stats` between a table and the recorder thread, without store I/O on the table's thread.

The table only queues a request (`ask`) and, each tick, hands the ready answers to its private
tell path (`answers`). The recorder thread answers from the store (`serve`). Both queues are
bounded: a flood of `!stats` drops the oldest requests, never memory or the tick.
"""

from __future__ import annotations

import threading
from collections import deque

from mcbridge.i18n import Locale
from mcbridge.stats.leaderboard import is_stats_request, stats_lines
from mcbridge.stats.store import Store

#: [decided here] at most this many requests wait; one per player (a repeat is merged)
MAX_WAITING = 64


class StatsDesk:
    def __init__(self, text: Locale) -> None:
        self.text = text
        self._lock = threading.Lock()
        self._waiting: deque[str] = deque(maxlen=MAX_WAITING)
        self._ready: deque[tuple[str, list[str]]] = deque(maxlen=MAX_WAITING)

    def ask(self, name: str) -> None:
        """Table thread: `name` wants their stats (cheap, never blocks on the store)."""
        with self._lock:
            if name not in self._waiting:
                self._waiting.append(name)

    def ask_if_stats(self, name: str, message: str) -> bool:
        """Table thread: queue `name`'s request if `message` is `!stats`/`!成績`; whether it was."""
        if not is_stats_request(message):
            return False
        self.ask(name)
        return True

    def answers(self) -> list[tuple[str, list[str]]]:
        """Table thread: the answers ready since the last call, (player, lines)."""
        with self._lock:
            ready = list(self._ready)
            self._ready.clear()
        return ready

    def waiting(self) -> int:
        with self._lock:
            return len(self._waiting)

    def serve(self, store: Store | None) -> int:
        """Recorder thread: answer every waiting request; None (store away) says so. Returns count."""
        with self._lock:
            names = list(self._waiting)
            self._waiting.clear()
        for name in names:
            if store is None:
                lines = [self.text.t("stats.unavailable")]
            else:
                try:
                    lines = stats_lines(self.text, name, store.player(name))
                except Exception:
                    lines = [self.text.t("stats.unavailable")]
            with self._lock:
                self._ready.append((name, lines))
        return len(names)
