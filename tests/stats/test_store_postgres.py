"""The PostgreSQL store on a real throwaway cluster: same behaviour, concurrent writers, bad input."""

from __future__ import annotations

import threading

import psycopg
import pytest

from mcbridge.stats.errors import StoreError
from mcbridge.stats.migrations import SCHEMA_VERSION
from mcbridge.stats.ratings import Skill, rate
from mcbridge.stats.store import PostgresStore, SqliteStore, open_store
from tests.stats.support import record


def test_records_once_and_rates_like_sqlite(pg_url, tmp_path):
    pg = open_store(pg_url)
    lite = SqliteStore(tmp_path / "s.db")
    matches = [record(i, order) for i, order in enumerate([["Aki", "Ben", "Chie"], ["Chie", "Aki", "Ben"]] * 3)]
    for m in matches:
        assert pg.record(m) and lite.record(m)
        assert not pg.record(m)
    assert pg.match_count() == 6
    assert pg.top("wool_bluff") == lite.top("wool_bluff")  # same schema, same SQL, same numbers
    assert pg.player("Aki") == lite.player("Aki")
    assert pg.history("Aki") == lite.history("Aki")


def test_names_are_stored_exactly(pg_url):
    store = open_store(pg_url)
    names = ["§4Admin", "名前", "Robert'); DROP TABLE ratings;--"]
    store.record(record(1, names))
    assert [r.player for r in store.top("wool_bluff")] == names


def test_two_controllers_write_concurrently_and_lose_nothing(pg_url):
    """Two writers (own connections, threads) record interleaved matches of one game."""
    players = ["Aki", "Ben", "Chie", "Dan"]
    per_writer = 40

    def matches(journal: str) -> list:
        return [record(i, players[i % 4:] + players[: i % 4], journal=journal) for i in range(per_writer)]

    errors: list[BaseException] = []

    def writer(journal: str) -> None:
        try:
            store = PostgresStore(pg_url)
            for m in matches(journal):
                store.record(m)
            store.close()
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(j,)) for j in ("server-a", "server-b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors
    store = open_store(pg_url)
    assert store.match_count() == 2 * per_writer
    top = {r.player: r for r in store.top("wool_bluff")}
    assert all(r.matches == 2 * per_writer for r in top.values())
    # Consistent: replaying the matches in the order the store committed them gives the same ratings
    with psycopg.connect(pg_url) as conn:
        order = conn.execute("SELECT id FROM matches ORDER BY id").fetchall()
        skills = {p: Skill() for p in players}
        for (pk,) in order:
            seats = conn.execute("SELECT player, rank FROM results WHERE match_pk = %s ORDER BY seat", (pk,)).fetchall()
            new = rate([(skills[p], rank) for p, rank in seats])
            for (p, _), s in zip(seats, new, strict=True):
                skills[p] = s
            history_rows = conn.execute(
                "SELECT count(*) FROM rating_history WHERE match_pk = %s", (pk,)
            ).fetchone()[0]
            assert history_rows == 4
    for p in players:
        assert top[p].mu == pytest.approx(skills[p].mu)
        assert top[p].sigma == pytest.approx(skills[p].sigma)


def test_wrong_password_says_so(pg_cluster):
    with pytest.raises(StoreError, match="refused the user or password") as info:
        open_store(pg_cluster.url(password="wrong"))
    assert "wrong" not in str(info.value)  # the password is never echoed
    assert not info.value.retryable


def test_unknown_database_says_create_it(pg_cluster):
    with pytest.raises(StoreError, match="createdb"):
        open_store(pg_cluster.url("nosuchdb"))


def test_newer_schema_is_refused(pg_url):
    open_store(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (SCHEMA_VERSION + 1,))
    with pytest.raises(StoreError, match="newer than this mcbridge knows"):
        open_store(pg_url)
