"""Spectators: a stalled one is dropped, the others get everything; the page's files;
replay rebuilds each public view from the journal; operator actions reach the table."""

from __future__ import annotations

import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_support import Clock, chance, seated_table
from websockets.sync.client import ClientConnection, connect

from mcbridge.games.wool_bluff import Bid, Deal, FirstPredictor, Through
from mcbridge.tables.table import Table
from mcbridge.web import parse_addr
from mcbridge.web.hub import Command, WebHub
from mcbridge.web.server import SLOW_CLIENT_BYTES, WebServer

WAIT = 10.0


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[tuple[Table, Clock, WebHub, WebServer]]:
    table, clock = seated_table(tmp_path)
    hub = WebHub([table])
    server = WebServer(hub, "127.0.0.1", 0, token="tok", journal_path=tmp_path / "t.sqlite").start()
    hub.cycle()
    try:
        yield table, clock, hub, server
    finally:
        server.stop()


def until(check: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"not within {WAIT} s: {what}"
        time.sleep(0.01)


def recv_type(conn: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg = json.loads(conn.recv(timeout=WAIT))
        if msg["type"] == kind:
            return dict(msg)


def test_a_stalled_spectator_is_dropped_and_the_others_get_every_update(rig: Any) -> None:
    table, _, hub, server = rig
    stalled = socket.socket()
    stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stalled.connect(("127.0.0.1", server.port))
    stalled.sendall(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    with connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=WAIT) as reader:
        until(lambda: len(server.clients) == 2, "both spectators connected")
        message = hub.latest[table.arena.name]
        count = 4 * SLOW_CLIENT_BYTES // len(message["en"])  # four times what a client may owe
        got = 0
        for _ in range(count):
            assert hub.sink is not None
            hub.sink(table.arena.name, message, 0.0)
            while True:  # the reader keeps up, message by message
                if json.loads(reader.recv(timeout=WAIT))["type"] == "table":
                    got += 1
                    break
        assert server.dropped == 1 and len(server.clients) == 1
        assert got == count
    stalled.close()


def test_static_files_and_a_clear_404(rig: Any) -> None:
    server = rig[3]
    with urllib.request.urlopen(server.url, timeout=WAIT) as r:
        assert r.headers["Content-Type"].startswith("text/html") and b"/app.js" in r.read()
    with pytest.raises(urllib.error.HTTPError) as missing:
        urllib.request.urlopen(server.url + "secret.sqlite", timeout=WAIT)
    assert missing.value.code == 404


def test_replay_steps_through_the_journaled_match_with_public_views_only(rig: Any) -> None:
    table, _, _, server = rig
    chance(table, FirstPredictor(1))
    for seat in range(4):
        chance(table, Deal(seat, {"red": table.state.hand_size}))
    assert table.submit(1, Bid("red", 3)) and table.submit(2, Through())
    with connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=WAIT) as conn:
        conn.send(json.dumps({"type": "matches"}))
        [match] = recv_type(conn, "matches")["matches"]
        assert match["id"] == table.match_id and match["actions"] == 7
        conn.send(json.dumps({"type": "replay", "match": match["id"]}))
        steps = recv_type(conn, "replay")["steps"]
        conn.send(json.dumps({"type": "replay", "match": 99}))
        assert recv_type(conn, "error")["code"] == "unknown_match"
    assert len(steps) == 8
    assert steps[-1]["public"] == json.loads(json.dumps(table.state.view(None)))
    assert steps[6]["public"]["bid"] == {"colour": "red", "count": 3, "bidder": 1}
    assert "Ben: at least 3 red!" in steps[6]["log"]
    text = json.dumps(steps)
    assert "hand\"" not in text and "seed" not in text and "Deal" not in text


def op(hub: WebHub, action: str, booth: int | None = None) -> str:
    done: list[dict[str, Any]] = []
    hub.submit(Command(action, "wool-bluff-1", booth, "test", done.append))
    hub.cycle()
    [reply] = done
    return str(reply["result"])


def test_operator_pause_holds_the_timers_reset_ends_the_match_next_match_starts(rig: Any) -> None:
    table, clock, hub, _ = rig
    table.tick()  # dealt: the first bidder's turn timer runs
    deadlines, seq = dict(table.deadlines), table.seq
    assert deadlines
    assert op(hub, "pause") == "paused" and table.paused
    assert op(hub, "pause") == "already paused"
    clock.now += 100  # past the turn's 60 s
    table.tick()
    assert table.seq == seq  # a paused table does not tick: no timeout
    assert op(hub, "resume") == "resumed" and not table.paused
    assert table.deadlines == {seat: at + 100 for seat, at in deadlines.items()}  # the time that was left
    assert op(hub, "resume") == "refused: not paused by an operator"
    first = table.match_id
    assert op(hub, "reset") == "back to the lobby"
    assert table.state is None and table.journal.match(first).result == {"standings": [], "aborted": "operator"}
    assert op(hub, "reset") == "nothing to reset (no match)"
    assert op(hub, "next_match") == "starting when enough players sit"
    table.tick()
    assert table.state is not None and table.match_id != first
    assert op(hub, "unseat", 3).startswith("Dan unseated")
    table.on_presence(["Aki", "Ben", "Chie", "Dan"], {})  # Dan is still online: the poll would mark him back
    assert table.occupants[3] is not None and not table.occupants[3].present  # kept away by the table
    assert op(hub, "unseat", 9).startswith("refused")
    assert op(hub, "rebuild").startswith("refused")  # no world connection in this rig
    assert [e["action"] for e in hub.oplog] == [
        "pause", "pause", "resume", "resume", "reset", "reset", "next_match", "unseat", "unseat", "rebuild"]


def test_web_addresses() -> None:
    assert parse_addr("127.0.0.1:8080") == ("127.0.0.1", 8080)
    assert parse_addr(":0") == ("127.0.0.1", 0)
    with pytest.raises(ValueError, match="HOST:PORT"):
        parse_addr("localhost")
