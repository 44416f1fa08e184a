"""The runtime's own parts: TableUpdate subscribers, the asyncio shell of the supervisor,
walls the controller owns in booth mode, match seeds."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from table_support import (
    ChatPlayers,
    Rig,
    StepClock,
    answer,
    mcpi_client,
    replay,
    seat_players,
    shipped_arena,
    walk_into_booth,
)

from mcbridge.games.wool_bluff import WoolBluffState
from mcbridge.games.wool_bluff.actions import BidMade
from mcbridge.tables.journal import Journal
from mcbridge.tables.kits.wool_bluff_render import hand_slots
from mcbridge.tables.match_seeds import match_seed
from mcbridge.tables.supervisor import AsyncSupervisor, SupervisorProtocol
from mcbridge.tables.table import Table
from mcbridge.world.aconnection import AsyncConnection
from mcbridge.world.blocks import wool
from mcbridge.world.embedded import EmbeddedHandle


def test_every_applied_action_reaches_subscribers_and_a_slow_or_broken_one_costs_the_table_nothing(
        rig: Callable[..., Rig]) -> None:
    r = rig(shipped_arena(options={"turns": 1}))
    table = r.table
    everything = table.updates.subscribe(limit=10_000)
    slow = table.updates.subscribe(limit=3)  # never drained until the end
    table.updates.subscribe_inline(lambda update: 1 / 0)  # a broken subscriber: logged, ignored
    players = seat_players(r)
    r.bots.append(ChatPlayers(players, lambda: table.state))
    r.finish()
    assert table.match_id is not None
    saved = r.journal.match(table.match_id)
    updates = everything.drain()
    assert [u.seq for u in updates] == list(range(len(saved.actions)))
    assert [u.seat for u in updates] == [seat for seat, _ in saved.actions]
    assert {u.table for u in updates} == {r.arena.name} and {u.match for u in updates} == {table.match_id}
    assert any(isinstance(e, BidMade) for u in updates for e in u.events)
    state = table.state
    assert isinstance(state, WoolBluffState)
    assert updates[-1].public == state.view(None)  # the public view after the last action
    assert "hand" not in updates[-1].public and "hands" not in updates[-1].public
    assert [u.seq for u in slow.drain()] == [u.seq for u in updates[-3:]]  # the newest kept
    assert slow.dropped == len(updates) - 3
    assert everything.drain() == []


def test_the_asyncio_supervisor_plays_a_match_like_the_sync_one(world: EmbeddedHandle, tmp_path: Path) -> None:
    arena = shipped_arena(options={"turns": 1})
    clock = StepClock()
    journal = Journal(tmp_path / "journal.sqlite")
    players = []
    for booth, name in enumerate(["Aki", "Ben"]):
        players.append(world.players.join(name))
        walk_into_booth(players[-1], arena, booth)

    async def play() -> Table:
        conn = await AsyncConnection.open(world.host, world.port)
        caps = await conn.capabilities()
        table = Table(arena, journal, clock, seed=3, can_tell="tell" in caps, start_delay=0.5)
        supervisor = AsyncSupervisor(conn, [table])
        chatters = ChatPlayers(players, lambda: table.state)
        try:
            for _ in range(3000):
                if table.finished:
                    break
                clock.now += 0.05
                await supervisor.step()
                chatters.act()
        finally:
            await conn.close()
        return table

    table = asyncio.run(play())
    assert table.finished and table.match_id is not None
    assert replay(table.game, journal.match(table.match_id)) == table.state
    assert any("bid" in line.lower() for line in players[0].chat_heard())
    journal.close()


def test_in_booth_mode_wool_placed_on_a_wall_is_removed_and_nobody_is_blamed(
        rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    """The controller draws booth-mode walls itself: a block it did not write is not the seat's."""
    # hands of 8 on walls of 10: two cells the controller leaves empty
    r = rig(shipped_arena(tamper="forfeit", options={"turns": 1, "hand_size": 8}))
    players = seat_players(r)
    table = r.table
    r.run_until(lambda: table.state is not None and table.state.phase == "bid", max_cycles=200)
    wall = r.arena.seats[1].wool_wall.cells
    framer = world.players.join("Framer")
    world.give("Framer", wool("red").id, wool("red").data, 2)
    for cell in wall[-2:]:  # two extra wool on Ben's wall before the Reveal
        p = r.arena.frame.to_world(cell)
        framer.place(p.x, p.y, p.z, wool("red").id, wool("red").data)
    r.bots.append(ChatPlayers(players, lambda: table.state))
    r.run_until(lambda: table.finished)
    state = table.state
    assert isinstance(state, WoolBluffState) and state.last_reveal is not None
    assert state.last_reveal["tampered"] == []  # nobody blamed
    assert all(state.active)  # with tamper: forfeit nobody was put out for it
    r.step()
    r.step()
    mc = mcpi_client(world)
    shown = []
    for cell in wall:
        p = r.arena.frame.to_world(cell)
        block = mc.getBlockWithData(p.x, p.y, p.z)
        shown.append((block.id, block.data))
    mc.conn.socket.close()
    assert state.is_over  # one turn: the revealed hands stay up with the standings
    expected = [(wool(c).id, wool(c).data) for c in hand_slots(state.last_reveal["hands"][1])]
    assert shown == expected + [(0, 0)] * (len(wall) - len(expected))  # Ben's hand, nothing of the framer's


