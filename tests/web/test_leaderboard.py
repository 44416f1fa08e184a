"""The web view shows the same leaderboard as `mcbridge stats top` (issue 18 item 3), read from
the stats store the tables record into; without a store, or with a bad request, a reason."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from web_support import seated_table
from websockets.sync.client import ClientConnection, connect

from mcbridge.stats.records import MatchRecord, SeatResult
from mcbridge.stats.store import open_store
from mcbridge.web.hub import WebHub
from mcbridge.web.server import WebServer


def finished(match_id: int, ranking: list[str]) -> MatchRecord:
    seats = tuple(
        SeatResult(seat=i, player=name, rank=i + 1, score=float(i), is_bot=False, detail={})
        for i, name in enumerate(ranking)
    )
    return MatchRecord("j1", match_id, "wool_bluff", "arena", 1000.0 + match_id, 1060.0 + match_id, seats)


def served(tmp_path: Path, stats_url: str | None) -> WebServer:
    table, _ = seated_table(tmp_path)
    hub = WebHub([table])
    server = WebServer(hub, "127.0.0.1", 0, token="tok", stats_url=stats_url).start()
    hub.cycle()
    return server


@pytest.fixture
def store_url(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'stats.sqlite'}"
    store = open_store(url)
    for match_id in range(1, 4):  # Aki wins all three, Ben is always second
        store.record(finished(match_id, ["Aki", "Ben", "Chie"]))
    store.close()
    return url


@pytest.fixture
def ws_of(tmp_path: Path) -> Iterator[Any]:
    with ExitStack() as stack:

        def open_ws(stats_url: str | None) -> ClientConnection:
            server = served(tmp_path, stats_url)
            stack.callback(server.stop)
            return stack.enter_context(connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=10))

        yield open_ws


def next_of(conn: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg = json.loads(conn.recv(timeout=10))
        if msg["type"] in (kind, "error"):
            return dict(msg)


def test_the_leaderboard_is_the_stores_ranking(ws_of: Any, store_url: str) -> None:
    conn = ws_of(store_url)
    conn.send(json.dumps({"type": "leaderboard", "game": "wool_bluff", "limit": 5}))
    board = next_of(conn, "leaderboard")
    store = open_store(store_url)
    expected = [(r.rank, r.player, r.matches, r.wins) for r in store.top("wool_bluff", 5)]
    store.close()
    assert [(r["rank"], r["player"], r["matches"], r["wins"]) for r in board["rows"]] == expected
    assert [r["player"] for r in board["rows"]] == ["Aki", "Ben", "Chie"] and board["rows"][0]["wins"] == 3


@pytest.mark.parametrize(
    ("request_", "code"),
    [({"game": "chess"}, "bad_game"), ({"game": "wool_bluff", "limit": 0}, "bad_limit"),
     ({"game": "wool_bluff", "limit": "10"}, "bad_limit")],
)
def test_bad_leaderboard_requests_get_a_reason(ws_of: Any, store_url: str, request_: dict[str, Any], code: str) -> None:
    conn = ws_of(store_url)
    conn.send(json.dumps({"type": "leaderboard", **request_}))
    answer = next_of(conn, "leaderboard")
    assert answer["type"] == "error" and answer["code"] == code and answer["reason"]


def test_without_a_store_the_page_is_told_there_are_no_stats(ws_of: Any) -> None:
    conn = ws_of(None)
    conn.send(json.dumps({"type": "leaderboard", "game": "wool_bluff"}))
    answer = next_of(conn, "leaderboard")
    assert answer["type"] == "error" and answer["code"] == "no_stats"


def test_a_store_that_does_not_answer_is_reported_and_the_server_goes_on(ws_of: Any, tmp_path: Path) -> None:
    (tmp_path / "not-a-store.sqlite").write_bytes(b"garbage, not a database" * 100)
    conn = ws_of(f"sqlite:///{tmp_path / 'not-a-store.sqlite'}")
    conn.send(json.dumps({"type": "leaderboard", "game": "wool_bluff"}))
    answer = next_of(conn, "leaderboard")
    assert answer["type"] == "error" and answer["code"] == "stats_unavailable"
    conn.send(json.dumps({"type": "hello", "lang": "ja"}))  # still served afterwards
    assert next_of(conn, "texts")["lang"] == "ja"
