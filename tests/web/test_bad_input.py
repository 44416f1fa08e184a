"""Bad input over /ws is refused with a reason; no token, no control; the table plays on."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from web_support import seated_table
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from mcbridge.web.hub import WebHub
from mcbridge.web.server import MAX_MESSAGE, WebServer


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[WebServer, WebHub]]:
    table, _ = seated_table(tmp_path)
    hub = WebHub([table])
    server = WebServer(hub, "127.0.0.1", 0, token="s3cret").start()
    hub.cycle()
    try:
        yield server, hub
    finally:
        server.stop()


@contextmanager
def ws(server: WebServer) -> Iterator[ClientConnection]:
    with connect(f"ws://127.0.0.1:{server.port}/ws", open_timeout=10) as conn:
        assert json.loads(conn.recv(timeout=10))["type"] == "hello"
        yield conn


def next_of(conn: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        msg = json.loads(conn.recv(timeout=10))
        if msg["type"] == kind:
            return dict(msg)


@pytest.mark.parametrize(("frame", "code"), [("{not json", "bad_json"), ("[1, 2]", "no_type"),
                                            ('{"type": "dance"}', "unknown_type"),
                                            ('{"type": "hello", "lang": "xx"}', "bad_lang"),
                                            ('{"type": "replay", "match": "one"}', "bad_match")])
def test_malformed_and_unknown_messages_get_a_reason(served: tuple[WebServer, WebHub], frame: str, code: str) -> None:
    server, _ = served
    with ws(server) as conn:
        conn.send(frame)
        error = next_of(conn, "error")
        assert error["code"] == code and error["reason"]
        conn.send('{"type": "hello", "lang": "ja"}')  # still served afterwards
        assert next_of(conn, "texts")["lang"] == "ja"


def test_oversize_and_binary_frames_close_with_a_reason(served: tuple[WebServer, WebHub]) -> None:
    server, _ = served
    with ws(server) as conn:
        conn.send("x" * (MAX_MESSAGE + 1))
        with pytest.raises(ConnectionClosed) as closed:
            next_of(conn, "never")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    with ws(server) as conn:
        conn.send(b"\x00\x01")
        with pytest.raises(ConnectionClosed) as closed:
            next_of(conn, "never")
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1003


@pytest.mark.parametrize("token", [None, "wrong", 42])
def test_no_token_no_control(served: tuple[WebServer, WebHub], token: Any) -> None:
    server, hub = served
    with ws(server) as conn:
        if token is not None:
            conn.send(json.dumps({"type": "auth", "token": token}))
            assert next_of(conn, "error")["code"] == "bad_token"
        else:
            conn.send(json.dumps({"type": "op", "action": "pause", "table": "wool-bluff-1"}))
            assert next_of(conn, "error")["code"] == "not_authorised"
        with pytest.raises(ConnectionClosed):
            next_of(conn, "never")
    hub.cycle()
    assert hub.commands.empty() and not hub.oplog
    assert not hub.pauses.is_paused(0)


def test_an_operator_pauses_and_resumes_and_it_is_logged(served: tuple[WebServer, WebHub]) -> None:
    server, hub = served
    with ws(server) as conn:
        conn.send(json.dumps({"type": "auth", "token": "s3cret"}))
        assert next_of(conn, "auth")["ok"] is True
        conn.send(json.dumps({"type": "op", "action": "pause", "table": "wool-bluff-1"}))
        conn.send(json.dumps({"type": "op", "action": "dance", "table": "wool-bluff-1"}))
        assert next_of(conn, "error")["code"] == "unknown_action"
        deadline = time.monotonic() + 10
        while not hub.oplog and time.monotonic() < deadline:  # carried out at the tables' next cycle
            hub.cycle()
            time.sleep(0.01)
        done = next_of(conn, "op_done")
        assert done["action"] == "pause" and done["result"] == "paused"
        assert hub.pauses.reasons(0) == {"operator"}
        state = next_of(conn, "table")
        assert state["paused"] is True and state["pause_reasons"] == ["operator"]
