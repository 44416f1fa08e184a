"""Finished matches waiting for the store, in SQLite beside the journal.

A match goes in here first (one local commit, never a network wait) and leaves only
after the store has committed it; the store skips a (journal id, match id) it has, so a
crash between the store's commit and the delete here sends it again harmlessly.
The outbox also keeps the journal's id: a random UUID made once, so two controllers'
journals (each numbering matches from 1) never collide in a shared store.
"""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

from mcbridge.stats.records import MatchRecord

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pending (match_id INTEGER PRIMARY KEY, record TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sent (match_id INTEGER PRIMARY KEY);
"""


def outbox_path(journal: str | Path) -> Path:
    return Path(f"{journal}.stats-outbox")


class Outbox:
    def __init__(self, path: str | Path) -> None:
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30.0)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)
        self.db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('journal_id', ?)", (str(uuid.uuid4()),))
        self.journal_id: str = self.db.execute("SELECT value FROM meta WHERE key = 'journal_id'").fetchone()[0]

    def known(self, match_id: int) -> bool:
        """Queued or already sent (so a match is queued once, however often it is seen)."""
        return bool(
            self.db.execute(
                "SELECT 1 FROM pending WHERE match_id = ? UNION SELECT 1 FROM sent WHERE match_id = ?",
                (match_id, match_id),
            ).fetchone()
        )

    def put(self, record: MatchRecord) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO pending (match_id, record) VALUES (?, ?)", (record.match_id, record.to_json())
        )

    def pending(self) -> list[MatchRecord]:
        return [MatchRecord.from_json(t) for (t,) in self.db.execute("SELECT record FROM pending ORDER BY match_id")]

    def sent(self, match_id: int) -> None:
        self.db.execute("BEGIN")
        self.db.execute("DELETE FROM pending WHERE match_id = ?", (match_id,))
        self.db.execute("INSERT OR IGNORE INTO sent (match_id) VALUES (?)", (match_id,))
        self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()
