"""The mixed bench's players type each game's actions as chat (bench/tables_active.py
`command_text`): every action a bot or a player may take there must parse back to itself,
for every registered game, or the bench would measure refusals instead of play."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from mcbridge import games
from mcbridge.core import CHANCE, Rng
from mcbridge.core.legal import expand

# loaded by path: putting bench/ on sys.path would let bench/worldgen.py shadow the package
_spec = importlib.util.spec_from_file_location(
    "bench_tables_active", Path(__file__).resolve().parents[2] / "bench" / "tables_active.py")
assert _spec is not None and _spec.loader is not None
_module = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = _module  # its dataclasses look their module up
_spec.loader.exec_module(_module)
command_text = _module.command_text


@pytest.mark.parametrize("name", games.available())
def test_every_legal_action_typed_by_the_bench_parses_back_to_itself(name: str) -> None:
    game = games.load(name, {})
    low, high = game.player_range
    for seed in range(3):
        state = game.new_match([f"p{i}" for i in range(min(max(4, low), high))], seed)
        rng, bot = Rng.derived(seed, "bench-commands"), game.bot()
        while not state.is_over:
            if CHANCE in state.to_act():
                state.apply(CHANCE, state.sample_chance(rng))
                continue
            seat = min(state.to_act())
            legal = state.legal_actions(seat)
            for action in expand(legal):  # ranges (stakes, counts) one by one
                assert game.parse_action(seat, command_text(action, state), state) == action
            state.apply(seat, bot.choose(state.view(seat), legal, rng))
