"""flying-squid killed mid-match and started again empty (issue 15, item 1, on the real server).

A match is played twice on servers of its own (this test kills them, so not the session's):
once calm, once with the server SIGKILLed by PID a few actions in and a new one started on the
same two ports with an empty world. Two tables: Wool Bluff (booth mode, `TableBot`s) and Dice
Bluff (a sign table, `SignBot`s clicking its signs), three mineflayer bots each. The bots
rejoin in reversed order before the controller is back, so flying-squid hands the old entity
ids to other people. The controller must notice the lost link and pause the timers, reconnect,
see the emptied world (the floor probe), rebuild the arena shell, re-render the signs and the
booths, learn who is who again, and resume the timers with the time that was left; the match
then ends with exactly the calm run's journal and result. The embedded world's twins of this
test are tests/tables/test_world_restart.py and test_every_kit_restart.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from faults.harness import rejoin, restart_squid, step_through_outages
from squid_match_support import BridgeReader, ReachingPlayer, SquidRig, make_rig, shipped_arena
from squid_sign_support import SignBot, seat_sign_bots
from squid_support import start_or_skip, wait_until

from mcbridge import CONFIG_DIR
from mcbridge.games.dice_bluff import DiceBluffBot
from mcbridge.tables.config import Arena, load_arena
from mcbridge.tables.demo import TableBot
from mcbridge.tables.shell import ShellWatch
from mcbridge.world.driver import DIAMOND_SWORD
from mcbridge.world.geometry import Pos
from mcbridge.world.realserver import FlyingSquidServer

pytestmark = [pytest.mark.server, pytest.mark.slow]

NAMES = ["Aki", "Ben", "Chie"]
RECONNECT_CYCLES = 20  # cycles the controller gets to find the new server
MATCH_SECONDS = 240.0  # wall-clock cap on one match (a loaded machine: bots walk slowly)
Played = tuple[list[tuple[int, dict[str, Any]]], dict[str, Any] | None]


@dataclass(frozen=True)
class Case:
    """One table under the restart: its arena, how its bots sit down, how they come back."""

    arena: Callable[[], Arena]
    seat: Callable[[SquidRig, FlyingSquidServer], None]
    back_in: Callable[[Any], None]  # after the restart: sword in hand, into the booth
    seed: int
    restart_at: int  # journaled actions (the deal included) before the server is killed


def seat_table_bots(rig: SquidRig, server: FlyingSquidServer) -> None:
    """Wool Bluff's bots walk from the spawn to the backs of booths 0..2, click the join signs."""
    bots = [
        TableBot(rig.table, ReachingPlayer(server.players.join(name), rig.arena), booth, 12)
        for booth, name in enumerate(NAMES)
    ]
    rig.in_parallel([partial(bot.sit_down, by_walking=False) for bot in bots])
    rig.run_until(
        lambda: [o.name if o else None for o in rig.table.occupants[: len(NAMES)]] == NAMES,
        "the join-sign clicks seat the bots",
        max_cycles=40,
        bots_act=False,
    )
    rig.bots = bots


def seat_dice_bots(rig: SquidRig, server: FlyingSquidServer) -> None:
    bots = [
        SignBot(rig.table, ReachingPlayer(server.players.join(name), rig.arena), booth, 13, DiceBluffBot())
        for booth, name in enumerate(NAMES)
    ]
    seat_sign_bots(rig, bots)


def sign_bot_back_in(bot: SignBot) -> None:
    bot.player.hold(DIAMOND_SWORD)
    bot.go("inside")


def dice_arena() -> Arena:
    arena = load_arena(CONFIG_DIR / "arenas" / "dice_bluff.yaml")
    return dataclasses.replace(arena, options={**arena.options, "dice_per_player": 1})


CASES = {
    "wool_bluff": Case(
        lambda: shipped_arena(dispensing="booth", options={"turns": 2}),
        seat_table_bots,
        lambda bot: bot.sit_down(by_walking=True),
        seed=4,
        restart_at=8,
    ),
    "dice_bluff": Case(dice_arena, seat_dice_bots, sign_bot_back_in, seed=5, restart_at=3),
}


@pytest.fixture
def servers() -> Iterator[list[FlyingSquidServer]]:
    """Servers this test starts; whatever is still running at the end is stopped."""
    started: list[FlyingSquidServer] = []
    yield started
    for server in started:
        server.stop()


def played(rig: SquidRig) -> Played:
    assert rig.table.match_id is not None
    saved = rig.journal.match(rig.table.match_id)
    return saved.actions, saved.result


