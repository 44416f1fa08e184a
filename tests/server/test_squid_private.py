"""Private blocks and placement attribution on the real server, tried as a curious (or
framing) player would ([FAIRPLAY] 2 and 3).

The shipped Wool Bluff arena is built (away from the other tests' arenas), each of two seats'
hand display gets its owner's wool as private blocks over the neutral empty-slot glass, and
each booth's inside signs get private text over blank public signs. mineflayer clients then
read what their chunk data holds (`bot.blockAt`, sign text from block entities) and what any
block or sign packet ever told them (`received_at`, what a logging client would have), from
the plaza, from inside the other seat's booth and from their own. The owner reads everything
of theirs, also after a rejoin and after a teleport away (the chunks unload) and back.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from squid_support import unique_name, wait_until

from mcbridge import CONFIG_DIR
from mcbridge.tables.build import build_arena
from mcbridge.tables.config import Arena, SeatPlan, load_arena
from mcbridge.tables.layout import EMPTY_SLOT, arena_layout, wall_torch
from mcbridge.world.blocks import Block
from mcbridge.world.botrunner import BotPlayer
from mcbridge.world.commands import BlockChange
from mcbridge.world.connection import Connection
from mcbridge.world.geometry import ArenaFrame, Cuboid, Pos
from mcbridge.world.realserver import FlyingSquidServer

#: Far enough from the spawn that the other tests' arenas and areas are not touched.
ORIGIN = (40, -1, 60)
HANDS = [
    [Block(35, c) for c in (14, 14, 11, 4, 0, 5, 5, 14, 15, 1)],  # seat 0: red, blue, yellow...
    [Block(35, c) for c in (2, 3, 3, 6, 7, 9, 10, 12, 13, 13)],  # seat 1: other colours
]
FAR_AWAY = (600, 0, 600)


@dataclasses.dataclass
class PrivateSeat:
    """One seat's private cells in protocol coordinates, with what only its owner may see."""

    owner: str
    blocks: dict[Pos, Block]  # hand display cell -> wool
    signs: dict[Pos, tuple[str, str, str, str]]  # inside sign -> private text
    neutral: Block
    standing: Pos  # a spot inside the booth


def plan_seat(arena: Arena, seat: SeatPlan, owner: str, hand: list[Block]) -> PrivateSeat:
    frame = arena.frame
    cells = [frame.to_world(p) for p in seat.hand_display.cells]
    inside = [s for s in seat.signs.values() if seat.interior.cuboid.contains(s.at)]
    signs = {
        frame.to_world(s.at): (f"{owner[:12]}", f"secret {seat.index}", f"{n}", "hand")
        for n, s in enumerate(inside)
    }
    centre = seat.interior.cuboid.lo + Pos(2, 0, 1)
    return PrivateSeat(
        owner=owner,
        blocks=dict(zip(cells, hand, strict=True)),
        signs=signs,
        neutral=frame.block_to_world(EMPTY_SLOT),
        standing=frame.to_world(centre),
    )


@pytest.fixture(scope="module")
def arena(squid: FlyingSquidServer) -> Iterator[Arena]:
    shipped = load_arena(CONFIG_DIR / "arenas" / "wool_bluff.yaml")
    moved = dataclasses.replace(shipped, frame=ArenaFrame.of(ORIGIN, shipped.frame.facing))
    with Connection(squid.host, squid.port) as conn:
        build_arena(conn, moved, arena_layout(moved))
    yield moved


def show_private(conn: Connection, seat: PrivateSeat) -> None:
    # A private sign hangs like the world's sign there: same id and data, other text.
    with conn.batch() as batch:
        hanging = {pos: batch.get_block_with_data(pos) for pos in seat.signs}
    with conn.batch() as batch:
        for pos, block in seat.blocks.items():
            batch.private_set_block(seat.owner, pos, block)
        for pos, lines in seat.signs.items():
            batch.private_set_sign(seat.owner, pos, hanging[pos].result(), lines)


def teleport(conn: Connection, bot: BotPlayer, where: Pos | tuple[int, int, int]) -> None:
    x, y, z = where
    with conn.batch() as batch:
        batch.set_entity_tile(bot.entity_id, (x, y, z))
    wait_until(lambda: _near(bot.position(), (x, y, z)), what=f"{bot.name} at {where}")


def _near(a: tuple[float, float, float], b: tuple[int, int, int]) -> bool:
    return all(abs(p - q) < 1.0 for p, q in zip(a, b, strict=True))


def sees_all_of(bot: BotPlayer, seat: PrivateSeat) -> bool:
    blocks_ok = all(bot.seen_block(*p) == tuple(b) for p, b in seat.blocks.items())
    return blocks_ok and all(bot.seen_sign(*p) == t for p, t in seat.signs.items())


def assert_nothing_leaked_to(bot: BotPlayer, seat: PrivateSeat) -> None:
    """`bot` (not the owner) holds no private block or text of `seat`, now or ever."""
    for pos, block in seat.blocks.items():
        assert bot.seen_block(*pos) == tuple(seat.neutral), (bot.name, pos)
        ever = bot.received_at(*pos)
        assert list(block) not in ever["states"], (bot.name, pos, ever)
    for pos, text in seat.signs.items():
        assert bot.seen_sign(*pos) == ("", "", "", ""), (bot.name, pos)
        ever = bot.received_at(*pos)
        assert list(text) not in ever["texts"], (bot.name, pos, ever)
        assert not any("secret" in line for lines in ever["texts"] for line in lines)


