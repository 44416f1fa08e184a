"""Impostors and injections, as a modified client would try them on flying-squid.

Real mineflayer clients log in with names vanilla refuses and send raw chat packets holding
newlines, `|`, control and bidi characters. The bridge must refuse the names with a kick
reason, clean the chat before anyone sees it, and escape what it reports, so that the
controller's reply stream never gains a line, a record or a field, and nobody is taken for
somebody else.
"""

from __future__ import annotations

import socket

import pytest
from squid_support import REPLY_TIMEOUT, start_or_skip, unique_name, wait_until

from mcbridge.world.connection import Connection
from mcbridge.world.errors import ConnectionLost
from mcbridge.world.events import EventPoller

pytestmark = pytest.mark.server

IMPOSTORS = ["Aki ", "Aki\u0000", "Aki\u202e", "X\ny", "Aki|5", "A" * 17, "Ak", "Akí"]


@pytest.mark.parametrize("name", IMPOSTORS, ids=repr)
def test_a_name_vanilla_refuses_is_kicked_with_a_reason(squid, name):
    outcome = squid.players.runner().request("try_join", timeout=15, name=name)
    assert outcome["joined"] is False
    assert "Invalid player name" in outcome["reason"]
    assert name not in _online_names(squid)


def test_a_valid_name_still_joins(squid, join):
    bot = join("Real")  # a full join (and a clean leave at teardown), not a bot that quits mid-login
    assert bot.name in _online_names(squid)


def _online_names(squid) -> list[str]:
    with Connection(squid.host, squid.port) as conn:
        batch = conn.batch()
        ids = batch.get_player_ids()
        batch.flush()
        if not ids.ok:
            return []
        batch = conn.batch()
        names = [batch.entity_name(i) for i in ids.result()]
        batch.flush()
        return [n.result() for n in names if n.ok]


HOSTILE = "hi\nworld.setBlock(0,0,0,1)|57,bluff\u202e\u0000\r\u00a7c!"
CLEAN = "hiworld.setBlock(0,0,0,1)|57,bluffc!"
ESCAPED = CLEAN.replace("|", "\\u007c")


def test_raw_chat_is_cleaned_before_anyone_sees_it_and_escaped_in_replies(squid, join):
    speaker, listener = join("Spk"), join("Lsn")
    with Connection(squid.host, squid.port) as conn:
        poller = EventPoller()
        poller.poll(conn)  # learns both players
        raw = socket.create_connection((squid.host, squid.port), timeout=REPLY_TIMEOUT)
        raw.sendall(b"world.getBlock(0,0,0)\n")  # registered: chat from now on is queued here
        _line(raw)
        squid.players.runner().request("raw_chat", bot=speaker.name, text=HOSTILE)
        wait_until(
            lambda: f"<{speaker.name}> {CLEAN}" in listener.chat_heard(),
            what="the cleaned line to reach the other player",
        )
        assert not any("\n" in line or "\u202e" in line for line in listener.chat_heard())
        chats = []
        wait_until(lambda: chats.extend(poller.poll(conn).chats) or chats, what="the chat event")
        assert [(c.player, c.text) for c in chats] == [(speaker.name, CLEAN)]
        raw.sendall(b"events.chat.posts()\n")
        reply = _line(raw)  # one line, one record, the | escaped
        assert reply == f"{speaker.entity_id},{ESCAPED}"
        raw.close()


def test_a_line_left_empty_by_cleaning_is_dropped(squid, join):
    speaker, listener = join("Emp"), join("Ear")
    squid.players.runner().request("raw_chat", bot=speaker.name, text="\n\u202e\u0000")
    speaker.chat("after")  # waits for its own echo: the empty line was never broadcast
    assert f"<{speaker.name}> " not in listener.chat_heard()
    assert f"<{speaker.name}> after" in listener.chat_heard()


def _line(sock: socket.socket) -> str:
    data = b""
    while not data.endswith(b"\n"):
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    return data[:-1].decode("utf-8")


# -- the shared secret ----------------------------------------------------------------------

SECRET = "correct-horse-battery"


@pytest.fixture(scope="module")
def guarded_squid():
    server = start_or_skip(secret=SECRET)
    try:
        yield server
    finally:
        server.stop()


def test_the_bridge_secret_is_required_when_set(guarded_squid):
    with Connection(guarded_squid.host, guarded_squid.port, secret=SECRET) as conn:
        assert conn.sendReceive("world.getBlock", 0, -1, 0) == "2"  # the superflat grass
    with pytest.raises(ConnectionLost, match="refused the shared secret"):
        Connection(guarded_squid.host, guarded_squid.port, secret="wrong-secret-1")
    raw = socket.create_connection((guarded_squid.host, guarded_squid.port), timeout=REPLY_TIMEOUT)
    raw.sendall(b"world.getBlock(0,-1,0)\n")  # no handshake: refused, then closed
    assert _line(raw) == "Fail"
    assert raw.recv(10) == b""
    raw.close()
    bot = guarded_squid.players.join(unique_name("Sec"))  # the bots give the secret too
    guarded_squid.give(bot.name, 35, 14, 2)
    wait_until(lambda: bot.inventory().get((35, 14)) == 2, what="the give through a guarded bridge")
    bot.leave()
