"""A store outage never stops a table: results wait in the outbox and arrive once, later.

The demo table plays three matches recording into a real PostgreSQL; the cluster is
stopped as soon as the first match is finished in the journal (the others are played
during the outage), then started again: every match arrives, none twice.
"""

from __future__ import annotations

import sqlite3
import threading
import time

import psycopg

from mcbridge.stats.outbox import Outbox, outbox_path
from mcbridge.stats.recorder import Recorder
from mcbridge.stats.store import open_store
from mcbridge.tables.demo_run import run_demo
from mcbridge.tables.journal import Journal
from tests.stats.support import record


def _finished(path) -> int:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            return int(db.execute("SELECT count(*) FROM matches WHERE finished IS NOT NULL").fetchone()[0])
    except sqlite3.Error:
        return 0


def wait_for(check, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


def test_stop_postgres_mid_match_nothing_lost_nothing_doubled(pg_cluster, pg_url, tmp_path):
    journal = tmp_path / "journal.sqlite"
    result: list[int] = []
    demo = threading.Thread(
        target=lambda: result.append(
            run_demo(seed=3, players=4, tps=20, turns=3, journal_path=journal, matches=3, quiet=True, db=pg_url)
        )
    )
    demo.start()
    try:
        wait_for(lambda: _finished(journal) >= 1)
        pg_cluster.stop()
        demo.join(timeout=280)
    finally:
        if pg_cluster.pid() is None:
            pg_cluster.start()
    assert result == [0]  # the table played every match through the outage
    assert _finished(journal) == 3
    queued = Outbox(outbox_path(journal))
    assert queued.pending(), "the outage should have left matches queued"
    queued.close()

    recorder = Recorder(journal, lambda: open_store(pg_url))
    recorder.step()
    assert recorder.queued() == 0
    recorder.stop()
    again = Recorder(journal, lambda: open_store(pg_url))  # a restart: nothing is sent twice
    again.step()
    again.stop()

    with psycopg.connect(pg_url) as conn:
        rows = conn.execute("SELECT journal_id, match_id FROM matches ORDER BY match_id").fetchall()
        seats = conn.execute("SELECT count(*) FROM results").fetchone()[0]
    assert [m for _, m in rows] == [1, 2, 3]
    assert len({j for j, _ in rows}) == 1
    assert seats == 12
    kept = Journal(journal)
    store = open_store(pg_url)
    assert sum(r.matches for r in store.top("wool_bluff", bots=True)) == 12
    assert {r.player for r in store.top("wool_bluff", bots=True)} == set(kept.match(1).players)
    kept.close()


def test_a_record_sent_again_after_a_crash_is_skipped(tmp_path):
    """Crash after the store's commit, before the outbox's delete: the resend changes nothing."""
    store = open_store(f"sqlite:///{tmp_path}/s.db")
    m = record(1, ["Aki", "Ben"])
    assert store.record(m)
    before = store.top("wool_bluff")
    assert not store.record(m)
    assert store.top("wool_bluff") == before
