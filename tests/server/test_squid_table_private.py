"""[FAIRPLAY] on flying-squid: a table with private booths, read by real Minecraft clients.

The controller's table (private blocks on, as `mcbridge run` does when the bridge lists
`private`) deals a match; each mineflayer client is asked what its chunk data showed at
every hand display cell and private sign, and everything it was ever sent there: a player
reads its own hand, nobody else reads anything of it (another seated player, a spectator
standing inside the booth), and the world itself holds the booth wall and blank signs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from squid_match_support import ReachingPlayer, make_rig, shipped_arena
from squid_support import wait_until

from mcbridge.games.wool_bluff import WoolBluffState
from mcbridge.tables.demo import TableBot
from mcbridge.tables.kits.wool_bluff_render import WOOL_OF, hand_slots
from mcbridge.world.botrunner import BotPlayer
from mcbridge.world.geometry import Pos
from mcbridge.world.realserver import FlyingSquidServer

pytestmark = pytest.mark.server

PRIVATE_SIGNS = ("colour", "bid", "info")
WOOL = 35


def stripped(lines: tuple[str, ...] | None) -> tuple[str, ...] | None:
    return None if lines is None else tuple(line.strip() for line in lines)


def sees(bot: BotPlayer, blocks: dict[Pos, tuple[int, int]]) -> bool:
    return all(bot.seen_block(*p) == b for p, b in blocks.items())


def test_each_client_reads_only_its_own_hand(
    squid: FlyingSquidServer, join: Callable[[str], BotPlayer], tmp_path: Path
) -> None:
    rig = make_rig(squid, shipped_arena(options={"turns": 1}), tmp_path / "journal.sqlite", seed=3, private=True)
    try:
        assert rig.table.can_private
        arena, frame = rig.arena, rig.arena.frame
        bots = [TableBot(rig.table, ReachingPlayer(join(prefix), arena), b, 11) for b, prefix in enumerate("pq")]
        rig.in_parallel([partial(bot.sit_down, by_walking=False) for bot in bots])
        rig.bots = bots
        rig.run_until(
            lambda: isinstance(rig.table.state, WoolBluffState) and rig.table.state.phase == "bid",
            "the match is dealt",
            max_cycles=200,
            bots_act=False,
        )
        rig.step()
        state = rig.table.state
        assert isinstance(state, WoolBluffState)
        spectator = join("spy")
        inside = arena.seats[0].interior.cuboid.lo + Pos(2, 0, 1)
        # in booth 0 (the supervisor does not step meanwhile, so the booth guard leaves the spy there)
        with rig.conn.batch() as batch:
            batch.set_entity_tile(spectator.entity_id, frame.to_world(inside))
        wait_until(lambda: Pos.of(spectator.position()) == frame.to_world(inside), what="the spy in booth 0")
        wall = arena.materials["wall"]
        for bot in bots:
            seat = rig.table.rules_seat(bot.booth)
            assert seat is not None
            owner = bot.player.bot  # type: ignore[attr-defined]
            plan = arena.seats[bot.booth]
            hand = hand_slots(state.hands[seat])
            cells = [frame.to_world(c) for c in plan.hand_display.cells]
            shown = {cells[k]: (WOOL_OF[c].id, WOOL_OF[c].data) for k, c in enumerate(hand)}
            wait_until(partial(sees, owner, shown), what=f"{owner.name}'s hand")
            signs = [frame.to_world(plan.signs[name].at) for name in PRIVATE_SIGNS]
            assert all(stripped(owner.seen_sign(*p)) not in (None, ("", "", "", "")) for p in signs)
            others = [spectator, *(b.player.bot for b in bots if b is not bot)]  # type: ignore[attr-defined]
            for other in others:
                for p in cells:
                    assert other.seen_block(*p) == (wall.id, wall.data), (other.name, bot.booth, p)
                    ever = other.received_at(*p)
                    assert not any(state_[0] == WOOL for state_ in ever["states"]), (other.name, p, ever)
                for p in signs:
                    assert stripped(other.seen_sign(*p)) == ("", "", "", ""), (other.name, p)
                    ever = other.received_at(*p)
                    assert all(not "".join(text).strip() for text in ever["texts"]), (other.name, p, ever)
            with rig.conn.batch() as batch:
                world = [batch.get_block_with_data(p) for p in cells]
            assert {(r.result().id, r.result().data) for r in world} == {(wall.id, wall.data)}
    finally:
        rig.close()


def test_the_booth_guard_moves_a_real_client_out(
    squid: FlyingSquidServer, join: Callable[[str], BotPlayer], tmp_path: Path
) -> None:
    """Without private blocks (as on plain RaspberryJuice) the walls hide a hand only from those outside."""
    rig = make_rig(squid, shipped_arena(options={"turns": 1}), tmp_path / "journal.sqlite", seed=3)
    try:
        arena, frame = rig.arena, rig.arena.frame
        bot = TableBot(rig.table, ReachingPlayer(join("g"), arena), 0, 11)
        bot.sit_down(by_walking=False)
        rig.run_until(lambda: rig.table.occupants[0] is not None, "the bot sits", max_cycles=40, bots_act=False)
        spy = join("spy")
        rig.run_until(lambda: spy.name in rig.supervisor.protocol.registry.players(), "the spy is known",
                      max_cycles=40, bots_act=False)
        inside = frame.to_world(arena.seats[0].interior.cuboid.lo + Pos(2, 0, 1))
        with rig.conn.batch() as batch:
            batch.set_entity_tile(spy.entity_id, inside)
        wait_until(lambda: Pos.of(spy.position()) == inside, what="the spy in booth 0")
        booth = frame.cuboid_to_world(arena.seats[0].booth.cuboid)
        rig.run_until(lambda: not booth.contains(Pos.of(spy.position())), "the guard moves the spy out",
                      max_cycles=60, bots_act=False)
        notice = rig.table.text.t("common.guarded", seat=1)
        wait_until(lambda: notice in " ".join(spy.private_messages()), what="the spy's notice")
    finally:
        rig.close()
