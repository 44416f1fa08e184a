"""Every game with a table kit (the sign tables included) under the fault harness: the world
restarts empty mid-match, the players come back in reversed order, and the match ends as it
would have without the restart. Moves are given to the table directly, from a seeded random
policy, so the two runs are comparable; the world side (shell, names, timers) is real.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from faults.harness import restart_world, step_through_outages
from table_support import Rig, make_rig, walk_into_booth

from mcbridge import CONFIG_DIR
from mcbridge.core import CHANCE, Rng
from mcbridge.tables.config import load_arena
from mcbridge.tables.kits import games_with_kits
from mcbridge.tables.shell import ShellWatch
from mcbridge.world.embedded import EmbeddedHandle, start_embedded

SEED = 9
RESTART_AT = 12
MAX_CYCLES = 20_000
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fuu"]
Played = tuple[list[tuple[int, dict[str, Any]]], dict[str, Any] | None]


def move(r: Rig) -> None:
    """Each seat to act plays a random legal move (seeded by seat and action number)."""
    state = r.table.state
    if state is None or state.is_over or r.table.paused:
        return
    for seat in sorted(state.to_act() - {CHANCE}):
        if seat in state.to_act():
            r.table.submit(seat, Rng.derived(SEED, seat, r.table.seq).pick(state.legal_actions(seat)))


def play(world: EmbeddedHandle, journal: Path, game: str, restart: bool) -> Played:
    arena = dataclasses.replace(load_arena(CONFIG_DIR / "arenas" / f"{game}.yaml"), locale="en")
    r = make_rig(world, arena, journal, seed=SEED)
    restarted: EmbeddedHandle | None = None
    names = NAMES[: len(arena.seats)]
    try:
        people = [world.players.join(name) for name in names]
        for booth, person in enumerate(people):
            walk_into_booth(person, arena, booth)
        for _ in range(MAX_CYCLES):
            if r.table.finished:
                break
            if restart and restarted is None and r.table.seq >= RESTART_AT:
                restarted = restart_world(world)
                people = [restarted.players.join(name) for name in reversed(names)][::-1]
                while not step_through_outages(r):
                    r.clock.now += 60  # the outage lasts: no timer may run out meanwhile
                for _ in range(3):
                    step_through_outages(r)  # probe, rebuild, re-render
                watch = ShellWatch(arena)
                assert all(restarted.get_block(p.x, p.y, p.z)[0] == want for p, want in watch.expected.items())
                for booth, person in enumerate(people):
                    walk_into_booth(person, arena, booth)
            if step_through_outages(r):
                move(r)
        else:
            state = r.table.state
            raise AssertionError(f"{game}: not finished after {MAX_CYCLES} cycles, in {state and state.phase}, "
                                 f"seated {[o and o.name for o in r.table.occupants]}")
        assert not restart or restarted is not None, "the match ended before the restart"
        saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
        return saved.actions, saved.result
    finally:
        r.close()
        if restarted is not None:
            restarted.stop()


@pytest.mark.parametrize("game", games_with_kits())
def test_every_kit_table_ends_an_empty_restart_as_without_it(game: str, world: EmbeddedHandle,
                                                              tmp_path: Path) -> None:
    with start_embedded(port=0, tps=0) as calm:
        expected = play(calm, tmp_path / "calm.sqlite", game, restart=False)
    assert play(world, tmp_path / "journal.sqlite", game, restart=True) == expected
