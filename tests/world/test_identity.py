"""Identity and reply shape on the embedded world and in the client: nobody can pass for a
seated player, and no text a player types can add a reply line, record or field."""

from __future__ import annotations

import asyncio
import socket

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcpi.minecraft import Minecraft as StockMinecraft

from mcbridge.world import sanitize
from mcbridge.world.aconnection import AsyncConnection
from mcbridge.world.commands import Batch, parse_chats
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.embedded.world import WorldError
from mcbridge.world.errors import ConnectionLost
from mcbridge.world.events import EventPoller, PlayerRegistry
from mcbridge.world.pipeline import Pipeline

IMPOSTORS = ["Aki ", "Aki\u0000", "Aki\u202e", "X\ny", "Aki|5", "A" * 17, "Ak", "Akí", ""]


# -- the escaping ------------------------------------------------------------------------------


@given(st.text())
def test_escaping_round_trips_and_never_adds_a_line_record_or_control(text: str) -> None:
    escaped = sanitize.escape_field(text)
    assert "|" not in escaped and "\n" not in escaped and "\r" not in escaped
    assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in escaped)
    if not any(0xD800 <= ord(c) <= 0xDFFF for c in text):  # lone surrogates cannot round-trip
        assert sanitize.unescape_field(escaped) == text


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cf", "Zl", "Zp", "Cs"), blacklist_characters="\\|")))
def test_ordinary_text_is_not_changed(text: str) -> None:
    assert sanitize.escape_field(text) == text


@given(st.text())
def test_cleaned_chat_has_no_control_format_or_section_sign(text: str) -> None:
    cleaned = sanitize.clean_player_chat(text)
    assert "\u00a7" not in cleaned and len(cleaned) <= sanitize.MAX_CHAT
    assert not any(ord(c) < 32 or c in "\u202e\u2066\u200b\u2028" for c in cleaned)


# -- the registry ------------------------------------------------------------------------------


def _answers(pairs: dict[int, str]) -> list[tuple[int, object]]:
    pipe, batch = Pipeline(), Batch()
    replies = [(eid, batch.entity_name(eid)) for eid in pairs]
    data, _ = pipe.encode(batch.items)
    lines = data.decode().splitlines()
    for line in lines:
        if line.startswith("entity.getName("):
            eid = int(line[len("entity.getName(") : -1])
            pipe.feed(sanitize.escape_field(pairs[eid]))
        elif line.startswith("world.getBlockWithData("):
            pipe.feed("0,0")
        else:  # the closing fence
            corners = [int(v) for v in line[len("world.getBlocks(") : -1].split(",")]
            size = (corners[3] - corners[0] + 1) * (corners[5] - corners[2] + 1)
            pipe.feed(",".join(["0"] * size))
    assert pipe.idle
    return replies  # type: ignore[return-value]


def test_the_registry_keeps_exact_names_and_refuses_impostors(caplog: pytest.LogCaptureFixture) -> None:
    registry = PlayerRegistry()
    names = {1: "Aki", **{10 + i: name for i, name in enumerate(IMPOSTORS)}}
    assert registry.update_ids(names) == sorted(names)
    registry.learn(_answers(names))  # type: ignore[arg-type]
    assert registry.players() == {"Aki": 1}
    assert registry.id_of("Aki") == 1 and registry.name_of(10) is None
    assert "not a Java player name" in caplog.text
    assert registry.update_ids(names) == []  # refused ids are not asked again every poll


def test_an_id_reused_by_someone_else_gets_the_new_name() -> None:
    registry = PlayerRegistry()
    registry.update_ids([1, 2])
    registry.learn(_answers({1: "Aki", 2: "Dan"}))  # type: ignore[arg-type]
    registry.learn(_answers({1: "Dan", 2: "Aki"}))  # type: ignore[arg-type]  # a world restart
    assert registry.players() == {"Dan": 1, "Aki": 2}


def test_chat_records_are_split_only_where_the_server_put_a_bar() -> None:
    posts = parse_chats("5,a\\u007c6\\u002cbluff|6,hi", None)
    assert [(p.entityId, p.message) for p in posts] == [(5, "a|6,bluff"), (6, "hi")]


# -- the embedded world ------------------------------------------------------------------------


@pytest.mark.parametrize("name", IMPOSTORS, ids=repr)
def test_the_embedded_world_refuses_impostor_names(embedded: EmbeddedHandle, name: str) -> None:
    with pytest.raises(WorldError, match="not a valid player name"):
        embedded.players.join(name)


def test_embedded_chat_is_cleaned_escaped_and_attributed_by_id(embedded: EmbeddedHandle) -> None:
    aki, ben = embedded.players.join("Aki"), embedded.players.join("Ben")
    with Connection(embedded.host, embedded.port) as conn:
        poller = EventPoller()
        poller.poll(conn)
        aki.chat("hi|" + str(ben.entity_id) + ",bluff\u202e\u00a7c")
        chats = poller.poll(conn).chats
    assert [(c.entity_id, c.player, c.text) for c in chats] == [(aki.entity_id, "Aki", f"hi|{ben.entity_id},bluffc")]
    assert ben.chat_heard()[-1] == f"<Aki> hi|{ben.entity_id},bluffc"


def test_stock_mcpi_still_reads_ordinary_chat(embedded: EmbeddedHandle) -> None:
    aki = embedded.players.join("Aki")
    mc = StockMinecraft.create(embedded.host, embedded.port)
    mc.conn.socket.settimeout(10)
    mc.getBlock(0, 0, 0)  # a round trip: the session is open, so it receives the chat
    aki.chat("bid red 12, please")
    posts = mc.events.pollChatPosts()
    assert [(p.entityId, p.message) for p in posts] == [(aki.entity_id, "bid red 12, please")]
    mc.conn.socket.close()


# -- the shared secret -------------------------------------------------------------------------

SECRET = "s3cret-for-tests"


def test_the_embedded_world_can_require_a_secret(monkeypatch: pytest.MonkeyPatch) -> None:
    with start_embedded(tps=0, secret=SECRET) as world:
        with Connection(world.host, world.port, secret=SECRET) as conn:
            assert conn.sendReceive("world.getBlock", 0, -5, 0) == "7"
        monkeypatch.setenv("MCBRIDGE_BRIDGE_SECRET", SECRET)  # the client reads it by default
        with Connection(world.host, world.port) as conn:
            assert conn.sendReceive("world.getBlock", 0, -5, 0) == "7"
        monkeypatch.delenv("MCBRIDGE_BRIDGE_SECRET")
        with pytest.raises(ConnectionLost, match="refused the shared secret"):
            Connection(world.host, world.port, secret="not-the-secret")

        async def use() -> str:
            conn = await AsyncConnection.open(world.host, world.port, secret=SECRET)
            try:
                return await conn.query("world.getBlock", 0, -5, 0)
            finally:
                await conn.close()

        assert asyncio.run(use()) == "7"
        raw = socket.create_connection((world.host, world.port), timeout=10)
        raw.sendall(b"world.getBlock(0,-1,0)\nworld.getBlock(0,-1,0)\n")
        assert raw.recv(100) == b"Fail\n"  # refused, nothing run, then closed
        raw.settimeout(10)
        assert raw.recv(100) == b""
        raw.close()


def test_a_secret_must_be_safe_to_send() -> None:
    with pytest.raises(ValueError, match="8-256 printable"):
        Connection("127.0.0.1", 1, secret="a,b(c)d e")
