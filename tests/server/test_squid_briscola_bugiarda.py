"""A full Briscola bugiarda deal on the real flying-squid server, five mineflayer bots clicking.

The controller is mcbridge's (a `Connection` to the bridge, the shipped five-booth arena
built with `build_arena`, a `Table` and its `Supervisor`); the players are real Minecraft
1.12.2 clients that walk to the back of their booths, click the join signs, step inside and
play the auction, the trump call and all eight tricks by sword clicks on the menu and card
signs, within a real client's reach. The state after the deal must equal the journal's
replay, and every journaled decision must be one a bot clicked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from squid_match_support import ReachingPlayer, SquidRig, make_rig
from squid_sign_support import SignBot, seat_sign_bots

from mcbridge import CONFIG_DIR
from mcbridge.core import CHANCE
from mcbridge.games.briscola_bugiarda import BriscolaState
from mcbridge.games.briscola_bugiarda.bot import BriscolaBot
from mcbridge.tables.config import load_arena
from mcbridge.world.botrunner import BotPlayer
from mcbridge.world.realserver import FlyingSquidServer

pytestmark = pytest.mark.server

NAMES = ["Eva", "Fox", "Gil", "Hal", "Ivy"]


@pytest.fixture
def rig(squid: FlyingSquidServer, tmp_path: Path) -> Iterator[SquidRig]:
    made = make_rig(squid, load_arena(CONFIG_DIR / "arenas" / "briscola_bugiarda.yaml"), tmp_path / "j.sqlite", 7)
    yield made
    made.close()


def test_a_full_deal_with_five_bots_by_sword_clicks(rig: SquidRig, join: Callable[[str], BotPlayer]) -> None:
    bots = [SignBot(rig.table, ReachingPlayer(join(name), rig.arena), b, 17, BriscolaBot())
            for b, name in enumerate(NAMES)]
    seat_sign_bots(rig, bots)

    def dealt_out() -> bool:
        state = rig.table.state
        return isinstance(state, BriscolaState) and state.last_deal is not None

    rig.run_until(dealt_out, "the first deal", max_seconds=240)
    rig.step()
    state = rig.table.state
    assert isinstance(state, BriscolaState) and state.last_deal is not None and state.last_deal["deal"] == 1
    assert sum(state.chips) == 0 and any(state.chips)  # scored, zero-sum
    assert rig.table.match_id is not None
    saved = rig.journal.match(rig.table.match_id)
    final = rig.table.game.new_match(saved.players, saved.seed)
    for seat, data in saved.actions:
        final.apply(seat, rig.table.game.action_from_json(data))
    assert final == state
    kinds = [data["type"] for seat, data in saved.actions if seat != CHANCE]
    assert kinds.count("Play") == 40 and ("CallTrump" in kinds or "Solo" in kinds)
    heard = bots[0].player.chat_heard()
    for bot in bots:
        assert rig.table.text.t("common.timeout", name=bot.player.name) not in heard  # all by hand
        assert bot.player.reached  # every click within a real client's reach
