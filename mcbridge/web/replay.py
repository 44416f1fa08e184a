"""Replay: any journaled match, step by step, rebuilt by the rules engine.

The journal is the source: the match's players, seed and actions go through a fresh
`new_match` and `apply`, and each step shows what spectators saw then — the public view
and the public log lines — never the journaled actions themselves (a deal is hidden
information, so is the seed). Each call opens the journal read-only for its own thread.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from mcbridge import games
from mcbridge.i18n import locale
from mcbridge.tables import kits, rules_view
from mcbridge.tables.journal_view import open_existing
from mcbridge.web.spectator import plain_json

#: A replay message holds at most this many steps (a match of the shipped games has a few hundred).
MAX_STEPS = 5000


class Replays:
    def __init__(self, journal_path: Path | None) -> None:
        self.path = journal_path

    async def matches(self) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self._matches)

    async def steps(self, match_id: int, lang: str) -> list[dict[str, Any]]:
        return await asyncio.to_thread(self._steps, match_id, lang)

    def _matches(self) -> list[dict[str, Any]]:
        journal = open_existing(self.path) if self.path is not None else None
        if journal is None:
            return []
        try:
            return [{"id": m.id, "arena": m.arena, "game": m.game, "players": m.players, "actions": len(m.actions),
                     "finished": m.finished is not None} for m in journal.matches()]
        finally:
            journal.close()

    def _steps(self, match_id: int, lang: str) -> list[dict[str, Any]]:
        journal = open_existing(self.path) if self.path is not None else None
        if journal is None:
            raise KeyError(match_id)
        try:
            saved = journal.match(match_id)
        finally:
            journal.close()
        return replay_steps(saved.game, saved.rules_options(), saved.players, saved.seed,
                            saved.actions[:MAX_STEPS], [b + 1 for b in saved.options.get("booths", [])] or None, lang)


def replay_steps(game_name: str, options: dict[str, Any], players: list[str], seed: int,
                 actions: list[tuple[int, dict[str, Any]]], numbers: list[int] | None,
                 lang: str) -> list[dict[str, Any]]:
    """Step 0 is the match as dealt nothing yet; step k follows the k-th journaled action."""
    game = games.load(game_name, options)
    quiet = kits.kit_class(game_name).quiet_events
    text = locale(lang)
    state = game.new_match(players, seed)
    steps = [{"seq": -1, "public": plain_json(state.view(None)), "log": []}]
    for seq, (seat, data) in enumerate(actions):
        events = state.apply(seat, game.action_from_json(data))
        log = [text.event(game_name, e, players, numbers) for e in events if not isinstance(e, quiet)]
        step: dict[str, Any] = {"seq": seq, "public": plain_json(state.view(None)), "log": log}
        if state.is_over:
            step["standings"] = rules_view.standings(state)
        steps.append(step)
    return steps
