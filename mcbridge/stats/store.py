"""The stats store: one interface, SQLite or PostgreSQL behind it, the same schema and SQL.

`open_store(url)` takes `sqlite:///path` (or a plain path) and `postgresql://...`.
Recording a match is one transaction: the match, its seats, and the rating update of its
game, so a rating never counts a match the store lacks, nor twice: a match already stored
under (journal id, match id) is skipped (the outbox may send it again after an outage).

[decided here] Concurrent writers: every record takes a per-game lock first (SQLite:
BEGIN IMMEDIATE, one writer at a time; PostgreSQL: pg_advisory_xact_lock on the game),
so two controllers rating the same game queue up instead of reading the same old rating
and overwriting each other; it never aborts, so there is no retry loop to get wrong, and
matches of different games still write in parallel on PostgreSQL. SERIALIZABLE would also
be correct but turns every conflict into an abort and a retry of the whole match.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mcbridge.stats.errors import StoreError
from mcbridge.stats.migrations import MIGRATIONS, SCHEMA_VERSION
from mcbridge.stats.ratings import Skill, rate
from mcbridge.stats.records import MatchRecord


@dataclass(frozen=True)
class BoardRow:
    rank: int
    player: str
    ordinal: float
    mu: float
    sigma: float
    matches: int
    wins: int


@dataclass(frozen=True)
class PlayerGame:
    game: str
    rank: int | None  # place on the game's board (people or bots, as the player is)
    ordinal: float
    matches: int
    wins: int


class Store(ABC):
    """Common SQL; a backend supplies the connection, placeholders and the lock."""

    placeholder = "?"
    pk = "INTEGER PRIMARY KEY"
    url = ""

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self._migrate()

    # -- backend hooks ----------------------------------------------------------------
    @abstractmethod
    def _write(self, game: str | None) -> AbstractContextManager[Any]:
        """A transaction holding the backend's write lock for `game` (None: the schema), as
        a cursor; committed on leaving, rolled back on an error."""

    def _sql(self, text: str) -> str:
        return text if self.placeholder == "?" else text.replace("?", self.placeholder)

    def _rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return list(self.conn.execute(self._sql(sql), params).fetchall())

    # -- schema -----------------------------------------------------------------------
    def schema_version(self) -> int:
        with self._write(None) as cur:
            return _version(cur)

    def _migrate(self) -> None:
        with self._write(None) as cur:
            have = _version(cur)  # read and raised in the one transaction that migrates
            if have > SCHEMA_VERSION:
                raise StoreError(
                    f"{self.url}: the stats schema is version {have}, newer than this mcbridge knows "
                    f"({SCHEMA_VERSION}): upgrade mcbridge on this controller, or give --db another store"
                )
            for version in range(have + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[version - 1].format(pk=self.pk).split(";"):
                    if statement.strip():
                        cur.execute(statement)
                cur.execute(self._sql("INSERT INTO schema_version (version) VALUES (?)"), (version,))

    # -- writing ----------------------------------------------------------------------
    def record(self, match: MatchRecord) -> bool:
        """Store a finished match and rate it; False when it was stored already."""
        q = self._sql
        with self._write(match.game) as cur:
            cur.execute(
                q("SELECT 1 FROM matches WHERE journal_id = ? AND match_id = ?"), (match.journal_id, match.match_id)
            )
            if cur.fetchone():
                return False
            cur.execute(
                q(
                    "INSERT INTO matches (journal_id, match_id, game, arena, started, finished, duration)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id"
                ),
                (match.journal_id, match.match_id, match.game, match.arena, match.started, match.finished,
                 match.duration),
            )
            pk = cur.fetchone()[0]
            cur.executemany(
                q(
                    "INSERT INTO results (match_pk, seat, player, is_bot, rank, score, detail)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)"
                ),
                [(pk, s.seat, s.player, s.is_bot, s.rank, s.score, _json(s.detail)) for s in match.seats],
            )
            for pool in (True, False):
                self._rate(cur, pk, match, [s for s in match.seats if s.is_bot == pool])
        return True

    def _rate(self, cur: Any, pk: int, match: MatchRecord, seats: list[Any]) -> None:
        q = self._sql
        before = []
        for s in seats:
            cur.execute(q("SELECT mu, sigma FROM ratings WHERE game = ? AND player = ?"), (match.game, s.player))
            row = cur.fetchone()
            before.append(Skill(row[0], row[1]) if row else Skill())
        after = rate([(skill, s.rank) for skill, s in zip(before, seats, strict=True)]) if len(seats) >= 2 else before
        for s, old, new in zip(seats, before, after, strict=True):
            win = 1 if s.rank == 1 else 0
            cur.execute(
                q(
                    "INSERT INTO ratings (game, player, is_bot, mu, sigma, ordinal, matches, wins)"
                    " VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT (game, player) DO UPDATE SET"
                    " mu = excluded.mu, sigma = excluded.sigma, ordinal = excluded.ordinal,"
                    " matches = ratings.matches + 1, wins = ratings.wins + excluded.wins"
                ),
                (match.game, s.player, s.is_bot, new.mu, new.sigma, new.ordinal, win),
            )
            cur.execute(
                q(
                    "INSERT INTO rating_history (match_pk, game, player, mu_before, sigma_before, mu, sigma)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)"
                ),
                (pk, match.game, s.player, old.mu, old.sigma, new.mu, new.sigma),
            )

    # -- reading ----------------------------------------------------------------------
    def top(self, game: str, limit: int = 10, bots: bool = False) -> list[BoardRow]:
        rows = self._rows(
            "SELECT player, ordinal, mu, sigma, matches, wins FROM ratings WHERE game = ? AND is_bot = ?"
            " ORDER BY ordinal DESC, player LIMIT ?",
            (game, bots, limit),
        )
        return [BoardRow(i + 1, *row) for i, row in enumerate(rows)]

    def player(self, name: str) -> list[PlayerGame]:
        """The player's standing in every game they played (their name exactly)."""
        out = []
        for game, ordinal, matches, wins, is_bot in self._rows(
            "SELECT game, ordinal, matches, wins, is_bot FROM ratings WHERE player = ? ORDER BY game", (name,)
        ):
            # two index range scans (ratings_board); an OR of both would scan the game's rows
            above = self._rows(
                "SELECT count(*) FROM ratings WHERE game = ? AND is_bot = ? AND ordinal > ?", (game, is_bot, ordinal)
            )[0][0]
            tied = self._rows(
                "SELECT count(*) FROM ratings WHERE game = ? AND is_bot = ? AND ordinal = ? AND player < ?",
                (game, is_bot, ordinal, name),
            )[0][0]
            out.append(PlayerGame(game, int(above) + int(tied) + 1, ordinal, matches, wins))
        return out

    def history(self, name: str, limit: int = 10) -> list[tuple[str, int, float, float]]:
        """The player's last rated matches: (game, match pk, ordinal before, ordinal after)."""
        rows = self._rows(
            "SELECT game, match_pk, mu_before - 3 * sigma_before, mu - 3 * sigma FROM rating_history"
            " WHERE player = ? ORDER BY match_pk DESC LIMIT ?",
            (name, limit),
        )
        return [(g, int(pk), float(b), float(a)) for g, pk, b, a in rows]

    def match_count(self) -> int:
        return int(self._rows("SELECT count(*) FROM matches")[0][0])

    def close(self) -> None:
        self.conn.close()


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)


