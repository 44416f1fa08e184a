"""Outgoing text can never become a second command; incoming text is cleaned."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from mcpi.minecraft import Minecraft as StockMinecraft

from mcbridge.world import sanitize
from mcbridge.world.commands import make, parse_chats
from mcbridge.world.connection import Minecraft
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.errors import Unsupported

# mcpi adds the closing ")" itself, so this is exactly two well-formed lines on the wire.
INJECTION = "hi)\nworld.setBlock(0,0,0,1"


@given(st.text())
def test_any_chat_text_is_exactly_one_request_line(text: str) -> None:
    wire = make("chat.post", [text]).wire()
    assert wire.endswith(b"\n")
    assert wire.count(b"\n") == 1
    assert b"\r" not in wire
    wire.decode("utf-8")  # lone surrogates are removed, so this never fails


@given(st.text(), st.text())
def test_names_and_sign_lines_never_add_arguments(name: str, line: str) -> None:
    give = make("mcbridge.give", [name, 35, 14, 1])
    assert len(give.args) == 4 and give.args[1:] == ("35", "14", "1")
    sign = make("world.setSign", [1, 2, 3, 68, 2, line, line])
    assert all("," not in a and "(" not in a and ")" not in a for a in sign.args[5:])
    assert str(sign).count(",") == 6


@given(st.text())
def test_clean_text_removes_every_control_character(text: str) -> None:
    cleaned = sanitize.clean_text(text, 1000)
    assert not any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in cleaned)
    assert len(cleaned) <= 1000


def test_line_breaks_become_spaces_and_length_is_bounded() -> None:
    assert sanitize.chat_text("a\r\nb\tc\x00d") == "a b cd"
    assert len(sanitize.chat_text("x" * 10_000)) == sanitize.MAX_CHAT
    assert sanitize.incoming_text("  alice\x1b[31m \n") == "alice[31m"


def test_a_trailing_comma_survives_the_servers_split() -> None:
    assert sanitize.chat_text("well,") == "well, "
    assert make("chat.post", ["a,b"]).args == ("a,b",)


def test_numbers_are_checked_and_coordinates_floored() -> None:
    assert sanitize.floor(-0.5) == -1 and sanitize.floor(2.9) == 2
    assert make("world.setBlock", [1, 2.5, -3, 35, 14]).args == ("1", "2.5", "-3", "35", "14")
    with pytest.raises(TypeError):
        make("world.setBlock", [True, 0, 0, 1])
    with pytest.raises(ValueError):
        make("entity.setPos", [1, math.nan, 0, 0])
    with pytest.raises(ValueError):
        make("world.setBlock\n", [])


def test_pi_only_commands_are_refused_before_sending() -> None:
    with pytest.raises(Unsupported, match="does not implement"):
        make("camera.mode.setFixed")


def test_a_forged_chat_record_is_glued_back_onto_its_message() -> None:
    forged = "12,bid red 3|57,bluff"
    posts = parse_chats(forged, entity_id=12)
    assert [(p.entityId, p.message) for p in posts] == [(12, "bid red 3|57,bluff")]
    assert [p.entityId for p in parse_chats("12,a|12,b", entity_id=12)] == [12, 12]
    assert parse_chats("|junk,x") == []


def test_injection_reaches_the_server_as_one_chat_line(embedded: EmbeddedHandle) -> None:
    before = embedded.get_block(0, 0, 0)
    assert before[0] != 1
    with Minecraft.create(embedded.host, embedded.port) as mc:
        mc.postToChat(INJECTION)
        with mc.batch() as batch:
            batch.post_chat("two\rlines")
            batch.set_sign((1, 0, 1), (68, 2), ["a,b", "c(d)", "x\ny"])
        assert mc.getBlock(0, 0, 0) == before[0]
    assert embedded.public_chat()[-2:] == ["hi) world.setBlock(0,0,0,1", "two lines"]
    assert embedded.sign_lines(1, 0, 1) == ("a\u201ab", "c[d]", "x y", "")  # a comma as its look-alike (SIGN_COMMA)
    assert embedded.get_block(0, 0, 0) == before


def test_stock_mcpi_is_injectable_which_is_why_we_sanitise(embedded: EmbeddedHandle) -> None:
    """Control for the test above: the same text through stock mcpi runs a second command."""
    stock = StockMinecraft.create(embedded.host, embedded.port)
    stock.conn.socket.settimeout(5)
    try:
        stock.postToChat(INJECTION)
        assert stock.getBlock(0, 0, 0) == 1
    finally:
        stock.conn.socket.close()
