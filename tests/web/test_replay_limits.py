"""Replays cost the controller a rebuilt match each: a client asking in a loop is told to
wait (per connection), and only so many are rebuilt at once for everyone."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from web_support import seated_table
from websockets.sync.client import ClientConnection, connect

from mcbridge.tables.table import Table
from mcbridge.web.hub import WebHub
from mcbridge.web.ratelimit import TokenBucket
from mcbridge.web.server import WebServer

WAIT = 10.0
#: so slow a refill that no token comes back while a test runs, however loaded the machine
NEVER = 1e-9


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Table, WebServer]]:
    table, _ = seated_table(tmp_path)
    hub = WebHub([table])
    server = WebServer(hub, "127.0.0.1", 0, journal_path=tmp_path / "t.sqlite",
                       replay_burst=3, replay_rate=NEVER, max_replays=1).start()
    hub.cycle()
    try:
        yield table, server
    finally:
        server.stop()


def answer(conn: ClientConnection) -> dict[str, Any]:
    """The next reply to a request (replay, matches or error), past the pushed table states."""
    while True:
        msg = json.loads(conn.recv(timeout=WAIT))
        if msg["type"] in ("replay", "matches", "error", "hello", "texts"):
            return dict(msg)


@contextmanager
def ws(server: WebServer) -> Iterator[ClientConnection]:
    with connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=WAIT) as conn:
        assert answer(conn)["type"] == "hello"
        assert answer(conn)["type"] == "texts"  # the welcome
        yield conn


def test_a_client_asking_in_a_loop_is_told_when_to_ask_again_and_others_are_not(served: Any) -> None:
    table, server = served
    request = json.dumps({"type": "replay", "match": table.match_id})
    with ws(server) as greedy, ws(server) as other:
        for _ in range(3):  # the burst
            greedy.send(request)
            assert answer(greedy)["type"] == "replay"
        greedy.send(json.dumps({"type": "matches"}))  # the listing draws on the same bucket
        refused = answer(greedy)
        assert refused["code"] == "rate_limited"
        assert refused["reason"].startswith("too many replay requests: 3 at once, then one every")
        assert "try again in" in refused["reason"]
        greedy.send(json.dumps({"type": "hello", "lang": "ja"}))  # the connection itself is fine
        assert answer(greedy)["type"] == "texts"
        other.send(request)  # a bucket per connection
        assert answer(other)["type"] == "replay"


def test_replays_beyond_the_shared_cap_are_refused_as_busy(served: Any) -> None:
    table, server = served
    request = json.dumps({"type": "replay", "match": table.match_id})
    with ws(server) as conn:
        server.replays_running = server.max_replays  # as if another client's replay were being rebuilt
        conn.send(request)
        busy = answer(conn)
        assert busy["code"] == "replay_busy" and "try again" in busy["reason"]
        server.replays_running = 0
        conn.send(request)
        assert answer(conn)["type"] == "replay"
        conn.send(json.dumps({"type": "replay", "match": 99}))
        assert answer(conn)["code"] == "unknown_match"
    assert server.replays_running == 0  # a refused or failed replay gives its place back


class FakeClock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@given(burst=st.integers(1, 10), rate=st.floats(0.01, 100),
       gaps=st.lists(st.floats(0, 10, allow_nan=False), max_size=60))
def test_a_bucket_never_grants_more_than_its_burst_plus_what_time_refilled(
        burst: int, rate: float, gaps: list[float]) -> None:
    clock = FakeClock()
    bucket = TokenBucket(burst, rate, clock)
    granted = 0
    for gap in gaps:
        clock.now += gap
        if bucket.take():
            granted += 1
        else:
            assert bucket.wait() >= 1
        assert granted <= burst + clock.now * rate + 1e-9


def test_an_empty_bucket_says_how_long_to_wait_and_then_grants() -> None:
    clock = FakeClock()
    bucket = TokenBucket(2, 0.5, clock)
    assert bucket.take() and bucket.take() and not bucket.take()
    assert bucket.wait() == 2
    clock.now += 2
    assert bucket.take() and not bucket.take()
    with pytest.raises(ValueError, match="burst >= 1 and rate > 0"):
        TokenBucket(0, 1.0)