def test_nobody_but_the_owner_reads_a_private_hand(squid, arena, join):
    alice, bob, eve = join("alice"), join("bob"), join("eve")
    seats = [
        plan_seat(arena, arena.seats[0], alice.name, HANDS[0]),
        plan_seat(arena, arena.seats[1], bob.name, HANDS[1]),
    ]
    plaza = arena.frame.to_world(Pos(18, 1, 4))
    with Connection(squid.host, squid.port) as conn:
        for bot in (alice, bob, eve):
            teleport(conn, bot, plaza)
        for seat in seats:
            show_private(conn, seat)
        wait_until(lambda: sees_all_of(alice, seats[0]), what="alice's hand and signs")
        wait_until(lambda: sees_all_of(bob, seats[1]), what="bob's hand and signs")
        for seat, other in ((seats[0], bob), (seats[1], alice)):
            assert_nothing_leaked_to(other, seat)
            assert_nothing_leaked_to(eve, seat)

        # Inside the other's booth (each has the other's hand display a block away).
        teleport(conn, alice, seats[1].standing)
        teleport(conn, bob, seats[0].standing)
        teleport(conn, eve, seats[0].standing)
        wait_until(lambda: sees_all_of(alice, seats[0]) and sees_all_of(bob, seats[1]))
        assert_nothing_leaked_to(alice, seats[1])
        assert_nothing_leaked_to(bob, seats[0])
        assert_nothing_leaked_to(eve, seats[0])
        assert_nothing_leaked_to(eve, seats[1])

        # The world itself keeps the neutral blocks and blank signs.
        with conn.batch() as batch:
            world = [batch.get_block_with_data(p) for p in seats[0].blocks]
        assert {reply.result() for reply in world} == {seats[0].neutral}


def test_the_owner_keeps_the_hand_across_a_rejoin_a_teleport_and_resends(squid, arena, join):
    name = unique_name("keeper")
    seat = plan_seat(arena, arena.seats[2], name, HANDS[0])
    bystander = join("bystander")
    with Connection(squid.host, squid.port) as conn:
        show_private(conn, seat)  # before the owner is even online
        teleport(conn, bystander, seat.standing)
        owner = squid.players.join(name)
        try:
            teleport(conn, owner, seat.standing)
            wait_until(lambda: sees_all_of(owner, seat), what="the hand on first join")
            owner.leave()
            owner = squid.players.join(name)
            teleport(conn, owner, seat.standing)
            wait_until(lambda: sees_all_of(owner, seat), what="the hand after a rejoin")
            teleport(conn, owner, FAR_AWAY)
            any_cell = next(iter(seat.blocks))
            wait_until(lambda: owner.seen_block(*any_cell) is None, what="the booth's chunk unloaded")
            teleport(conn, owner, seat.standing)
            wait_until(lambda: sees_all_of(owner, seat), what="the hand after coming back")
            # A world write over a private cell (the controller redrawing the glass) keeps it.
            with conn.batch() as batch:
                batch.set_block(any_cell, Block(20, 0))
                batch.set_block(any_cell, seat.neutral)
            wait_until(lambda: sees_all_of(owner, seat), what="the hand after a world write")
            # So does a write large enough that the bridge re-sends the whole chunk column.
            corner = Pos(any_cell.x // 16 * 16, 100, any_cell.z // 16 * 16)
            column = Cuboid(corner, corner + Pos(15, 2, 15))  # 768 blocks: over 512 in a column
            with conn.batch() as batch:
                batch.fill(column, Block(1, 0))
                batch.fill(column, Block(0, 0))
            wait_until(lambda: sees_all_of(owner, seat), what="the hand after a column re-send")
            assert_nothing_leaked_to(bystander, seat)
        finally:
            owner.leave()


def test_wool_on_another_seats_wall_and_a_broken_torch_name_the_player(squid, arena, join):
    """[FAIRPLAY] 3: the placer, not the wall's seat, is who the server reports."""
    eve = join("framer")
    frame, seat = arena.frame, arena.seats[1]
    wall_cell = frame.to_world(seat.wool_wall.cells[-1])  # bottom row, next to the floor
    torch_cell = frame.to_world(seat.torch_wall.cells[0])
    torch = frame.block_to_world(wall_torch(seat.torch_wall.faces))
    with Connection(squid.host, squid.port) as conn:
        with conn.batch() as batch:
            batch.set_block(torch_cell, torch)
            batch.poll_placed()
            batch.poll_broken()
        teleport(conn, eve, frame.to_world(seat.wool_wall.cells[-1].offset(dz=-3)))
        eve.hold(35, 14)
        eve.place(*wall_cell, 35, 14)
        eve.break_block(*torch_cell)
        placed = wait_until(lambda: poll(conn, "placed"), what="the placement")
        broken = wait_until(lambda: poll(conn, "broken"), what="the broken torch")
    assert placed == [BlockChange(eve.entity_id, wall_cell, Block(35, 14))]
    assert broken == [BlockChange(eve.entity_id, torch_cell, torch)]


def poll(conn: Connection, kind: str) -> list[BlockChange]:
    with conn.batch() as batch:
        reply = batch.poll_placed() if kind == "placed" else batch.poll_broken()
    return reply.result()
