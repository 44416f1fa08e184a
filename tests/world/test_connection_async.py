"""The asyncio front: same pipeline, so the same guarantees, plus safe cancellation."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest
from faults.proxy import FaultProxy

from mcbridge.world import blocks
from mcbridge.world.aconnection import AsyncConnection
from mcbridge.world.blocks import Block
from mcbridge.world.driver import ServerHandle
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.errors import CommandFailed, ConnectionLost, ProtocolError

T = TypeVar("T")
NO_ENTITY = 987_654


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 30))


def test_batches_queries_and_guarded_names(rj_server: ServerHandle, spot: tuple[int, int, int]) -> None:
    x, y, z = spot

    async def scenario() -> None:
        async with await AsyncConnection.open(rj_server.host, rj_server.port) as conn:
            async with conn.batch() as batch:
                batch.set_block((x, y, z), blocks.wool("purple"))
                bad = batch.set_block((x + 1, y, z), 1)
                read = batch.get_block_with_data((x, y, z))
                name = batch.entity_name(NO_ENTITY)
            assert read.result() == blocks.wool("purple") and bad.ok
            assert isinstance(name.error, CommandFailed)
            assert await conn.query("world.getBlock", x + 1, y, z) == "1"
            await conn.send("world.setBlock", x + 2, y, z, 4000)
            with pytest.raises(CommandFailed, match="4000"):
                await conn.sync()
            assert {"give", "tell"} <= await conn.capabilities()
            assert conn.stats.timeouts == 0

    run(scenario())


def test_concurrent_tasks_share_one_connection(embedded: EmbeddedHandle) -> None:
    async def worker(conn: AsyncConnection, column: int) -> list[Block]:
        seen = []
        for i in range(15):
            async with conn.batch() as batch:
                batch.set_block((column, 50, i % 3), blocks.wool((column + i) % 16))
                read = batch.get_block_with_data((column, 50, i % 3))
            seen.append(read.result())
        return seen

    async def scenario() -> None:
        async with await AsyncConnection.open(embedded.host, embedded.port) as conn:
            results = await asyncio.gather(*(worker(conn, c) for c in range(12)))
        for column, seen in enumerate(results):
            assert seen == [blocks.wool((column + i) % 16) for i in range(15)]

    run(scenario())


def test_a_cancelled_wait_does_not_shift_later_replies(embedded: EmbeddedHandle) -> None:
    embedded.set_block(3, 51, 0, 35, 3)
    embedded.set_block(4, 51, 0, 35, 4)

    async def scenario() -> None:
        async with await AsyncConnection.open(embedded.host, embedded.port) as conn:
            embedded.pause()
            try:
                waiting = asyncio.create_task(conn.query("world.getBlockWithData", 3, 51, 0))
                deadline = asyncio.get_running_loop().time() + 10
                while not embedded.queued_lines():  # the query is at the server: it waits
                    assert asyncio.get_running_loop().time() < deadline, "the query never arrived"
                    await asyncio.sleep(0.01)
                waiting.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await waiting
            finally:
                embedded.resume()
            assert await conn.query("world.getBlockWithData", 4, 51, 0) == "35,4"

    run(scenario())


def test_a_silent_query_then_resync(embedded: EmbeddedHandle) -> None:
    async def scenario() -> None:
        conn = await AsyncConnection.open(embedded.host, embedded.port, reply_timeout=10.0, retries=0)
        batch = conn.batch()
        first = batch.get_block((0, 0, 0))
        # RJ never answers this: the closing fence arrives in its place and shows it.
        batch.command("entity.getName", NO_ENTITY, parse=str, guarded=False)
        with pytest.raises(ProtocolError) as caught:
            await batch.flush()
        assert caught.value.desync
        # Its reply did arrive, but a batch that never closed hands out no value: a
        # dropped line would look exactly the same.
        assert first.error is caught.value
        assert await conn.query("world.getBlock", 0, -1, 0) == str(embedded.get_block(0, -1, 0)[0])
        assert conn.stats.resyncs == 1 and conn.stats.reconnects == 0
        await conn.close()

    run(scenario())


def test_dropped_link_reconnects_and_awaits_async_hooks(embedded: EmbeddedHandle) -> None:
    async def scenario(proxy: FaultProxy) -> None:
        conn = await AsyncConnection.open(proxy.host, proxy.port)
        healed: list[int] = []

        async def heal(c: AsyncConnection) -> None:
            async with c.batch() as batch:  # hooks may use the connection they heal
                batch.set_block((0, 52, 0), blocks.DIAMOND_BLOCK)
            healed.append(1)

        conn.on_reconnect.append(heal)
        batch = conn.batch()
        for i in range(40):
            batch.set_block((i, 53, 0), blocks.STONE)
        with pytest.raises(ConnectionLost):
            await batch.flush()
        assert await conn.query("world.getBlock", 0, 52, 0) == str(blocks.DIAMOND_BLOCK.id)
        assert healed == [1] and conn.stats.reconnects == 1
        await conn.close()

    with FaultProxy((embedded.host, embedded.port), cut_after_requests=20) as proxy:
        run(scenario(proxy))
