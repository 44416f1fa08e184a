"""`!stats` and the leaderboard wall between a table and the recorder thread, without store
I/O on the table's thread.

The table only queues a request (`ask`) and, each tick, hands the ready answers to its private
tell path (`answers`). The recorder thread answers from the store (`serve`). Both queues are
bounded: a flood of `!stats` drops the oldest requests, never memory or the tick.
"""

from __future__ import annotations

import threading
from collections import deque

from mcbridge.i18n import Locale
from mcbridge.stats.leaderboard import board_signs, is_stats_request, stats_lines
from mcbridge.stats.store import Store
from mcbridge.tables.arena import LeaderboardWall
from mcbridge.tables.kit import Scene
from mcbridge.tables.layout import wall_sign

#: [decided here] at most this many requests wait; one per player (a repeat is merged)
MAX_WAITING = 64


class StatsDesk:
    def __init__(self, text: Locale, wall: LeaderboardWall | None = None) -> None:
        self.text = text
        self.wall = wall
        #: the wall's sign lines as last read from the store (the table draws them; () = none yet)
        self.board: tuple[tuple[str, ...], ...] = ()
        self._lock = threading.Lock()
        self._waiting: deque[tuple[str, Locale]] = deque(maxlen=MAX_WAITING)
        self._ready: deque[tuple[str, list[str]]] = deque(maxlen=MAX_WAITING)

    def ask(self, name: str, text: Locale | None = None) -> None:
        """Table thread: `name` wants their stats, in `text` (cheap, never blocks on the store)."""
        with self._lock:
            if all(name != waiting for waiting, _ in self._waiting):
                self._waiting.append((name, text or self.text))

    def ask_if_stats(self, name: str, message: str, text: Locale | None = None) -> bool:
        """Table thread: queue `name`'s request if `message` is `!stats`/`!成績`; whether it was."""
        if not is_stats_request(message):
            return False
        self.ask(name, text)
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
        for name, text in names:
            if store is None:
                lines = [text.t("stats.unavailable")]
            else:
                try:
                    lines = stats_lines(text, name, store.player(name))
                except Exception:
                    lines = [text.t("stats.unavailable")]
            with self._lock:
                self._ready.append((name, lines))
        return len(names)

    def refresh_board(self, store: Store) -> None:
        """Recorder thread, after a successful send: read the ranking the wall shows."""
        if self.wall is None:
            return
        title = self.text.t("stats.board_title", game=self.text.t(f"{self.wall.game}.name"))
        rows = store.top(self.wall.game, self.wall.size)
        self.board = tuple(board_signs(title, rows, len(self.wall.signs)))  # one assignment: atomic

    def wall_part(self) -> Scene:
        """The wall as a scene part (table thread): the signs with the lines last read."""
        assert self.wall is not None
        signs = self.wall.signs
        lines = {s.at: (b[0], b[1], b[2], b[3]) for s, b in zip(signs, self.board, strict=True)}
        return Scene({s.at: wall_sign(s.faces) for s in signs}, lines)
