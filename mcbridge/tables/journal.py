"""The match journal: every applied action, chance included, in SQLite (WAL).

An action is appended after the rules accepted it and before its effects are drawn in
the world, so after a crash the world never shows something the journal lacks. Recovery
is: load the match row, replay its actions on a fresh state, render (DESIGN.md §5).
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    arena TEXT NOT NULL,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    players TEXT NOT NULL,
    seed INTEGER NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS actions (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seq INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (match_id, seq)
);
"""


@dataclass(frozen=True)
class JournalMatch:
    id: int
    arena: str
    game: str
    options: dict[str, Any]
    players: list[str]
    seed: int
    actions: list[tuple[int, dict[str, Any]]]


class Journal:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across process crashes
        self.db.executescript(SCHEMA)

    def start_match(self, arena: str, game: str, options: dict[str, Any], players: list[str], seed: int) -> int:
        cur = self.db.execute(
            "INSERT INTO matches (arena, game, options, players, seed, started) VALUES (?, ?, ?, ?, ?, ?)",
            (
                arena,
                game,
                json.dumps(options, sort_keys=True),
                json.dumps(players, ensure_ascii=False),
                seed,
                time.time(),
            ),
        )
        assert cur.lastrowid is not None
        return cur.lastrowid

    def append(self, match_id: int, seq: int, seat: int, action: dict[str, Any]) -> None:
        self.db.execute(
            "INSERT INTO actions (match_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
            (match_id, seq, seat, json.dumps(action, ensure_ascii=False), time.time()),
        )

    def finish(self, match_id: int, result: dict[str, Any]) -> None:
        self.db.execute(
            "UPDATE matches SET finished = ?, result = ? WHERE id = ?",
            (time.time(), json.dumps(result, ensure_ascii=False), match_id),
        )

    def unfinished(self, arena: str) -> JournalMatch | None:
        row = self.db.execute(
            "SELECT id, arena, game, options, players, seed FROM matches "
            "WHERE arena = ? AND finished IS NULL ORDER BY id DESC LIMIT 1",
            (arena,),
        ).fetchone()
        return self._load(row) if row else None

    def match(self, match_id: int) -> JournalMatch:
        row = self.db.execute(
            "SELECT id, arena, game, options, players, seed FROM matches WHERE id = ?", (match_id,)
        ).fetchone()
        if row is None:
            raise KeyError(match_id)
        return self._load(row)

    def _load(self, row: tuple[Any, ...]) -> JournalMatch:
        actions = [
            (seat, json.loads(text))
            for seat, text in self.db.execute(
                "SELECT seat, action FROM actions WHERE match_id = ? ORDER BY seq", (row[0],)
            )
        ]
        return JournalMatch(row[0], row[1], row[2], json.loads(row[3]), json.loads(row[4]), row[5], actions)

    def close(self) -> None:
        self.db.close()
