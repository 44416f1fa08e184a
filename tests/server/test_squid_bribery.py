"""A full Bribery match on the real flying-squid server, three mineflayer bots clicking.

The controller is mcbridge's (a `Connection` to the bridge, the shipped Bribery arena
built with `build_arena`, a `Table` and its `Supervisor`); the players are real Minecraft
1.12.2 clients that walk to the back of their booths, click the join signs, step inside and
play every decision by sword clicks (the hand's card signs, RAISE, CALL, ALL-IN, FOLD,
PASS) within a real client's reach. The final state must equal the journal's replay, and
every journaled decision must be one a bot clicked (the rules never acted for anyone).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from squid_match_support import ReachingPlayer, SquidRig, make_rig
from squid_sign_support import SignBot, seat_sign_bots

from mcbridge import CONFIG_DIR
from mcbridge.core import CHANCE
from mcbridge.games.bribery import BriberyBot, BriberyState
from mcbridge.tables.config import load_arena
from mcbridge.world.botrunner import BotPlayer
from mcbridge.world.realserver import FlyingSquidServer

pytestmark = pytest.mark.server

NAMES = ["Ana", "Bo", "Cy"]


@pytest.fixture
def rig(squid: FlyingSquidServer, tmp_path: Path) -> Iterator[SquidRig]:
    made = make_rig(squid, load_arena(CONFIG_DIR / "arenas" / "bribery.yaml"), tmp_path / "journal.sqlite", seed=5)
    yield made
    made.close()


def test_a_full_match_with_three_bots_by_sword_clicks(rig: SquidRig, join: Callable[[str], BotPlayer]) -> None:
    bots = [SignBot(rig.table, ReachingPlayer(join(name), rig.arena), b, 13, BriberyBot())
            for b, name in enumerate(NAMES)]
    seat_sign_bots(rig, bots)
    rig.run_until(lambda: rig.table.finished, "the match", max_seconds=300)
    rig.step()
    state = rig.table.state
    assert isinstance(state, BriberyState) and state.is_over and len(state.players) == 3
    assert rig.table.match_id is not None
    saved = rig.journal.match(rig.table.match_id)
    final = rig.table.game.new_match(saved.players, saved.seed)
    for seat, data in saved.actions:
        final.apply(seat, rig.table.game.action_from_json(data))
    assert final == state
    kinds = [data["type"] for seat, data in saved.actions if seat != CHANCE]
    assert "Raise" in kinds and "Pass" in kinds
    heard = bots[0].player.chat_heard()
    for bot in bots:
        assert rig.table.text.t("common.timeout", name=bot.player.name) not in heard  # all by hand
        assert bot.player.reached  # every click within a real client's reach
    assert sum(bot.clicks for bot in bots) >= len(kinds)
