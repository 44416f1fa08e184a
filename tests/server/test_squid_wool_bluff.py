"""Full Wool Bluff matches on the real flying-squid server, played by mineflayer bots.

The controller is mcbridge's (a `Connection` to the bridge, the shipped arena built with
`build_arena`, a `Table` (Wool Bluff kit) and its `Supervisor`); the players are real Minecraft 1.12.2
clients that walk up to what they use (a real client reaches 4.5 blocks: `ReachingPlayer`
fails the test otherwise), click signs with a sword, and in `give` mode receive their wool
as items, put discards on the discard pad and place their hand on the wall at Reveal.
What the world shows is read back through the bridge (world.getBlocks, getBlockWithData) and
compared with the table's state and with a replay of the journal on a fresh core state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

import pytest
from squid_match_support import (
    BridgeReader,
    ReachingPlayer,
    SquidRig,
    make_rig,
    replay,
    shipped_arena,
    torch_walls,
    wool_walls,
)
from squid_support import wait_until

from mcbridge.core import CHANCE
from mcbridge.games.wool_bluff import WoolBluffState
from mcbridge.tables.arena_limits import PRIZE_ITEMS
from mcbridge.tables.config import Arena
from mcbridge.tables.demo import TableBot
from mcbridge.tables.kits.wool_bluff_render import COLOUR_OF_WOOL, MAX_TORCHES_SHOWN, hand_slots
from mcbridge.world.blocks import Block
from mcbridge.world.botrunner import BotPlayer
from mcbridge.world.driver import WOOL
from mcbridge.world.geometry import Pos
from mcbridge.world.realserver import FlyingSquidServer

pytestmark = pytest.mark.server

NAMES = ["Aki", "Ben", "Chie", "Dan"]
ITEMS_TIMEOUT = 5.0  # seconds for given items to show up in a client's inventory


@pytest.fixture
def squid_rig(squid: FlyingSquidServer, tmp_path: Path) -> Iterator[Callable[..., SquidRig]]:
    made: list[SquidRig] = []

    def factory(arena: Arena, seed: int) -> SquidRig:
        rig = make_rig(squid, arena, tmp_path / f"journal{len(made)}.sqlite", seed)
        made.append(rig)
        return rig

    yield factory
    for rig in made:
        rig.close()


@pytest.fixture
def reader(squid: FlyingSquidServer) -> Iterator[BridgeReader]:
    bridge = BridgeReader(squid.port)
    yield bridge
    bridge.close()


def seat_by_join_sign(rig: SquidRig, join: Callable[[str], BotPlayer], count: int, seed: int) -> None:
    """Bots walk from the spawn to the back of booths 0..count-1 and click the join signs."""
    bots = [TableBot(rig.table, ReachingPlayer(join(NAMES[b]), rig.arena), b, seed) for b in range(count)]
    rig.in_parallel([partial(bot.sit_down, by_walking=False) for bot in bots])
    names = [bot.player.name for bot in bots]
    rig.run_until(
        lambda: [o.name if o else None for o in rig.table.occupants[:count]] == names,
        "the join-sign clicks seat the bots",
        max_cycles=40,
        bots_act=False,
    )
    # seated by the clicks alone: nobody stands in a booth (walking in would also take a seat)
    assert all(bot.spot == "back" for bot in bots)
    rig.step()  # the join signs now name their players; each client shows its own sign
    for bot in bots:
        sign = rig.arena.frame.to_world(rig.arena.seats[bot.booth].signs["join"].at)
        wait_until(partial(sign_names, bot, sign), what=f"{bot.player.name}'s client to show its name on the join sign")
    rig.bots = bots


def sign_names(bot: TableBot, sign: Pos) -> bool:
    """Whether the bot's own client shows its name on the sign at `sign` (protocol coordinates)."""
    player = bot.player
    assert isinstance(player, ReachingPlayer)
    return any(player.name in line for line in player.bot.sign_text(sign.x, sign.y, sign.z) or [])


def wool_held(bot: TableBot) -> dict[str, int]:
    """The wool in a bot's inventory as its client sees it, by colour."""
    return {COLOUR_OF_WOOL[data]: n for (item, data), n in bot.player.inventory().items() if item == WOOL}


def holds(bot: TableBot, wanted: dict[str, int]) -> bool:
    return wool_held(bot) == wanted


class MatchWatch:
    """Checks made between a supervisor cycle and the bots' actions, once per turn each:
    given wool arrived in the clients' inventories (give mode), and during each Reveal hold
    the walls read through the bridge show the core's torches and the revealed hands."""

    def __init__(self, rig: SquidRig, reader: BridgeReader) -> None:
        self.rig = rig
        self.reader = reader
        self.inventory_turns: list[int] = []
        self.reveal_turns: list[int] = []

    def __call__(self) -> None:
        table = self.rig.table
        state = table.state
        if state is None or state.is_over:
            return
        if (
            table.kit.dispensing == "give"
            and state.phase in ("discard", "bid", "respond")  # dealt, and nothing placed before this check
            and state.turn not in self.inventory_turns
            and not table.outbox.gives  # the deal's items went out with this cycle's write
        ):
            self.inventory_turns.append(state.turn)
            for bot in self.rig.bots:
                seat = table.rules_seat(bot.booth)
                assert seat is not None
                drawn = dict(state.drawn[seat] or {})
                wait_until(partial(holds, bot, drawn), ITEMS_TIMEOUT, f"{bot.player.name} to hold its wool {drawn}")
        revealed_turn = state.turn - 1  # a Reveal ends a turn: the hold is in the next one's deal
        if state.phase == "deal" and table.clock() < table.kit.hold_until and revealed_turn not in self.reveal_turns:
            self.reveal_turns.append(revealed_turn)
            self.rig.step()  # the Reveal's scene goes out; the hold keeps the state as it is
            check_walls(self.rig, self.reader)
            revealed = state.last_reveal
            assert revealed is not None
            assert wool_walls(self.reader, self.rig.arena)[: len(self.rig.bots)] == [
                hand_slots(h) for h in revealed["hands"]
            ]
            if table.kit.dispensing == "give":  # the hands on the walls are the bots' own wool
                assert all(wool_held(bot) == {} for bot in self.rig.bots)


