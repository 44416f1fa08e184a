"""Timeouts, late replies, dropped links, misbehaving servers and many threads: the
connection never loses its place in the reply stream."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from conn_support import ScriptedServer
from faults.proxy import FaultProxy

from mcbridge.world import blocks
from mcbridge.world import connection as connection_module
from mcbridge.world.blocks import Block
from mcbridge.world.connection import Connection, Minecraft
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.errors import (
    CommandFailed,
    ConnectionLost,
    ProtocolError,
    ReplyTimeout,
    Unsupported,
)
from mcbridge.world.pipeline import Reply

NO_ENTITY = 987_654
JOIN = 10.0


#: Every timeout here waits for something that cannot come (a paused server, a command RJ
#: never answers), so it is no race; it is still at least 2 s so that a loaded machine
#: answering the other commands late cannot fail a test.
TIMEOUT = 2.0


class ResumeOnResync(Connection):
    """Resumes the paused embedded server when the connection starts its resync: the late
    replies then arrive just before the resync fence, with no timer involved."""

    def __init__(self, embedded: EmbeddedHandle, **options: Any) -> None:
        self.embedded = embedded
        super().__init__(embedded.host, embedded.port, **options)

    def _resync(self, cause: ReplyTimeout | ProtocolError) -> None:
        self.embedded.resume()
        super()._resync(cause)


def test_a_silent_query_is_caught_by_the_closing_fence(embedded: EmbeddedHandle) -> None:
    with Connection(embedded.host, embedded.port, reply_timeout=TIMEOUT, retries=0) as conn:
        for round_no in range(2):
            batch = conn.batch()
            batch.set_block((round_no, 30, 0), blocks.wool(round_no))
            before = batch.get_block_with_data((round_no, 30, 0))
            # Unguarded on purpose: RJ never answers this, so the batch's closing fence
            # arrives in its place (and is no name), which shows the silence at once.
            silent = batch.command("entity.getName", NO_ENTITY, parse=str, guarded=False)
            with pytest.raises(ProtocolError, match=r"entity\.getName") as caught:
                batch.flush()
            assert caught.value.desync
            # The batch never closed, so even its answered query hands out no value.
            assert before.error is caught.value and silent.error is caught.value
            check = conn.batch()
            again = check.get_block_with_data((round_no, 30, 0))
            check.flush()
            assert again.result() == blocks.wool(round_no)
        assert (conn.stats.timeouts, conn.stats.resyncs, conn.stats.reconnects) == (0, 2, 0)


def test_a_timeout_withdraws_the_whole_batch(embedded: EmbeddedHandle) -> None:
    embedded.set_block(0, 30, 1, 35, 4)
    embedded.pause()
    with ResumeOnResync(embedded, reply_timeout=TIMEOUT, resync_timeout=10, retries=0) as conn:
        batch = conn.batch()
        read = batch.get_block_with_data((0, 30, 1))
        with pytest.raises(ReplyTimeout, match="no reply within"):
            batch.flush()
        assert isinstance(read.error, ReplyTimeout)
        assert Minecraft(conn).getBlockWithData(0, 30, 1) == Block(35, 4)
        assert (conn.stats.timeouts, conn.stats.resyncs, conn.stats.reconnects) == (1, 1, 0)


def test_late_replies_after_a_timeout_are_discarded(embedded: EmbeddedHandle) -> None:
    embedded.set_block(1, 31, 0, 35, 5)
    embedded.pause()
    with ResumeOnResync(embedded, reply_timeout=TIMEOUT, resync_timeout=10, retries=0) as conn:
        batch = conn.batch()
        first = batch.get_block((1, 31, 0))
        setter = batch.set_block((2, 31, 0), blocks.wool("lime"))
        last = batch.get_block((2, 31, 0))
        with pytest.raises(ReplyTimeout):
            batch.flush()  # all answered only after the timeout, then thrown away
        assert isinstance(first.error, ReplyTimeout) and "no reply within" in str(first.error)
        assert isinstance(setter.error, ReplyTimeout) and "reply lost" in str(setter.error)
        assert isinstance(last.error, ReplyTimeout)
        mc = Minecraft(conn)
        assert mc.getBlockWithData(1, 31, 0) == Block(35, 5)
        assert mc.getBlockWithData(2, 31, 0) == blocks.wool("lime")  # it did run, late
        assert conn.stats.reconnects == 0


def test_a_server_that_stops_answering_is_dropped_then_reconnected(
    embedded: EmbeddedHandle,
) -> None:
    embedded.set_block(0, 32, 0, 35, 9)
    hooks: list[Connection] = []
    with Connection(
        embedded.host, embedded.port, reply_timeout=TIMEOUT, resync_timeout=TIMEOUT
    ) as conn:
        conn.on_reconnect.append(hooks.append)
        embedded.pause()
        try:
            with pytest.raises(ReplyTimeout):
                conn.sendReceive("world.getBlock", 0, 32, 0)
            assert not conn.connected
        finally:
            embedded.resume()
        assert Minecraft(conn).getBlockWithData(0, 32, 0) == Block(35, 9)
        assert hooks == [conn] and conn.stats.reconnects == 1


def test_a_link_dropped_mid_batch_reconnects_and_runs_the_hooks(embedded: EmbeddedHandle) -> None:
    with FaultProxy((embedded.host, embedded.port), cut_after_requests=50) as proxy:
        conn = Connection(proxy.host, proxy.port, reply_timeout=5)
        hooks: list[Connection] = []
        conn.on_reconnect.append(hooks.append)
        batch = conn.batch()
        replies: list[Reply[Any]] = [batch.set_block((i, 33, 0), blocks.STONE) for i in range(60)]
        replies += [batch.get_block((i, 33, 0)) for i in range(60)]
        with pytest.raises(ConnectionLost, match="reconnects on next use"):
            batch.flush()
        assert all(r.done for r in replies)
        assert isinstance(replies[-1].error, ConnectionLost)
        with conn.batch() as batch:
            batch.set_block((0, 34, 0), blocks.GOLD_BLOCK)
            read = batch.get_block((0, 34, 0))
        assert read.result() == blocks.GOLD_BLOCK.id
        assert hooks == [conn] and conn.stats.reconnects == 1 and proxy.accepted == 2
        conn.close()


def test_connect_backs_off_until_the_server_is_up(
    embedded: EmbeddedHandle, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server comes up during the first back-off pause (no timer, no re-bound port)."""
    proxy = FaultProxy((embedded.host, embedded.port), listening=False)
    pauses: list[float] = []
    real_sleep = connection_module.time.sleep

    def pause(seconds: float) -> None:
        pauses.append(seconds)
        if len(pauses) == 2:
            proxy.listen()
        real_sleep(seconds)

    monkeypatch.setattr(connection_module.time, "sleep", pause)
    try:
        conn = Connection(proxy.host, proxy.port, connect_timeout=30)
        assert conn.sendReceive("world.getBlock", 0, -1, 0) == str(embedded.get_block(0, -1, 0)[0])
        assert len(pauses) == 2 and pauses[1] == 2 * pauses[0]  # refused twice, doubling
        proxy.cut()
        with pytest.raises(ConnectionLost):
            conn.sendReceive("world.getBlock", 0, 0, 0)
        assert conn.sendReceive("world.getBlock", 0, -1, 0) == str(embedded.get_block(0, -1, 0)[0])
        assert conn.stats.reconnects == 1 and proxy.accepted == 2
        conn.close()
    finally:
        proxy.stop()