class SqliteStore(Store):
    def __init__(self, path: str | Path) -> None:
        self.url = f"sqlite:///{path}"
        path = Path(path)
        if not path.parent.exists():
            raise StoreError(f"{self.url}: no directory {path.parent}: create it or give --db another path")
        try:
            conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False, timeout=30.0)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{self.url}: not a stats store ({exc}): give --db another file") from exc
        super().__init__(conn)

    @contextmanager
    def _write(self, game: str | None) -> Iterator[Any]:
        cur = self.conn.cursor()
        cur.execute("BEGIN IMMEDIATE")  # one writer at a time across processes
        try:
            yield cur
        except BaseException:
            cur.execute("ROLLBACK")
            raise
        cur.execute("COMMIT")


class PostgresStore(Store):
    placeholder = "%s"
    pk = "BIGSERIAL PRIMARY KEY"

    def __init__(self, url: str, connect_timeout: int = 5) -> None:
        import psycopg

        self.url = _redacted(url)
        try:
            conn = psycopg.connect(url, connect_timeout=connect_timeout, autocommit=True)
        except psycopg.OperationalError as exc:
            reason, retryable = _pg_reason(exc)
            raise StoreError(f"{self.url}: {reason}", retryable) from exc
        super().__init__(conn)

    @contextmanager
    def _write(self, game: str | None) -> Iterator[Any]:
        with self.conn.transaction(), self.conn.cursor() as cur:
            # one lock for the schema, one per game for ratings (see the module docstring)
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (_lock_key(game),))
            yield cur


def _lock_key(game: str | None) -> int:
    return zlib.crc32(f"mcbridge.stats:{game or ''}".encode()) - 2**31


def _redacted(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return parts._replace(netloc=netloc).geturl()


def _pg_reason(exc: Exception) -> tuple[str, bool]:
    """(one line with the fix, whether waiting may help) for a failed connection."""
    text = " ".join(str(exc).split())
    low = text.lower()
    if "authentication failed" in low or "no password supplied" in low:
        fix = "fix them in the URL (postgresql://USER:PASSWORD@HOST/DB)"
        return f"the server refused the user or password: {fix}", False
    if "does not exist" in low:
        return f"{text}: create it (createdb) or fix the URL", False
    if "invalid" in low or "missing" in low:
        return f"{text}: check the URL (postgresql://USER:PASSWORD@HOST:PORT/DB)", False
    return f"cannot reach the server ({text}): start PostgreSQL or fix host and port in the URL", True


def open_store(url: str) -> Store:
    """The store a `--db` URL names; StoreError (one line, with the fix) when it cannot be used."""
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg  # noqa: F401
        except ImportError as exc:
            raise StoreError("PostgreSQL needs psycopg: pip install 'psycopg[binary]'") from exc
        return PostgresStore(url)
    if url.startswith("sqlite:///"):
        return SqliteStore(url[len("sqlite:///"):])
    if "://" in url:
        scheme = url.split("://", 1)[0]
        raise StoreError(f"--db {url!r}: unknown store {scheme!r}: use sqlite:///PATH or postgresql://USER@HOST/DB")
    return SqliteStore(url)


def _version(cur: Any) -> int:
    """The store's schema version inside a write transaction (0: a new store)."""
    cur.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    cur.execute("SELECT max(version) FROM schema_version")
    row = cur.fetchone()
    return int(row[0]) if row and row[0] is not None else 0