def check_walls(rig: SquidRig, reader: BridgeReader) -> WoolBluffState:
    """Torch walls read through the bridge == the core's torches == the journal's replay."""
    state = rig.table.state
    assert state is not None and rig.table.match_id is not None
    replayed = replay(rig.table.game, rig.journal.match(rig.table.match_id))
    assert replayed == state  # the same rules state, field for field
    shown = [min(t, MAX_TORCHES_SHOWN) for t in replayed.torches]
    on_walls = torch_walls(reader, rig.arena)
    assert on_walls[: len(shown)] == shown
    assert on_walls[len(shown) :] == [0] * (len(on_walls) - len(shown))  # empty booths stay dark
    return replayed


def play_match(rig: SquidRig, reader: BridgeReader) -> MatchWatch:
    """Play to the end, checking as it goes; then the last scene and words go out."""
    watch = MatchWatch(rig, reader)
    rig.run_until(lambda: rig.table.finished, "the match", each=watch)
    rig.step()
    return watch


def has_items(bot: TableBot, wanted: dict[tuple[int, int], int]) -> bool:
    have = bot.player.inventory()
    return all(have.get(item, 0) == n for item, n in wanted.items())


def player_actions(rig: SquidRig) -> list[str]:
    assert rig.table.match_id is not None
    saved = rig.journal.match(rig.table.match_id)
    return [data["type"] for seat, data in saved.actions if seat != CHANCE]


def check_played_by_hand(rig: SquidRig) -> None:
    """Every decision came from the bots' clicks and placements: the rules never had to
    choose for anyone (no timeouts), and no click was out of a real client's reach."""
    kinds = player_actions(rig)
    assert "Bid" in kinds and "Bluff" in kinds
    assert "Discard" in kinds, "nobody had to discard: pick another seed"
    heard = rig.bots[0].player.chat_heard()
    for bot in rig.bots:
        timeout_line = rig.table.text.t("common.timeout", name=bot.player.name)
        assert timeout_line not in heard
        player = bot.player
        assert isinstance(player, ReachingPlayer) and player.reached


def test_a_give_mode_match_with_four_bots(
    squid_rig: Callable[..., SquidRig], join: Callable[[str], BotPlayer], reader: BridgeReader
) -> None:
    rig = squid_rig(shipped_arena(dispensing="give", options={"turns": 2}), seed=3)
    assert rig.table.kit.dispensing == "give"  # flying-squid's bridge can give items
    seat_by_join_sign(rig, join, 4, seed=11)
    watch = play_match(rig, reader)

    state = rig.table.state
    assert state is not None and state.is_over and state.turn == 2
    assert watch.inventory_turns == [1, 2] and watch.reveal_turns == [1]
    check_walls(rig, reader)
    check_played_by_hand(rig)
    assert rig.table.match_id is not None
    saved = rig.journal.match(rig.table.match_id)
    reveals = [data for seat, data in saved.actions if data["type"] == "Reveal"]
    assert [r["tampered"] for r in reveals] == [[], []]  # every wall showed exactly the dealt hand
    pads = [rig.arena.frame.to_world(c) for seat in rig.arena.seats for c in seat.discard_pad.cells]
    assert reader.blocks_with_data(pads) == [Block(0)] * len(pads)  # the table took every discard off
    # the prizes arrive in the clients' inventories
    for row in state.result()["standings"]:
        bot = rig.bots[state.players.index(row["name"])]
        prize = {PRIZE_ITEMS[row["prize"]["item"]]: row["prize"]["count"]}
        wait_until(partial(has_items, bot, prize), ITEMS_TIMEOUT, f"{bot.player.name}'s prize {prize}")


def test_a_booth_mode_match_with_three_bots(
    squid_rig: Callable[..., SquidRig], join: Callable[[str], BotPlayer], reader: BridgeReader
) -> None:
    rig = squid_rig(shipped_arena(dispensing="booth", options={"turns": 2}), seed=4)
    seat_by_join_sign(rig, join, 3, seed=12)
    watch = play_match(rig, reader)

    state = rig.table.state
    assert state is not None and state.is_over and len(state.players) == 3
    assert watch.reveal_turns == [1]
    check_walls(rig, reader)
    check_played_by_hand(rig)
    assert all(wool_held(bot) == {} for bot in rig.bots)  # booth mode gives no wool
