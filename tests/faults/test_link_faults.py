"""A broken link never hands out a wrong value (issue 15: 111 and 148 were accepted).

20,000 queries go through `FaultProxy`, which drops, duplicates, cuts and delays reply lines
and now and then cuts the connection in the middle of a line. Every value the connection
hands out is compared with the world's truth: none may be wrong. Errors (typed: desync,
timeout, lost link) are allowed; they are what a broken link must produce.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
from mcpi.vec3 import Vec3

from faults.proxy import FaultProxy, Faults
from mcbridge.world.blocks import Block
from mcbridge.world.connection import Connection, Minecraft
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.errors import WorldError
from mcbridge.world.geometry import Cuboid
from mcbridge.world.pipeline import Reply

QUERIES = 20_000
BROKEN = Faults(drop=0.003, duplicate=0.003, cut=0.003, delay=0.003, disconnect=0.0002)
SIZE = 12  # the test area: SIZE x 3 x SIZE blocks of random wool at y 0..2


@dataclass
class Tally:
    asked: int = 0
    accepted: int = 0
    wrong: list[str] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)

    def check(self, what: str, got: object, truth: object) -> None:
        self.accepted += 1
        if got != truth:
            self.wrong.append(f"{what}: got {got!r}, truth {truth!r}")

    def error(self, exc: WorldError) -> None:
        name = type(exc).__name__
        self.errors[name] = self.errors.get(name, 0) + 1


@pytest.fixture
def world() -> Iterator[EmbeddedHandle]:
    with start_embedded(tps=0) as handle:
        yield handle


def paint(world: EmbeddedHandle, rng: random.Random) -> dict[tuple[int, int, int], Block]:
    truth = {}
    for x in range(SIZE):
        for y in range(3):
            for z in range(SIZE):
                block = Block(35, rng.randrange(16))
                world.set_block(x, y, z, block.id, block.data)
                truth[(x, y, z)] = block
    return truth


def test_twenty_thousand_queries_through_a_broken_link_accept_no_wrong_value(
    world: EmbeddedHandle,
) -> None:
    rng = random.Random(20)
    truth = paint(world, rng)
    aki = world.players.join("Aki")
    aki.walk_to(3.5, 0.0, 4.5)
    aki_pos = Vec3(3.5, 0.0, 4.5)
    tally = Tally()
    with FaultProxy((world.host, world.port), replies=BROKEN, seed=20) as proxy:
        conn = Connection(proxy.host, proxy.port, reply_timeout=2.0, resync_timeout=2.0)
        mc = Minecraft(conn)
        while tally.asked < QUERIES:
            if rng.random() < 0.1:
                one_mcpi_call(mc, rng, truth, tally)
            else:
                one_batch(conn, rng, truth, aki.entity_id, aki_pos, tally)
        conn.close()
        stats = proxy.replies.stats
    assert tally.wrong == []
    # The link really was broken, the connection noticed, and it still got most answers.
    assert stats.dropped > 20 and stats.duplicated > 20 and stats.cut > 20
    assert stats.disconnects > 0
    assert sum(tally.errors.values()) > 0 and conn.stats.resyncs > 0
    assert tally.accepted > QUERIES // 2, (tally.accepted, tally.errors)


def one_batch(
    conn: Connection,
    rng: random.Random,
    truth: dict[tuple[int, int, int], Block],
    entity_id: int,
    entity_pos: Vec3,
    tally: Tally,
) -> None:
    batch = conn.batch()
    checks: list[tuple[str, Reply[object], Callable[[], object]]] = []

    def ask(what: str, reply: Reply[object], expected: Callable[[], object]) -> None:
        checks.append((what, reply, expected))

    for _ in range(rng.randrange(1, 80)):
        kind = rng.random()
        x, y, z = rng.randrange(SIZE), rng.randrange(3), rng.randrange(SIZE)
        if kind < 0.35:
            ask(
                f"getBlockWithData {x},{y},{z}",
                batch.get_block_with_data((x, y, z)),  # type: ignore[arg-type]
                lambda p=(x, y, z): truth[p],
            )
        elif kind < 0.6:
            ask(f"getBlock {x},{y},{z}", batch.get_block((x, y, z)), lambda: 35)  # type: ignore[arg-type]
        elif kind < 0.8:
            x2, z2 = min(SIZE - 1, x + rng.randrange(4)), min(SIZE - 1, z + rng.randrange(4))
            box = Cuboid((x, 0, z), (x2, 2, z2))
            ask(
                f"getBlocks {box}",
                batch.get_blocks(box),  # type: ignore[arg-type]
                lambda b=box: [truth[(p.x, p.y, p.z)].id for p in b],
            )
        elif kind < 0.9:
            ask("getPlayerIds", batch.get_player_ids(), lambda: [entity_id])  # type: ignore[arg-type]
        elif kind < 0.95:
            ask("entity.getName", batch.entity_name(entity_id), lambda: "Aki")  # type: ignore[arg-type]
        else:
            ask("entity.getPos", batch.entity_pos(entity_id), lambda: entity_pos)  # type: ignore[arg-type]
    tally.asked += len(checks)
    try:
        batch.flush()
    except WorldError as exc:
        tally.error(exc)
    for what, reply, expected in checks:
        if reply.ok:
            tally.check(what, reply.result(), expected())


def one_mcpi_call(mc: Minecraft, rng: random.Random, truth: dict[tuple[int, int, int], Block], tally: Tally) -> None:
    """The stock mcpi surface through our connection: the same guarantee."""
    x, y, z = rng.randrange(SIZE), rng.randrange(3), rng.randrange(SIZE)
    tally.asked += 1
    try:
        if rng.random() < 0.5:
            tally.check("mc.getBlockWithData", mc.getBlockWithData(x, y, z), truth[(x, y, z)])
        else:
            got = mc.getBlocks(x, 0, z, x, 2, z)
            tally.check("mc.getBlocks", got, [truth[(x, h, z)].id for h in range(3)])
    except WorldError as exc:
        tally.error(exc)


def test_the_proxy_drops_duplicates_and_cuts_what_it_is_told_to(world: EmbeddedHandle) -> None:
    """The harness itself, deterministically: every line, then none."""
    world.set_block(0, 0, 0, 35, 14)
    with FaultProxy((world.host, world.port), replies=Faults(duplicate=1.0)) as proxy:
        raw = socket.create_connection((proxy.host, proxy.port), timeout=10)
        lines = raw.makefile("r", encoding="utf-8", newline="\n")
        ask = b"world.getBlockWithData(0,0,0)\n"
        raw.sendall(ask)
        assert [lines.readline(), lines.readline()] == ["35,14\n", "35,14\n"]
        proxy.set_faults(replies=Faults(drop=1.0))
        raw.sendall(ask)
        wait = time.monotonic() + 10  # the reply has passed the proxy (and was dropped)
        while proxy.replies.stats.dropped == 0 and time.monotonic() < wait:
            time.sleep(0.01)
        proxy.set_faults(replies=Faults(cut=1.0))
        raw.sendall(ask)
        first, second = lines.readline(), lines.readline()
        assert first.endswith("\n") and second.endswith("\n")
        assert first[:-1] + second[:-1] == "35,14" and len(first) > 1 and len(second) > 1
        stats = proxy.replies.stats
        assert (stats.duplicated, stats.dropped, stats.cut) == (1, 1, 1)
        raw.close()
