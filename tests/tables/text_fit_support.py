"""Random matches of every game on a bare `Table` (no world: a scene is what the table
wants shown, a drained outbox what it wants said), for the checks that every sign line
and every chat line fits whatever players are called."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

from mcbridge import CONFIG_DIR
from mcbridge.core import CHANCE, Rng
from mcbridge.tables.config import load_arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.kit import Scene
from mcbridge.tables.table import Outbox, Table
from mcbridge.world.blocks import AIR

GAMES = ("wool_bluff", "dice_bluff", "bribery", "braff", "briscola_bugiarda")
#: 16 characters, the longest a Minecraft name can be, wide letters and narrow ones
LONG_NAMES = ("MMMMMMMMMMMMMMMM", "Alexander_Smith1", "WWWWWWWWWWWWWW99", "Kurosawa_Akira_7", "ZZZZZZZZZZZZZZZZ")
MAX_STEPS = 4000


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def bare_table(game: str, lang: str, journal: Path, *, seed: int = 1, can_tell: bool = True) -> tuple[Table, Clock]:
    """The shipped arena of `game` in `lang` on a table with no world behind it."""
    arena = load_arena(CONFIG_DIR / "arenas" / f"{game}.yaml")
    settings = {**arena.settings, **({"dispensing": "booth"} if "dispensing" in arena.settings else {})}
    arena = dataclasses.replace(arena, locale=lang, settings=settings)  # booth: no wool to place by hand
    clock = Clock()
    table = Table(
        arena, Journal(journal), clock, seed=seed, can_tell=can_tell, can_give=True,
        start_delay=0.0, reveal_hold=0.0, hold=3600.0,
    )
    return table, clock


def play(game: str, lang: str, seed: int, journal: Path, *, can_tell: bool = True) -> Iterator[Scene | Outbox]:
    """One random match of `game` in `lang` with 16-character names, played by the game's
    bot: every scene the table renders and every outbox it drains, in order."""
    table, clock = bare_table(game, lang, journal, seed=seed, can_tell=can_tell)
    arena = table.arena
    bot, rng = table.game.bot(), Rng(seed)
    seats = min(len(arena.seats), table.game.player_range[1])
    for booth in range(seats):
        table.join(booth, LONG_NAMES[booth % len(LONG_NAMES)])
    yield table.scene()
    for _ in range(MAX_STEPS):
        clock.now += 0.5
        scene = table.scene()  # the world is as the table drew it: reads see exactly that
        table.on_reads({key: [scene.blocks.get(p, AIR) for p in cells] for key, cells in table.reads_wanted().items()})
        table.tick()
        state = table.state
        if state is not None and not state.is_over:
            for seat in sorted(state.to_act() - {CHANCE}):
                if seat in state.to_act():
                    table.submit(seat, bot.choose(state.view(seat), state.legal_actions(seat), rng))
        yield table.scene()
        yield table.outbox.drain()
        if table.finished:
            return
    raise AssertionError(f"{game}: no end after {MAX_STEPS} steps")