def shell_blocks(reader: BridgeReader, rig: SquidRig) -> tuple[list[int], list[int]]:
    """(found, wanted) block ids at the cells the controller's floor probe reads."""
    watch = ShellWatch(rig.arena)
    found = reader.blocks_with_data(list(watch.expected))
    return [b.id for b in found], list(watch.expected.values())


def calm_run(case: Case, servers: list[FlyingSquidServer], journal: Path) -> Played:
    server = start_or_skip()
    servers.append(server)
    rig = make_rig(server, case.arena(), journal, case.seed)
    try:
        case.seat(rig, server)
        rig.run_until(lambda: rig.table.finished, "the calm match", max_seconds=MATCH_SECONDS)
        return played(rig)
    finally:
        rig.close()
        server.stop()


@pytest.mark.parametrize("game", list(CASES))
def test_a_killed_server_restarted_empty_mid_match_ends_the_match_as_without_it(
    game: str, servers: list[FlyingSquidServer], tmp_path: Path
) -> None:
    case = CASES[game]
    expected = calm_run(case, servers, tmp_path / "calm.sqlite")

    server = start_or_skip()
    servers.append(server)
    rig = make_rig(server, case.arena(), tmp_path / "journal.sqlite", case.seed)
    reader: BridgeReader | None = None
    try:
        case.seat(rig, server)
        rig.run_until(lambda: rig.table.state is not None and rig.table.seq >= case.restart_at, "a few actions in")
        rig.step()  # the bots' last clicks are taken before the server goes
        at = rig.table.seq
        assert 0 < at < len(expected[0])
        old_ids = {bot.player.name: bot.player.entity_id for bot in rig.bots}

        restarted = restart_squid(server)
        servers.append(restarted)
        assert (restarted.port, restarted.minecraft_port) == (server.port, server.minecraft_port)
        reader = BridgeReader(restarted.port)
        found, wanted = shell_blocks(reader, rig)
        assert all(f != w for f, w in zip(found, wanted, strict=True))  # empty: no arena at all
        # back in reversed order before the controller is: ids now belong to other people
        rejoin(rig.bots[::-1], range(len(NAMES)), lambda name: ReachingPlayer(restarted.players.join(name), rig.arena))
        new_ids = {bot.player.name: bot.player.entity_id for bot in rig.bots}
        assert any(old_ids[a] == new_ids[b] for a in old_ids for b in new_ids if a != b), (old_ids, new_ids)

        assert not step_through_outages(rig)  # the link is gone: the tables pause
        left = {seat: due - rig.clock.now for seat, due in rig.table.deadlines.items()}
        assert left  # someone's clock was running
        rig.clock.now += 10 * max(rig.arena.timeouts.values())  # a long outage on the step clock
        for _ in range(RECONNECT_CYCLES):
            if step_through_outages(rig):
                break
        else:
            raise AssertionError("the controller did not reconnect")
        assert rig.supervisor.conn.stats.reconnects == 1
        assert rig.table.seq == at  # nobody was played through for the outage
        assert rig.table.deadlines.keys() == left.keys()
        assert all(abs(rig.table.deadlines[s] - rig.clock.now - left[s]) < 1.0 for s in left)  # the time left
        for _ in range(3):
            rig.step()  # probe, rebuild, re-render
        found, wanted = shell_blocks(reader, rig)
        assert found == wanted
        for booth, name in enumerate(NAMES):  # the join signs name their players again
            join_sign = rig.arena.frame.to_world(rig.arena.seats[booth].signs["join"].at)
            wait_until(partial(sign_says, restarted, join_sign, name), what=f"the join sign of booth {booth}")
        status = rig.arena.frame.to_world(rig.arena.board_signs["status"].at)
        assert restarted.sign_lines(status.x, status.y, status.z) is not None
        assert [o.name if o else None for o in rig.table.occupants[: len(NAMES)]] == NAMES  # seats kept
        registry = rig.supervisor.protocol.registry  # who is who: learned again from the new ids
        assert {bot.player.name: registry.name_of(bot.player.entity_id) for bot in rig.bots} == {n: n for n in NAMES}

        rig.in_parallel([partial(case.back_in, bot) for bot in rig.bots])  # sword in hand, into the booth
        rig.run_until(lambda: rig.table.finished, "the match after the restart", max_seconds=MATCH_SECONDS)
        assert played(rig) == expected
    finally:
        if reader is not None:
            reader.close()
        rig.close()


def sign_says(server: FlyingSquidServer, at: Pos, words: str) -> bool:
    lines = server.sign_lines(at.x, at.y, at.z)
    return lines is not None and any(words in line for line in lines)