def test_each_match_seed_is_128_bits_from_secrets_and_survives_the_journal(rig: Callable[..., Rig]) -> None:
    r = rig(shipped_arena(), seed=None)
    seat_players(r, 2)
    assert r.table.match_id is not None
    seed = r.table.match_seed
    assert seed.bit_length() > 64  # fails once in 2**64 runs: more than SQLite's integers hold
    assert r.journal.match(r.table.match_id).seed == seed  # stored exactly
    assert len({match_seed(None, "a", 0) for _ in range(3)}) == 3  # fresh every time
    assert match_seed(7, "a", 0) == match_seed(7, "a", 0) != match_seed(7, "a", 1)  # --seed: reproducible


#: What an untouched world answers to the reads a cycle may carry besides the polls (the
#: shell probe reads floor cells): air, in the shape the client checks.
def test_the_supervisor_protocol_runs_without_any_io(tmp_path: Path) -> None:
    """Sans-I/O: plan a batch, absorb scripted replies; no socket, no server, no clock of its own."""
    arena = shipped_arena()
    clock = StepClock()
    table = Table(arena, Journal(tmp_path / "journal.sqlite"), clock, seed=1, start_delay=0.5)
    protocol = SupervisorProtocol([table])

    names = answer(protocol.start_cycle(), {})  # the first write: the whole arena, then the polls
    assert names.count("world.setSign") >= len(arena.board_signs) and names[-2:] == ["world.getPlayerIds",
                                                                                 "events.block.hits"]
    assert protocol.absorb() is None and protocol.cycles == 1

    # a player appears: one more round for the name before the cycle's hits are dispatched
    join = arena.frame.to_world(arena.seats[2].signs["join"].at)
    batch = protocol.start_cycle()
    answer(batch, {"world.getPlayerIds": "41", "events.block.hits": f"{join.x},{join.y},{join.z},1,41"})
    names_batch = protocol.absorb()
    assert names_batch is not None and answer(names_batch, {"entity.getName": "Aki"}) == ["entity.getName"]
    assert protocol.absorb() is None
    assert table.occupants[2] is not None and table.occupants[2].name == "Aki"

    batch = protocol.start_cycle()  # the next write says so, and asks Aki's chat and where others stand
    names = answer(batch, {"world.getPlayerIds": "41"})
    assert "chat.post" in names and "entity.events.chat.posts" in names
    assert "entity.getPos" not in names  # a seated player need not be located
    assert protocol.absorb() is None
