"""A full sign-table match on flying-squid by mineflayer bots (the Bribery and Braff tests):
the bots sit down by their join signs and play every decision by sword clicks within a
real client's reach; the final state must equal the journal's replay, and every journaled
decision must be one a bot clicked (the rules never acted for anyone)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from squid_match_support import ReachingPlayer, SquidRig
from squid_sign_support import SignBot, seat_sign_bots

from mcbridge.core import CHANCE, State
from mcbridge.world.botrunner import BotPlayer


def full_match_by_clicks(rig: SquidRig, join: Callable[[str], BotPlayer], names: Sequence[str], policy: Any,
                         kinds: Collection[str], max_seconds: float = 300) -> State:
    """Plays the match to its end and checks it; `kinds` are action types that must occur."""
    bots = [SignBot(rig.table, ReachingPlayer(join(name), rig.arena), b, 13, policy) for b, name in enumerate(names)]
    seat_sign_bots(rig, bots)
    rig.run_until(lambda: rig.table.finished, "the match", max_seconds=max_seconds)
    rig.step()
    state = rig.table.state
    assert state is not None and state.is_over and len(state.players) == len(names)
    assert rig.table.match_id is not None
    saved = rig.journal.match(rig.table.match_id)
    final = rig.table.game.new_match(saved.players, saved.seed)
    for seat, data in saved.actions:
        final.apply(seat, rig.table.game.action_from_json(data))
    assert final == state
    made = [data["type"] for seat, data in saved.actions if seat != CHANCE]
    assert set(kinds) <= set(made), made
    heard = bots[0].player.chat_heard()
    for bot in bots:
        assert rig.table.text.t("common.timeout", name=bot.player.name) not in heard  # all by hand
        assert bot.player.reached  # every click within a real client's reach
    assert sum(bot.clicks for bot in bots) >= len(made)
    return state
