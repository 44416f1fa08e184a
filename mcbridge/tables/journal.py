"""The match journal: every applied action, chance included, in SQLite (WAL).

An action is appended after the rules accepted it and before its effects are drawn in
the world, so after a crash the world never shows something the journal lacks. Recovery
is: load the match row (with the options it was started with), replay its actions on a
fresh state, render (DESIGN.md §5). The journal keeps every match a table played.

It holds hidden information (the deals of running matches): the directory is created
0700 and the file 0600.

Faults while running (issue 15) [decided here]: every write is queued and committed at the
end of the supervisor's cycle (`group`). A commit that fails (disk full, I/O error) is rolled
back and kept queued; the journal reports `trouble` and retries on every `ready()` until it
goes through, so nothing applied is lost. The file's (device, inode) is checked on every
`ready()`: a journal deleted while running is restored at once from the still-open
connection (never writing on into an unlinked file); one replaced by another file is left
alone and reported until it is moved away.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from operator import attrgetter
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

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


#: Commit failures that pass (the disk fills, an I/O error): retried, never fatal.
WRITE_ERRORS = (sqlite3.OperationalError, OSError)


def _identity(path: str) -> tuple[int, int] | None:
    """The file's (device, inode), or None when nothing is at the path."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_dev, st.st_ino


@dataclass(frozen=True)
class _Write:
    sql: str
    params: tuple[Any, ...]
    appended: tuple[int, int] | None = None  # (match id, seq) of an action, for `on_append`
    arena: str | None = None  # of a match start, so `count` sees it before it is committed


#: tries to open a journal another process is switching to WAL (about 5 s in all)
OPEN_ATTEMPTS = 14


class Journal:
    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.db = self._open()
        self._identity = _identity(self.path) if self.path != ":memory:" else None
        #: called with (match id, seq) once an action is committed (fault injection, stats)
        self.on_append: list[Callable[[int, int], None]] = []
        self._grouped = False
        self._queue: list[_Write] = []  # written but not yet committed (a failed commit stays here)
        self._file_trouble: str | None = None  # the file at the path is not ours
        self._write_trouble: str | None = None  # the last commit failed

    @property
    def trouble(self) -> str | None:
        """Why the journal cannot take writes now (None: healthy); the tables pause meanwhile."""
        return self._file_trouble or self._write_trouble

    def _open(self) -> sqlite3.Connection:
        """Connect, in WAL mode, with the schema. Two processes opening a new file at once
        (a controller starting while a reader, a bench's players or the web view, opens it)
        can see "database is locked" while the other switches the file to WAL: SQLite
        returns that at once, without its busy wait, so the open is retried a few times."""
        if self.path != ":memory:":
            _private_file(Path(self.path))
        for attempt in range(OPEN_ATTEMPTS):
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across process crashes
                db.executescript(SCHEMA)
                return db
            except sqlite3.OperationalError as error:
                db.close()
                if "locked" not in str(error) or attempt == OPEN_ATTEMPTS - 1:
                    raise
                time.sleep(0.05 * (attempt + 1))
        raise AssertionError("unreachable")

    # -- faults while running ---------------------------------------------------------------
    def ready(self) -> bool:
        """Check the file is still ours and retry a failed commit; True when writes go through.
        One `stat` per call: cheap enough for every cycle."""
        if self._identity is not None:
            now = _identity(self.path)
            if now is None:
                self._restore()
            elif now != self._identity:
                reason = (
                    f"journal {self.path} was replaced by another file; move that file away "
                    "and the table restores its journal there and goes on"
                )
                if reason != self._file_trouble:
                    log.error("%s; the tables are paused", reason)
                self._file_trouble = reason
                return False
            self._file_trouble = None
        if self._queue and not self._grouped:
            self._flush()
        return self.trouble is None

    def _restore(self) -> None:
        """The file was deleted under us: copy the open database (its pages are still
        readable through our descriptors) to a new file at the same path, and go on there."""
        copy = sqlite3.connect(":memory:")
        self.db.backup(copy)
        self.db.close()  # drops the old WAL by name before the new file needs that name
        self.db = self._open()
        copy.backup(self.db)
        copy.close()
        self._identity = _identity(self.path)
        log.error("journal %s was deleted while running; restored it from the open copy", self.path)

    def _flush(self) -> None:
        """Commit the queue in one transaction; on failure roll back and keep it queued."""
        queue = self._queue
        if not queue:
            return
        try:
            self.db.execute("BEGIN")
            # a run of writes of one kind (a cycle's actions, mostly) in one call: the same rows in
            # the same order and transaction, without a Python round per row
            for sql, run in itertools.groupby(queue, key=attrgetter("sql")):
                self.db.executemany(sql, [write.params for write in run])
            self.db.execute("COMMIT")
        except WRITE_ERRORS as exc:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            reason = f"journal {self.path} cannot be written ({exc}); retrying every cycle"
            if reason != self._write_trouble:
                log.error("%s; the tables are paused", reason)
            self._write_trouble = reason
            return
        self._queue = []
        if self._write_trouble is not None:
            log.warning("journal %s is writable again: %d queued writes committed", self.path, len(queue))
            self._write_trouble = None
        for write in queue:
            if write.appended is not None:
                self._appended(*write.appended)

    def _write(self, write: _Write) -> None:
        self._queue.append(write)
        if not self._grouped:
            self._flush()

    @contextmanager
    def group(self) -> Iterator[None]:
        """One transaction for everything appended inside (the supervisor's cycle), committed
        before the cycle's effects are written to the world: a commit per cycle instead of
        one per action. It commits even when the cycle fails, so the journal always holds
        what the tables applied in memory."""
        if self._grouped:  # nested (two tables, one journal): the outer one commits
            yield
            return
        self._grouped = True
        try:
            yield
        finally:
            self._grouped = False
            self._flush()

    def _appended(self, match_id: int, seq: int) -> None:
        for hook in self.on_append:
            hook(match_id, seq)

    def start_match(self, arena: str, game: str, options: dict[str, Any], players: list[str], seed: int) -> int:
        stored = self.db.execute("SELECT coalesce(max(id), 0) FROM matches").fetchone()[0]
        match_id = max([stored, *(int(w.params[0]) for w in self._queue if w.arena is not None)]) + 1
        self._write(_Write(
            "INSERT INTO matches (id, arena, game, options, players, seed, started) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                match_id,
                arena,
                game,
                json.dumps(options, sort_keys=True),
                json.dumps(players, ensure_ascii=False),
                _seed_text(seed),
                time.time(),
            ),
            arena=arena,
        ))
        return match_id

    def append(self, match_id: int, seq: int, seat: int, action: dict[str, Any]) -> None:
        self._write(_Write(
            "INSERT INTO actions (match_id, seq, seat, action, at) VALUES (?, ?, ?, ?, ?)",
            (match_id, seq, seat, json.dumps(action, ensure_ascii=False), time.time()),
            appended=(match_id, seq),
        ))

    def finish(self, match_id: int, result: dict[str, Any]) -> None:
        self._write(_Write(
            "UPDATE matches SET finished = ?, result = ? WHERE id = ?",
            (time.time(), json.dumps(result, ensure_ascii=False), match_id),
        ))

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
        stored = int(self.db.execute(f"SELECT count(*) FROM matches WHERE arena = ?{where}", (arena,)).fetchone()[0])
        return stored + (0 if finished else sum(1 for w in self._queue if w.arena == arena))

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
