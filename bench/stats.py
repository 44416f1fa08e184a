"""Stats store speed: matches recorded per second, and leaderboard reads with 1M matches.

Side by side in one run, SQLite (a file in a temporary directory, WAL) and PostgreSQL (a
throwaway 15 cluster on 127.0.0.1 with fsync on, as the tests start it, or --pg-url):
* **record**: `Store.record` of 4-player matches, one transaction each (match, seats,
  rating update and history), as the recorder sends them;
* **board**: `top(game, 10)` and `player(name)` after bulk-loading N matches (default 1M)
  with their seats and rating history. The bulk load writes rows directly (COPY on
  PostgreSQL) with ratings drawn at random, not by running openskill 1M times: the
  query's cost depends on the rows, not on how their numbers were computed.

Run: .venv/bin/python bench/stats.py [--record 300] [--matches 1000000] [--players 20000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcbridge.stats.ratings import Skill
from mcbridge.stats.records import MatchRecord, SeatResult
from mcbridge.stats.store import PostgresStore, SqliteStore, Store
from tests.stats.pg_cluster import Cluster, missing_reason

GAMES = ("wool_bluff", "dice_bluff", "bribery", "braff", "briscola_bugiarda")


def match(i: int, players: int, rng: random.Random, journal: str = "bench") -> MatchRecord:
    names = rng.sample(range(players), 4)
    seats = tuple(SeatResult(s, f"p{n}", s + 1, float(4 - s), False, {}) for s, n in enumerate(names))
    return MatchRecord(journal, i, GAMES[i % len(GAMES)], "arena", float(i), float(i) + 600.0, seats)


def bench_record(store: Store, n: int, players: int) -> float:
    rng = random.Random(1)
    records = [match(i, players, rng, "record") for i in range(n)]
    started = time.perf_counter()
    for r in records:
        store.record(r)
    return n / (time.perf_counter() - started)


def bulk_rows(n: int, players: int) -> dict[str, Callable[[], Iterator[tuple]]]:
    """Per table, a generator of its rows for n matches: the same rows every call, made lazily
    (9M rows would not fit in memory as tuples)."""
    def seats() -> Iterator[tuple[int, str, int, str]]:
        rng = random.Random(2)
        for i in range(n):
            for seat, p in enumerate(rng.sample(range(players), 4)):
                yield 10_000_000 + i, GAMES[i % len(GAMES)], seat, f"p{p}"

    def matches() -> Iterator[tuple]:
        for i in range(n):
            yield 10_000_000 + i, "bulk", i, GAMES[i % len(GAMES)], "arena", float(i), float(i) + 600.0, 600.0

    def results() -> Iterator[tuple]:
        for pk, _, seat, name in seats():
            yield pk, seat, name, False, seat + 1, float(4 - seat), "{}"

    def history() -> Iterator[tuple]:
        rng = random.Random(3)
        for pk, game, _, name in seats():
            yield pk, game, name, 25.0, 8.3, 25.0 + rng.gauss(0, 1), 8.0

    def ratings() -> Iterator[tuple]:
        rng = random.Random(4)
        for game in GAMES:
            for p in range(players):
                s = Skill(rng.gauss(25, 4), rng.uniform(1, 8.3))
                yield game, f"p{p}", False, s.mu, s.sigma, s.ordinal, 4 * n // players, n // players

    return {"matches": matches, "results": results, "rating_history": history, "ratings": ratings}


COLUMNS = {
    "matches": "id, journal_id, match_id, game, arena, started, finished, duration",
    "results": "match_pk, seat, player, is_bot, rank, score, detail",
    "rating_history": "match_pk, game, player, mu_before, sigma_before, mu, sigma",
    "ratings": "game, player, is_bot, mu, sigma, ordinal, matches, wins",
}


def bulk_load(store: Store, rows: dict[str, Callable[[], Iterator[tuple]]]) -> float:
    started = time.perf_counter()
    if isinstance(store, PostgresStore):
        with store.conn.transaction(), store.conn.cursor() as cur:
            cur.execute("DELETE FROM ratings")
            for table, data in rows.items():
                with cur.copy(f"COPY {table} ({COLUMNS[table]}) FROM STDIN") as copy:
                    for row in data():
                        copy.write_row(row)
            cur.execute("ANALYZE")
    else:
        db = store.conn
        db.execute("BEGIN")
        db.execute("DELETE FROM ratings")
        for table, data in rows.items():
            marks = ", ".join("?" * len(COLUMNS[table].split(",")))
            db.executemany(f"INSERT INTO {table} ({COLUMNS[table]}) VALUES ({marks})", data())
        db.execute("COMMIT")
        db.execute("ANALYZE")
    return time.perf_counter() - started


def timed(fn, repeat: int) -> tuple[float, float]:
    """(median, p99) in ms."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(len(times) * 0.99))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--record", type=int, default=300, help="matches recorded one by one per backend")
    ap.add_argument("--matches", type=int, default=1_000_000, help="matches bulk-loaded before the board queries")
    ap.add_argument("--players", type=int, default=20_000)
    ap.add_argument("--pg-url", default=None, help="an existing PostgreSQL (an empty database) instead of a cluster")
    args = ap.parse_args()

    cluster = None
    with tempfile.TemporaryDirectory() as tmp:
        stores: dict[str, Store] = {"sqlite": SqliteStore(Path(tmp) / "stats.db")}
        if args.pg_url:
            stores["postgresql"] = PostgresStore(args.pg_url)
        elif missing_reason() is None:
            cluster = Cluster(fsync=True)
            stores["postgresql"] = PostgresStore(cluster.create_db("bench"))
        else:
            print(f"postgresql: skipped ({missing_reason()})")
        try:
            print(f"record: {args.record} matches of 4 players, one transaction each")
            rates = {name: bench_record(store, args.record, 200) for name, store in stores.items()}
            for name, rate in rates.items():
                print(f"  {name:<10} {rate:8.1f} matches/s")
            if len(rates) == 2:
                print(f"  ratio sqlite/postgresql {rates['sqlite'] / rates['postgresql']:.2f}")
            rows = bulk_rows(args.matches, args.players)
            print(f"board: {args.matches} matches, {4 * args.matches} seats and history rows, "
                  f"{args.players} players x {len(GAMES)} games")
            for name, store in stores.items():
                load = bulk_load(store, rows)
                top_ms = timed(lambda s=store: s.top("wool_bluff", 10), 200)
                player_ms = timed(lambda s=store: s.player("p123"), 200)
                print(f"  {name:<10} loaded in {load:6.1f} s;"
                      f" top 10: median {top_ms[0]:.3f} ms, p99 {top_ms[1]:.3f} ms;"
                      f" player (5 games, ranks): median {player_ms[0]:.3f} ms, p99 {player_ms[1]:.3f} ms;"
                      f" {store.match_count()} matches")
        finally:
            for store in stores.values():
                store.close()
            if cluster is not None:
                cluster.destroy()
    return 0


if __name__ == "__main__":
    sys.exit(main())
