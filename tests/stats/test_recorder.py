"""The recorder on real journals: finished matches only, once each, queued while the store is away."""

from __future__ import annotations

import os

from mcbridge.stats.errors import StoreError
from mcbridge.stats.recorder import Recorder
from mcbridge.stats.store import open_store
from mcbridge.tables.journal import Journal


def play(journal: Journal, names: list[str], finish: bool = True) -> int:
    match_id = journal.start_match("arena", "dice_bluff", {}, names, 1)
    journal.append(match_id, 0, 0, {"type": "x"})
    if finish:
        standings = [{"seat": i, "name": n, "rank": i + 1, "chips": 10 - i} for i, n in enumerate(names)]
        journal.finish(match_id, {"over": True, "standings": standings, "score_name": "chips"})
    return match_id


def test_finished_matches_are_recorded_once_with_seats_ranks_scores(tmp_path):
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    done = play(journal, ["Aki", "§cBen"])
    running = play(journal, ["Aki", "Chie"], finish=False)
    url = f"sqlite:///{tmp_path}/s.db"
    recorder = Recorder(path, lambda: open_store(url))
    recorder.watch(running)
    assert recorder.step() == 1
    assert recorder.step() == 0
    rows = [{"seat": 0, "name": "Chie", "rank": 1}, {"seat": 1, "name": "Aki", "rank": 2}]
    journal.finish(running, {"standings": rows})
    assert recorder.step() == 1
    recorder.stop()
    store = open_store(url)
    assert store.match_count() == 2
    assert done == 1
    rows = store.conn.execute("SELECT player, seat, rank, score FROM results ORDER BY match_pk, seat").fetchall()
    assert rows == [("Aki", 0, 1, 10.0), ("§cBen", 1, 2, 9.0), ("Chie", 0, 1, None), ("Aki", 1, 2, None)]
    duration = store.conn.execute("SELECT duration FROM matches ORDER BY id").fetchall()
    assert all(d >= 0 for (d,) in duration)


def test_a_store_that_is_away_queues_and_sends_later(tmp_path):
    path = tmp_path / "journal.sqlite"
    play(Journal(path), ["Aki", "Ben"])
    up = False
    url = f"sqlite:///{tmp_path}/s.db"

    def connect():
        if not up:
            raise StoreError("down", retryable=True)
        return open_store(url)

    recorder = Recorder(path, connect, retry=0.0)
    assert recorder.step() == 0 and recorder.queued() == 1 and recorder.last_error == "down"
    up = True
    assert recorder.step() == 1 and recorder.queued() == 0
    recorder.stop()


def test_a_journal_started_afresh_is_another_journal(tmp_path):
    """`run --journal-reset` moves the old journal away; its match 1 must not hide the new match 1."""
    path = tmp_path / "journal.sqlite"
    url = f"sqlite:///{tmp_path}/s.db"
    old = Journal(path)
    play(old, ["Aki", "Ben"])
    Recorder(path, lambda: open_store(url)).stop()
    old.close()
    os.replace(path, tmp_path / "journal.old")
    for suffix in ("-wal", "-shm"):
        if os.path.exists(f"{path}{suffix}"):
            os.remove(f"{path}{suffix}")
    new = Journal(path)
    play(new, ["Ben", "Aki"])
    recorder = Recorder(path, lambda: open_store(url))
    recorder.stop()
    assert recorder.sent == 1
    assert open_store(url).match_count() == 2
