"""Conformance: RaspberryJuice's tick model (protocol/raspberryjuice.md §1 "Where and how
fast commands run", "Latency").

Replies leave only on a server tick; each tick runs at most 9000 lines per connection;
a malformed line ends its session's turn in the tick (RJ also loses every later session's
turn, which lets one connection stall all others with blank lines: both servers here
deliberately do not).
These tests count ticks on the embedded world's clock (pausing it and stepping single
ticks where a boundary must be exact), never wall time. A real server exposes no tick
counter, so they are embedded-only.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from rj_support import RawClient, connect_mcpi, only_embedded, wait_until

from mcbridge.world.embedded import EmbeddedHandle, start_embedded

NO_TICKS = "a real server has no tick counter to read"
QUERY = "world.getBlock(0,-5,0)\n"  # bedrock: "7"


@pytest.fixture
def paused(rj_server) -> EmbeddedHandle:
    only_embedded(rj_server, NO_TICKS)
    assert isinstance(rj_server, EmbeddedHandle)
    return rj_server


@pytest.fixture
def ticking() -> Iterator[EmbeddedHandle]:
    """An embedded world at Minecraft's 20 ticks per second."""
    with start_embedded(tps=20) as handle:
        yield handle


def _queued(server: EmbeddedHandle, count: int) -> None:
    wait_until(lambda: server.queued_lines() == count, what=f"{count} queued lines")


def test_replies_wait_for_a_tick(paused, raw):
    client = raw()
    paused.pause()
    client.send(QUERY)
    _queued(paused, 1)  # the server has the line but does not answer between ticks
    paused.step()
    assert client.line() == "7"


def test_pipelined_queries_are_all_answered_in_one_tick(paused, raw):
    client = raw()
    paused.pause()
    client.send(QUERY * 50)
    _queued(paused, 50)
    paused.step()
    assert client.lines(50) == ["7"] * 50
    assert paused.queued_lines() == 0


def test_at_most_9000_lines_per_connection_per_tick(paused, raw, caplog):
    busy, other = raw(), raw()
    paused.pause()
    busy.send(QUERY * 9001)
    other.send(QUERY * 10)
    _queued(paused, 9011)
    with caplog.at_level(logging.WARNING, logger="mcbridge.world.embedded"):
        paused.step()
    assert busy.lines(9000) == ["7"] * 9000
    assert other.lines(10) == ["7"] * 10  # the budget is per connection
    assert paused.queued_lines() == 1  # deferred to the next tick
    assert "Over 9000 commands were queued - deferring 1 to next tick" in caplog.text
    paused.step()
    assert busy.line() == "7"


def test_a_malformed_line_ends_only_its_own_sessions_turn(paused, raw):
    first, culprit, last = raw(), raw(), raw()  # sessions run in connection order
    paused.pause()
    first.send(QUERY)
    culprit.send(QUERY + "not a command\n" + QUERY)
    last.send(QUERY)
    _queued(paused, 5)
    paused.step()
    assert first.line() == "7"
    assert culprit.line() == "7"  # lines before the malformed one did run
    assert last.line() == "7"  # a later session is not held up
    assert paused.queued_lines() == 1  # only the culprit's rest waits
    paused.step()
    assert culprit.line() == "7"


def test_a_blank_line_flood_does_not_stall_other_connections(paused, raw):
    flooder, other = raw(), raw()
    paused.pause()
    flooder.send("\n" * 500)
    other.send(QUERY)
    _queued(paused, 501)
    paused.step()
    assert other.line() == "7"  # in the first tick, not after 500 of them


def test_a_query_is_answered_no_earlier_than_the_next_tick(ticking):
    client = RawClient(ticking.host, ticking.port)
    try:
        before = ticking.ticks
        assert client.ask(QUERY.strip()) == "7"
        assert ticking.ticks >= before + 1
    finally:
        client.close()


def test_strict_request_reply_costs_a_tick_per_query(ticking):
    mc = connect_mcpi(ticking.host, ticking.port)
    try:
        before = ticking.ticks
        for _ in range(10):
            assert mc.getBlock(0, -5, 0) == 7
        assert ticking.ticks - before >= 10
    finally:
        mc.conn.socket.close()


def test_over_9000_pipelined_lines_need_several_ticks(ticking):
    client = RawClient(ticking.host, ticking.port)
    try:
        before = ticking.ticks
        client.send(QUERY * 18_001)
        assert client.lines(18_001) == ["7"] * 18_001
        assert ticking.ticks - before >= 3  # 9000 + 9000 + 1
    finally:
        client.close()