def test_an_unexpected_line_is_detected_and_repaired() -> None:
    def respond(line: str) -> list[str]:
        if line.startswith("world.setBlock"):
            return ["Welcome bob"]  # a line nobody asked for
        return ["7"] if line.startswith("world.getBlock(") else []

    with ScriptedServer(respond) as server, Connection(server.host, server.port) as conn:
        batch = conn.batch()
        batch.set_block((0, 0, 0), 1)
        with pytest.raises(ProtocolError) as caught:
            batch.flush()
        assert caught.value.desync
        assert conn.sendReceive("world.getBlock", 0, 0, 0) == "7"
        # A setter batch is idempotent: sent again (each time out of step) until retries run out.
        assert conn.stats.resyncs == conn.retries + 1 and conn.stats.reconnects == 0


def test_plain_raspberryjuice_has_no_private_channel() -> None:
    def respond(line: str) -> list[str]:
        return ["Fail"] if line.startswith("mcbridge.") else []

    with ScriptedServer(respond) as server, Minecraft.create(server.host, server.port) as mc:
        with pytest.raises(Unsupported, match="private messages"):
            mc.tell("bob", "your hand")
        with pytest.raises(Unsupported, match="giving items"):
            mc.give("bob", 35, 14, 10)
        assert mc.capabilities() == frozenset()
        mc.postToChat("public is fine")
        mc.conn.sync()
    assert not any(line.startswith(("mcbridge.tell", "mcbridge.give")) for line in server.received)
    assert server.received.count("mcbridge.capabilities()") == 1


def test_threads_hammering_one_connection_each_get_their_own_answers(
    embedded: EmbeddedHandle,
) -> None:
    problems: list[str] = []
    mc = Minecraft.create(embedded.host, embedded.port, reply_timeout=10)

    def worker(column: int) -> None:
        try:
            for i in range(40):
                y = 40 + i % 6
                mc.setBlock(column, y, 0, 35, (column + i) % 16)
                got = mc.getBlockWithData(column, y, 0)
                if got != Block(35, (column + i) % 16):
                    problems.append(f"thread {column}: read {got} at {i}")
                if i % 10 == 0:
                    mc.setBlock(column, 60, 0, 4000)  # fails; must surface in this thread
                    try:
                        mc.getBlock(column, 0, 0)
                        problems.append(f"thread {column}: failure not raised")
                    except CommandFailed as exc:
                        if exc.command != f"world.setBlock({column},60,0,4000)":
                            problems.append(f"thread {column}: got {exc.command}")
                with mc.batch() as batch:
                    reads = [batch.get_block_with_data((column, 40 + k, 0)) for k in range(6)]
                if reads[i % 6].result() != Block(35, (column + i) % 16):
                    problems.append(f"thread {column}: batch read wrong at {i}")
        except Exception as exc:  # reported below with the thread's column
            problems.append(f"thread {column}: {exc!r}")

    threads = [threading.Thread(target=worker, args=(c,)) for c in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not any(t.is_alive() for t in threads)
    mc.close()
    assert problems == []
