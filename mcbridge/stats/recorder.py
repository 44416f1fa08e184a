"""The TableUpdate subscriber that records finished matches, off the table's thread.

It drains the table's bounded subscription, notes the matches the updates belong to, and
once the journal marks one finished (the table writes the result a tick after the last
action) builds its record from the journal row (players, seats, ranks, scores, times) and
queues it in the outbox. Then it sends the outbox to the store. A store that is down
(or slow) only delays the sending: the table never waits, nothing queued is lost, and
the next attempt comes after a back-off.

The journal is read through its own connection (SQLite WAL: readers never block the
table's writer). A dropped update (subscriber far behind) loses nothing either: any
update of a match is enough to watch it, and `watch()` can be called directly.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Collection
from pathlib import Path

from mcbridge.stats.errors import StoreError
from mcbridge.stats.outbox import Outbox, outbox_path
from mcbridge.stats.records import MatchRecord, seat_results
from mcbridge.stats.store import Store
from mcbridge.stats.table_hooks import StatsDesk
from mcbridge.tables.journal import Journal
from mcbridge.tables.table import Table
from mcbridge.tables.updates import Subscription

log = logging.getLogger(__name__)


class Recorder:
    def __init__(
        self,
        journal_path: str | Path,
        store: Callable[[], Store],
        *,
        bots: Collection[str] = (),
        retry: float = 2.0,
    ) -> None:
        self.journal = Journal(journal_path)
        self.outbox = Outbox(outbox_path(journal_path))
        self._connect = store
        self._store: Store | None = None
        self.bots = frozenset(bots)
        self.retry = retry
        self._watching: set[int] = set()
        self._subs: list[Subscription] = []
        self._desks: list[StatsDesk] = []
        self._boards_read = False  # the walls show the store's ranking once before any send
        self._next_try = 0.0
        self.last_error: str | None = None
        self.sent = 0  # matches this recorder has written to the store
        self.left = 0  # still queued when it stopped
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        # [decided here] catch up: finished matches the outbox never saw (stats enabled on an
        # old journal, or a kill between the finish and the queueing) are recorded too
        for (match_id,) in self.journal.db.execute("SELECT id FROM matches WHERE finished IS NOT NULL"):
            self._watching.add(match_id)

    def follow(self, sub: Subscription) -> None:
        self._subs.append(sub)

    def serve(self, table: Table) -> StatsDesk:
        """Answer the table's `!stats` requests from the store, on this recorder's thread."""
        desk = StatsDesk(table.text, table.arena.leaderboard)
        self._desks.append(desk)
        table.stats_desk = desk
        return desk

    def watch(self, match_id: int) -> None:
        self._watching.add(match_id)

    def step(self) -> int:
        """One round: drain, queue finished matches, send; returns how many were sent."""
        for sub in self._subs:
            for update in sub.drain():
                self._watching.add(update.match)
        first = self.journal.db.execute("SELECT started FROM matches ORDER BY id LIMIT 1").fetchone()
        journal_id = self.outbox.journal_id(first[0]) if first else ""
        for match_id in sorted(self._watching):
            row = self.journal.db.execute("SELECT finished FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None or self.outbox.known(journal_id, match_id):
                self._watching.discard(match_id)  # gone (another journal) or queued already
                continue
            if row[0] is None:
                continue  # still playing: the table writes the result a tick after the last action
            match = self.journal.match(match_id)
            if match.finished is None or match.result is None:
                continue
            self.outbox.put(
                MatchRecord(
                    journal_id=journal_id,
                    match_id=match.id,
                    game=match.game,
                    arena=match.arena,
                    started=match.started,
                    finished=match.finished,
                    seats=seat_results(
                        list(match.result.get("standings", [])), self.bots, match.result.get("score_name")
                    ),
                )
            )
            self._watching.discard(match_id)
        sent = self.flush()
        self._answer()
        return sent

    def _answer(self) -> None:
        """Answer waiting `!stats`; a store that is away (or backing off) gets a polite refusal."""
        if not any(desk.waiting() for desk in self._desks):
            return
        store = self._store
        if store is None and time.monotonic() >= self._next_try:
            try:
                store = self._store = self._connect()
            except Exception as exc:
                self.last_error = " ".join(str(exc).split()) or type(exc).__name__
                self._next_try = time.monotonic() + self.retry
        for desk in self._desks:
            desk.serve(store)

    def flush(self, force: bool = False) -> int:
        """Send what the outbox holds; a failure keeps it queued and backs off."""
        pending = self.outbox.pending()
        if (not pending and (self._boards_read or not self._desks)) or (
            not force and time.monotonic() < self._next_try
        ):
            return 0
        sent = 0
        try:
            if self._store is None:
                self._store = self._connect()
            for record in pending:
                self._store.record(record)
                self.outbox.sent(record)
                sent += 1
                self.sent += 1
            self.last_error = None
            if sent or not self._boards_read:
                for desk in self._desks:
                    desk.refresh_board(self._store)
                self._boards_read = True
        except Exception as exc:  # any store failure: keep the rest queued, reconnect later
            self.last_error = " ".join(str(exc).split()) or type(exc).__name__
            log.warning("stats store unavailable, %d match(es) queued: %s", len(pending) - sent, self.last_error)
            self._drop_store()
            self._next_try = time.monotonic() + self.retry
        return sent

    def queued(self) -> int:
        return len(self.outbox.pending())

    def _drop_store(self) -> None:
        if self._store is not None:
            try:
                self._store.close()
            except Exception:
                log.debug("closing a failed stats store", exc_info=True)
            self._store = None

    # -- background thread ------------------------------------------------------------
    def start(self, period: float = 0.5) -> None:
        def loop() -> None:
            while not self._stop.wait(period):
                try:
                    self.step()
                except Exception:
                    log.exception("stats recorder round failed")

        self._thread = threading.Thread(target=loop, name="stats-recorder", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        """Stop the thread after a last round (what cannot be sent stays queued)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        try:
            self.step()
            self.flush(force=True)
            self.left = self.queued()
        finally:
            self._drop_store()
            self.outbox.close()
            self.journal.close()


def record_tables(
    journal_path: str | Path, url: str, tables: Collection[Table], bots: Collection[str] = ()
) -> Recorder:
    """Start recording the tables' finished matches into the store at `url` (`--db`).

    A store that cannot be used as given (bad URL, credentials, newer schema) is an error
    now, before any table starts; one that is only unreachable is a warning: the tables
    play on and their results wait in the outbox."""
    from mcbridge.stats.store import open_store

    try:
        open_store(url).close()
    except StoreError as exc:
        if not exc.retryable:
            raise
        log.warning("%s; results are queued until it answers", exc)
    recorder = Recorder(journal_path, lambda: open_store(url), bots=bots)
    for table in tables:
        recorder.follow(table.updates.subscribe())
        recorder.serve(table)
    recorder.start()
    return recorder
