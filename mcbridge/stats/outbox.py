"""Finished matches waiting for the store, in SQLite beside the journal.

A match goes in here first (one local commit, never a network wait) and leaves only
after the store has committed it; the store skips a (journal id, match id) it has, so a
crash between the store's commit and the delete here sends it again harmlessly.
A journal's id in the store is this outbox's random UUID (made once) and the start time of
the journal's first match: two controllers' journals (each numbering matches from 1) never
collide in a shared store, and neither does a journal started afresh (`--journal-reset`)
beside the same outbox.
"""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path

from mcbridge.stats.records import MatchRecord

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pending (
    journal_id TEXT NOT NULL, match_id INTEGER NOT NULL, record TEXT NOT NULL, PRIMARY KEY (journal_id, match_id)
);
CREATE TABLE IF NOT EXISTS sent (
    journal_id TEXT NOT NULL, match_id INTEGER NOT NULL, PRIMARY KEY (journal_id, match_id)
);
"""


def outbox_path(journal: str | Path) -> Path:
    return Path(f"{journal}.stats-outbox")


class Outbox:
    def __init__(self, path: str | Path) -> None:
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30.0)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.executescript(SCHEMA)
        self.db.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('uuid', ?)", (str(uuid.uuid4()),))
        self.uuid: str = self.db.execute("SELECT value FROM meta WHERE key = 'uuid'").fetchone()[0]

    def journal_id(self, first_started: float) -> str:
        """The store's id of the journal whose first match started at `first_started`."""
        return f"{self.uuid}/{first_started!r}"

    def known(self, journal_id: str, match_id: int) -> bool:
        """Queued or already sent (so a match is queued once, however often it is seen)."""
        key = (journal_id, match_id)
        return bool(
            self.db.execute(
                "SELECT 1 FROM pending WHERE journal_id = ? AND match_id = ?"
                " UNION SELECT 1 FROM sent WHERE journal_id = ? AND match_id = ?",
                key + key,
            ).fetchone()
        )

    def put(self, record: MatchRecord) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO pending (journal_id, match_id, record) VALUES (?, ?, ?)",
            (record.journal_id, record.match_id, record.to_json()),
        )

    def pending(self) -> list[MatchRecord]:
        rows = self.db.execute("SELECT record FROM pending ORDER BY rowid")
        return [MatchRecord.from_json(t) for (t,) in rows]

    def sent(self, record: MatchRecord) -> None:
        key = (record.journal_id, record.match_id)
        self.db.execute("BEGIN")
        self.db.execute("DELETE FROM pending WHERE journal_id = ? AND match_id = ?", key)
        self.db.execute("INSERT OR IGNORE INTO sent (journal_id, match_id) VALUES (?, ?)", key)
        self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()
