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
from squid_hand_support import full_match_by_clicks
from squid_match_support import SquidRig, make_rig

from mcbridge import CONFIG_DIR
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
    state = full_match_by_clicks(rig, join, NAMES, BriberyBot(), kinds=("Raise", "Pass"))
    assert isinstance(state, BriberyState)
