"""The SQLite store: schema, idempotent recording, ratings with history, bad input."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.stats.errors import StoreError
from mcbridge.stats.migrations import SCHEMA_VERSION
from mcbridge.stats.store import SqliteStore, open_store
from tests.stats.support import record


def test_a_match_is_stored_once_and_rates_its_players(tmp_path):
    store = open_store(f"sqlite:///{tmp_path}/s.db")
    assert store.record(record(1, ["Aki", "Ben", "Chie"]))
    assert not store.record(record(1, ["Aki", "Ben", "Chie"]))  # the same (journal, match): skipped
    assert store.match_count() == 1
    top = store.top("wool_bluff")
    assert [r.player for r in top] == ["Aki", "Ben", "Chie"]
    assert [r.matches for r in top] == [1, 1, 1]
    assert [r.wins for r in top] == [1, 0, 0]
    assert top[0].ordinal > top[1].ordinal > top[2].ordinal
    hist = store.history("Aki")
    assert len(hist) == 1 and hist[0][3] > hist[0][2]


def test_another_journal_with_the_same_match_number_is_another_match(tmp_path):
    store = SqliteStore(tmp_path / "s.db")
    assert store.record(record(1, ["Aki", "Ben"], journal="j1"))
    assert store.record(record(1, ["Ben", "Aki"], journal="j2"))
    assert store.match_count() == 2
    assert {g.matches for g in store.player("Aki")} == {2}


def test_ratings_are_per_game(tmp_path):
    store = SqliteStore(tmp_path / "s.db")
    store.record(record(1, ["Aki", "Ben"], game="wool_bluff"))
    store.record(record(2, ["Ben", "Aki"], game="braff"))
    assert store.top("wool_bluff")[0].player == "Aki"
    assert store.top("braff")[0].player == "Ben"
    assert [(g.game, g.rank) for g in store.player("Aki")] == [("braff", 2), ("wool_bluff", 1)]


def test_bots_are_rated_apart_from_people(tmp_path):
    store = SqliteStore(tmp_path / "s.db")
    bots = frozenset({"Bot1", "Bot2"})
    store.record(record(1, ["Bot1", "Aki", "Bot2", "Ben"], bots=bots))
    people = store.top("wool_bluff")
    assert [r.player for r in people] == ["Aki", "Ben"]  # rated among people only: Aki beat Ben
    assert [r.player for r in store.top("wool_bluff", bots=True)] == ["Bot1", "Bot2"]
    alone = SqliteStore(tmp_path / "t.db")
    alone.record(record(1, ["Bot1", "Aki"], bots=bots))  # one person: nothing to rate against
    assert alone.top("wool_bluff")[0].ordinal == pytest.approx(0.0, abs=1e-9)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=20), min_size=2, max_size=4, unique=True))
def test_names_are_stored_exactly(tmp_path_factory, names):
    store = SqliteStore(tmp_path_factory.mktemp("n") / "s.db")
    store.record(record(1, names))
    assert {r.player for r in store.top("wool_bluff")} == set(names)
    assert store.player(names[0])[0].matches == 1


def test_a_newer_schema_is_refused_with_the_fix(tmp_path):
    path = tmp_path / "s.db"
    SqliteStore(path).close()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION + 1,))
    db.commit()
    db.close()
    with pytest.raises(StoreError, match=r"newer than this mcbridge knows.*upgrade mcbridge"):
        SqliteStore(path)


def test_reopening_does_not_migrate_again(tmp_path):
    path = tmp_path / "s.db"
    SqliteStore(path).record(record(1, ["Aki", "Ben"]))
    store = SqliteStore(path)
    assert store.schema_version() == SCHEMA_VERSION
    assert store.match_count() == 1


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://x@y/z", r"unknown store 'mysql'.*sqlite:///PATH or postgresql://"),
        ("sqlite:////no/such/dir/s.db", "no directory /no/such/dir"),
    ],
)
def test_bad_urls_say_the_fix(url, message):
    with pytest.raises(StoreError, match=message):
        open_store(url)


def test_a_file_that_is_not_a_store(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"not sqlite at all" * 100)
    with pytest.raises(StoreError, match="not a stats store"):
        open_store(f"sqlite:///{path}")
