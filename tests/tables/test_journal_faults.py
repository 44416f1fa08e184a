"""Journal faults while a table runs (issue 15, item 3): a journal deleted or replaced under
the controller, and a full disk mid-match. Real SQLite throughout: the disk fills through
`PRAGMA max_page_count`, which makes SQLite itself answer "database or disk is full".
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from table_support import Rig, replay, seat_bots, shipped_arena

from mcbridge import games
from mcbridge.i18n import locale
from mcbridge.tables.journal import Journal
from mcbridge.world.embedded import EmbeddedHandle

UNLIMITED_PAGES = 1_073_741_823  # SQLite's default max_page_count


def fill_disk(journal: Journal) -> None:
    """No page more: the next write that needs one fails as on a full disk."""
    pages = journal.db.execute("PRAGMA page_count").fetchone()[0]
    journal.db.execute(f"PRAGMA max_page_count = {pages}")


def free_disk(journal: Journal) -> None:
    journal.db.execute(f"PRAGMA max_page_count = {UNLIMITED_PAGES}")


def actions_on_disk(path: Path) -> int:
    fresh = Journal(path)
    try:
        return int(fresh.db.execute("SELECT count(*) FROM actions").fetchone()[0])
    finally:
        fresh.close()


def write_actions(journal: Journal, match_id: int, start: int, count: int) -> None:
    with journal.group():
        for seq in range(start, start + count):
            journal.append(match_id, seq, 0, {"type": "Pad", "text": "x" * 2000})


def test_a_journal_deleted_while_running_is_restored_from_the_open_copy(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    match_id = journal.start_match("a", "wool_bluff", {}, ["Aki", "Ben"], 7)
    write_actions(journal, match_id, 0, 5)
    os.unlink(path)
    assert journal.ready(), journal.trouble
    assert path.exists() and (path.stat().st_mode & 0o777) == 0o600
    write_actions(journal, match_id, 5, 3)
    assert actions_on_disk(path) == 8  # the five from before the delete and three after
    journal.close()


def test_a_journal_replaced_while_running_is_reported_and_left_alone_until_moved_away(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    match_id = journal.start_match("a", "wool_bluff", {}, ["Aki", "Ben"], 7)
    write_actions(journal, match_id, 0, 2)
    foreign = tmp_path / "other.sqlite"
    foreign.write_bytes(b"somebody else's file")
    os.replace(foreign, path)
    assert not journal.ready()
    assert journal.trouble is not None and "replaced" in journal.trouble and str(path) in journal.trouble
    assert path.read_bytes() == b"somebody else's file"  # never overwritten
    os.rename(path, tmp_path / "moved-away")
    assert journal.ready() and journal.trouble is None
    write_actions(journal, match_id, 2, 1)
    assert actions_on_disk(path) == 3
    journal.close()


def test_a_full_disk_keeps_the_writes_queued_and_commits_them_when_space_returns(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    match_id = journal.start_match("a", "wool_bluff", {}, ["Aki", "Ben"], 7)
    write_actions(journal, match_id, 0, 1)
    fill_disk(journal)
    write_actions(journal, match_id, 1, 20)  # ~40 kB: more pages than there are
    assert journal.trouble is not None and "full" in journal.trouble
    assert not journal.ready()  # the retry fails too while the disk is full
    assert actions_on_disk(path) == 1
    free_disk(journal)
    assert journal.ready()
    assert actions_on_disk(path) == 21
    journal.close()


def test_a_full_disk_mid_match_pauses_the_table_and_it_resumes_with_nothing_lost(
        rig: Callable[..., Rig], world: EmbeddedHandle, tmp_path: Path) -> None:
    r = rig(shipped_arena(), seed=2)
    spectator = world.players.join("Spectator")
    seat_bots(r)
    r.run_until(lambda: r.table.state is not None and r.table.seq >= 12, max_cycles=2000)
    fill_disk(r.journal)
    r.run_until(lambda: r.table.paused, max_cycles=3000)
    paused_at = r.table.seq
    left = {seat: at - r.clock.now for seat, at in r.table.deadlines.items()}  # when the pause began
    assert left
    r.step()  # the pause notice goes out
    limits = max(t for t in r.arena.timeouts.values())

    r.clock.now += 10 * limits  # a long outage: every timer would have run out many times
    for _ in range(5):
        r.step()
    assert r.table.paused and r.table.seq == paused_at  # nothing ticked, nothing timed out
    text = locale("en")
    assert text.t("common.paused_journal") in spectator.chat_heard()

    free_disk(r.journal)
    r.step()
    assert not r.table.paused
    # the timers go on with the time that was left
    assert {seat: at - r.clock.now for seat, at in r.table.deadlines.items()} == pytest.approx(left)
    r.step()
    assert text.t("common.resumed") in spectator.chat_heard()

    r.finish()
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    assert len(saved.actions) == r.table.seq  # nothing lost
    assert saved.result is not None
    replayed = replay(games.load("wool_bluff", saved.rules_options()), saved)
    assert r.table.state is not None and replayed.view(None) == r.table.state.view(None)
    assert actions_on_disk(tmp_path / "journal.sqlite") == r.table.seq
