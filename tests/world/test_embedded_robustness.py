"""Bad input never crashes the embedded world: after every abuse below, the server still
answers a plain query on a fresh connection, and the abusing connection keeps its place
in the reply stream wherever RaspberryJuice would answer."""

from __future__ import annotations

import socket

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rj_support import RawClient

from mcbridge.world.embedded import start_embedded
from mcbridge.world.embedded.session import MAX_LINE_CHARS

SENTINEL = "mcbridge.capabilities()"
SENTINEL_REPLY = "give,tell,private,placements,blocks_with_data,escaped,max_box=4194304"


def assert_alive(server) -> None:
    client = RawClient(server.host, server.port)
    try:
        assert client.ask("world.getBlock(0,-5,0)") == "7"
    finally:
        client.close()


def test_a_huge_line_fails_and_the_stream_goes_on(embedded):
    client = RawClient(embedded.host, embedded.port)
    client.send(b"chat.post(" + b"x" * (MAX_LINE_CHARS + 10) + b")\n" + b"world.getBlock(0,-5,0)\n")
    assert client.lines(2) == ["Fail", "7"]
    client.send(b"chat.post(" + b"y" * (MAX_LINE_CHARS - 20) + b")\nworld.getBlock(0,-5,0)\n")
    assert client.line() == "7"  # long but under the cap: a normal chat line
    assert_alive(embedded)


def test_a_huge_line_without_a_newline_then_eof(embedded):
    sock = socket.create_connection((embedded.host, embedded.port), timeout=10)
    sock.sendall(b"z" * (3 * MAX_LINE_CHARS))
    sock.close()
    assert_alive(embedded)


def test_invalid_utf8_and_control_bytes(embedded):
    client = RawClient(embedded.host, embedded.port)
    client.send(b"\xff\xfe\xfd\n\x00\x01\x02(\x7f)\nworld.getBlock(\xc3\x28,-5,0)\n")
    client.send(b"chat.post(\xed\xa0\x80 lone surrogate \xf4\x90\x80\x80)\n" + SENTINEL.encode() + b"\n")
    assert client.lines(3) == ["Fail", "Fail", SENTINEL_REPLY]
    assert_alive(embedded)


def test_a_multibyte_character_split_across_writes(embedded):
    alice = embedded.players.join("alice")
    client = RawClient(embedded.host, embedded.port)
    encoded = "chat.post(日本)\n".encode()
    client.send(encoded[:11])
    client.send(encoded[11:] + (SENTINEL + "\n").encode())
    assert client.line() == SENTINEL_REPLY
    assert "日本" in alice.chat_heard()


def test_unknown_commands_in_bulk(embedded):
    client = RawClient(embedded.host, embedded.port)
    client.send("".join(f"bogus.command{i}({i})\n" for i in range(5000)) + SENTINEL + "\n")
    assert client.lines(5001) == ["Fail"] * 5000 + [SENTINEL_REPLY]


@pytest.mark.parametrize(
    ("request_line", "reply"),
    [
        ("world.getBlock(1e300,0,-1e300)", "0"),  # saturates to the int range: outside
        ("world.getBlock(NaN,-5,0)", "7"),  # (int) NaN is 0
        ("world.getBlock(Infinity,0,0)", "0"),
        ("world.getBlock(2147483647,-5,2147483647)", "0"),  # wraps around like Java ints
        ("world.getBlock(0,-2147483648,0)", "0"),
        ("world.getBlocks(-1e9,0,0,1e9,0,0)", "Fail"),  # beyond the cuboid cap
        ("world.setBlocks(-1e9,0,0,1e9,0,0,1)", "Fail"),
        ("world.getBlocks(0,-100,0,0,-95,0)", "0,0,0,0,0,0"),  # below the world: air
        ("world.getBlocks(0,-8,0,0,-5,0)", "0,0,0,7"),
        ("world.getHeight(99999999,99999999)", "-5"),  # beyond the world border: empty
        ("player.setPos(1e308,1e308,1e308)", "Fail"),  # nobody online
        ("world.spawnEntity(1e20,0,0,90)", "1"),  # RJ would spawn it; so do we
    ],
)
def test_out_of_range_coordinates(embedded, request_line, reply):
    client = RawClient(embedded.host, embedded.port)
    assert client.ask(request_line) == reply
    assert_alive(embedded)


def test_setblock_far_away_does_not_allocate_the_world(embedded):
    client = RawClient(embedded.host, embedded.port)
    client.send("world.setBlock(29999999,10,-29999999,1)\nworld.setBlock(1e12,10,0,1)\n")
    assert client.ask("world.getBlock(29999999,10,-29999999)") == "1"
    assert embedded.call(lambda: len(embedded.server.world.store.sections())) == 1


def test_ten_thousand_queued_commands_of_every_kind(embedded):
    embedded.players.join("busy")
    lines = []
    for i in range(2000):
        lines += [
            f"world.setBlock({i % 50},{i % 7},3,35,{i % 16})",
            f"world.getBlockWithData({i % 50},{i % 7},3)",
            "events.chat.posts()",
            f"chat.post(message {i})",
            "player.getPos()",
        ]
    client = RawClient(embedded.host, embedded.port)
    client.send("\n".join(lines) + "\n" + SENTINEL + "\n")
    replies = client.lines(6001)
    assert replies[-1] == SENTINEL_REPLY
    assert replies[0] == "35,0" and replies[3] == "35,1"
    assert_alive(embedded)


def test_abrupt_disconnects_leave_other_sessions_alone(embedded):
    keeper = RawClient(embedded.host, embedded.port)
    for _ in range(20):
        sock = socket.create_connection((embedded.host, embedded.port), timeout=10)
        sock.sendall(b"world.getBlocks(0,0,0,20,20,20)\n" * 5)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        sock.close()  # RST with replies still pending
    assert keeper.ask("world.getBlock(0,-5,0)") == "7"
    assert_alive(embedded)


def test_a_client_that_never_reads(embedded):
    sock = socket.create_connection((embedded.host, embedded.port), timeout=10)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    request = b"world.getBlocks(0,0,0,63,63,63)\n"  # 262,144 ids per reply
    for _ in range(12):
        sock.sendall(request)
    assert_alive(embedded)
    sock.close()
    assert_alive(embedded)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(garbage=st.binary(max_size=300))
def test_random_bytes_never_break_the_stream(garbage):
    with start_embedded(tps=0) as server:
        client = RawClient(server.host, server.port)
        client.send(garbage + b"\n" + SENTINEL.encode() + b"\n")
        for _ in range(garbage.count(b"\n") + garbage.count(b"\r") + 2):
            if client.line() == SENTINEL_REPLY:
                break
        else:
            pytest.fail("the sentinel query was never answered")
        client.close()
        assert_alive(server)
