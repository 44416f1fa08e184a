"""The journal's grouped writes: what a cycle sees before its commit (issue 20, item 1).

Inside `group()` writes are queued, not committed: the next match id and the arena's match
count must still see the queued starts (two tables sharing a journal start matches in one
cycle), another reader must see nothing until the group ends, and the `on_append` hooks
(fault injection, stats) must fire once per action, after the commit, in order.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcbridge.tables.journal import Journal


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(tmp_path / "journal.sqlite")
    yield j
    j.close()


def on_disk(journal: Journal, sql: str) -> int:
    """What another process reading the file sees (committed rows only)."""
    with sqlite3.connect(journal.path) as other:
        return int(other.execute(sql).fetchone()[0])


def test_queued_starts_number_the_next_match_and_count_for_their_arena(journal: Journal) -> None:
    first = journal.start_match("north", "braff", {}, ["a", "b"], 1)
    journal.finish(first, {"winner": 0})
    with journal.group():
        second = journal.start_match("north", "braff", {}, ["a", "b"], 2)
        third = journal.start_match("south", "braff", {}, ["c", "d"], 3)
        fourth = journal.start_match("north", "braff", {}, ["a", "b"], 4)
        assert (second, third, fourth) == (first + 1, first + 2, first + 3)
        assert journal.count("north") == 3 and journal.count("south") == 1
        assert journal.count("north", finished=True) == 1  # queued starts are not finished
        assert on_disk(journal, "SELECT count(*) FROM matches") == 1, "nothing commits inside a group"
    assert on_disk(journal, "SELECT count(*) FROM matches") == 4
    assert journal.count("north") == 3 and journal.count("south") == 1
    assert [m.id for m in journal.matches()] == [first, second, third, fourth]


def test_hooks_fire_after_the_commit_once_per_action_in_order(journal: Journal) -> None:
    match = journal.start_match("north", "braff", {}, ["a", "b"], 1)
    seen: list[tuple[int, int, int]] = []

    def hook(match_id: int, seq: int) -> None:
        seen.append((match_id, seq, on_disk(journal, "SELECT count(*) FROM actions")))

    journal.on_append.append(hook)
    journal.append(match, 0, 0, {"type": "Pass"})
    assert seen == [(match, 0, 1)]
    with journal.group():
        with journal.group():  # nested (two tables, one journal): only the outer one commits
            journal.append(match, 1, 1, {"type": "Pass"})
        journal.append(match, 2, 0, {"type": "Pass"})
        journal.finish(match, {"winner": 1})
        assert len(seen) == 1 and on_disk(journal, "SELECT count(*) FROM actions") == 1
    assert seen == [(match, 0, 1), (match, 1, 3), (match, 2, 3)]
    saved = journal.match(match)
    assert saved.actions == [(0, {"type": "Pass"}), (1, {"type": "Pass"}), (0, {"type": "Pass"})]
    assert saved.result == {"winner": 1} and saved.finished is not None


def test_a_seed_stored_as_a_plain_integer_reads_back(journal: Journal) -> None:
    """Journals written before seeds were stored as hex text hold plain integers."""
    journal.db.execute(
        "INSERT INTO matches (id, arena, game, options, players, seed, started)"
        " VALUES (7, 'old', 'braff', '{}', '[]', 42, 0)"
    )
    assert journal.match(7).seed == 42
    assert journal.start_match("old", "braff", {}, [], 5) == 8
    assert journal.match(8).seed == 5


def test_arena_names_are_compared_by_value_not_identity(journal: Journal) -> None:
    """Arena names come from YAML files: equal names are often distinct string objects."""
    with journal.group():
        journal.start_match("".join(["no", "rth"]), "braff", {}, ["a", "b"], 1)
        assert journal.count("".join(["nor", "th"])) == 1


def test_a_replaced_journal_is_reported_once_not_every_cycle(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "journal.sqlite"
    journal = Journal(path)
    try:
        (tmp_path / "other").write_bytes(b"somebody else's file")
        os.replace(tmp_path / "other", path)
        with caplog.at_level(logging.ERROR, logger="mcbridge.tables.journal"):
            for _ in range(3):
                assert not journal.ready()
        assert [r.getMessage().count("was replaced by another file") for r in caplog.records] == [1]
    finally:
        journal.close()


def test_a_full_disk_is_reported_once_and_its_recovery_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    journal = Journal(tmp_path / "journal.sqlite")
    try:
        match = journal.start_match("north", "braff", {}, ["a", "b"], 1)
        pages = journal.db.execute("PRAGMA page_count").fetchone()[0]
        journal.db.execute(f"PRAGMA max_page_count = {pages}")  # SQLite answers "disk is full"
        with caplog.at_level(logging.WARNING, logger="mcbridge.tables.journal"):
            for seq in range(3):
                journal.append(match, seq, 0, {"type": "Pad", "text": "x" * 5000})
                assert not journal.ready() and journal.trouble is not None
            journal.db.execute("PRAGMA max_page_count = 1073741823")
            assert journal.ready() and journal.trouble is None
        messages = [r.getMessage() for r in caplog.records]
        assert [("cannot be written" in m, "writable again" in m) for m in messages] == [(True, False), (False, True)]
        assert "3 queued writes committed" in messages[1]
        assert len(journal.match(match).actions) == 3
    finally:
        journal.close()
