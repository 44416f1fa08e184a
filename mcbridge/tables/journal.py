"""The match journal: every applied action, chance included, in SQLite (WAL).

An action is appended after the rules accepted it and before its effects are drawn in
the world, so after a crash the world never shows something the journal lacks. Recovery
is: load the match row (with the options it was started with), replay its actions on a
fresh state, render (DESIGN.md §5). The journal keeps every match a table played.

It holds hidden information (the deals of running matches): the directory is created
0700 and the file 0600.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
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
    seed TEXT NOT NULL,
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
MATCH_COLUMNS = "id, arena, game, options, players, seed, started, finished, result"


@dataclass(frozen=True)
class JournalMatch:
    id: int
    arena: str
    game: str
    options: dict[str, Any]
    players: list[str]
    seed: int
    actions: list[tuple[int, dict[str, Any]]]
    started: float = 0.0
    finished: float | None = None
    result: dict[str, Any] | None = None
    times: tuple[float, ...] = ()  # wall-clock time of each action

    def rules_options(self) -> dict[str, Any]:
        """The options the match was started with, without the table's own `booths` and `bots`."""
        return {k: v for k, v in self.options.items() if k not in ("booths", "bots")}


def _seed_text(seed: int) -> str:
    # 128-bit seeds do not fit SQLite's integers; an "x" keeps the column from turning them into reals
    return f"x{seed:x}"


def _seed_value(stored: Any) -> int:
    return int(stored[1:], 16) if isinstance(stored, str) and stored.startswith("x") else int(stored)


def _private_file(path: Path) -> None:
    """Create the directory 0700 (when we create it) and the file 0600."""
    if not path.parent.exists():
        path.parent.mkdir(parents=True, mode=0o700)
    fd = os.open(path, os.O_CREAT | os.O_RDWR, 0o600)
    os.close(fd)
    os.chmod(path, 0o600)


class Journal:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            _private_file(Path(self.path))
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across process crashes
        self.db.executescript(SCHEMA)
        #: called with (match id, seq) once an action is committed (fault injection, stats)
        self.on_append: list[Callable[[int, int], None]] = []
        self._grouped: list[tuple[int, int]] | None = None  # appended in the open group

    @contextmanager
    def group(self) -> Iterator[None]:
        """One transaction for everything appended inside (the supervisor's cycle), committed
        before the cycle's effects are written to the world: a commit per cycle instead of
        one per action. It commits even when the cycle fails, so the journal always holds
        what the tables applied in memory."""
        if self._grouped is not None:  # nested (two tables, one journal): the outer one commits
            yield
            return
        self._grouped = []
        self.db.execute("BEGIN")
        try:
            yield
        finally:
            appended, self._grouped = self._grouped, None
            self.db.execute("COMMIT")
            for match_id, seq in appended:
                self._appended(match_id, seq)

    def _appended(self, match_id: int, seq: int) -> None:
        for hook in self.on_append:
            hook(match_id, seq)

    def start_match(self, arena: str, game: str, options: dict[str, Any], players: list[str], seed: int) -> int:
        cur = self.db.execute(
            "INSERT INTO matches (arena, game, options, players, seed, started) VALUES (?, ?, ?, ?, ?, ?)",
            (
                arena,
                game,
                json.dumps(options, sort_keys=True),
                json.dumps(players, ensure_ascii=False),
                _seed_text(seed),
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
        if self._grouped is not None:
            self._grouped.append((match_id, seq))
        else:
            self._appended(match_id, seq)

    def finish(self, match_id: int, result: dict[str, Any]) -> None:
        self.db.execute(
            "UPDATE matches SET finished = ?, result = ? WHERE id = ?",
            (time.time(), json.dumps(result, ensure_ascii=False), match_id),
        )

    def unfinished(self, arena: str) -> JournalMatch | None:
        """The arena's newest unfinished match (older ones were abandoned by a newer start)."""
        row = self.db.execute(
            f"SELECT {MATCH_COLUMNS} FROM matches WHERE arena = ? AND finished IS NULL ORDER BY id DESC LIMIT 1",
            (arena,),
        ).fetchone()
        return self._load(row) if row else None

    def count(self, arena: str, finished: bool = False) -> int:
        """How many matches the arena has started (this numbers the next match's seed), or finished."""
        where = " AND finished IS NOT NULL" if finished else ""
        return int(self.db.execute(f"SELECT count(*) FROM matches WHERE arena = ?{where}", (arena,)).fetchone()[0])

    def match(self, match_id: int) -> JournalMatch:
        row = self.db.execute(f"SELECT {MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise KeyError(match_id)
        return self._load(row)

    def matches(self) -> list[JournalMatch]:
        """Every match, oldest first, with its actions."""
        return [self._load(row) for row in self.db.execute(f"SELECT {MATCH_COLUMNS} FROM matches ORDER BY id")]

    def _load(self, row: tuple[Any, ...]) -> JournalMatch:
        rows = self.db.execute("SELECT seat, action, at FROM actions WHERE match_id = ? ORDER BY seq", (row[0],))
        actions, times = [], []
        for seat, text, at in rows:
            actions.append((seat, json.loads(text)))
            times.append(at)
        return JournalMatch(
            id=row[0],
            arena=row[1],
            game=row[2],
            options=json.loads(row[3]),
            players=json.loads(row[4]),
            seed=_seed_value(row[5]),
            actions=actions,
            started=row[6],
            finished=row[7],
            result=json.loads(row[8]) if row[8] else None,
            times=tuple(times),
        )

    def close(self) -> None:
        self.db.close()
