"""`mcbridge demo [--game G]`: the embedded world, G's shipped arena, bots, N matches in a row.

Any game with a table kit can be demoed (`mcbridge.tables.kits.KITS`): Wool Bluff with its
own walker (`TableBot`: walls, pads, torches), every other game with `SeatBot`, which makes
the library bot's choices by the sword clicks its kit names. The table's public chat (the
standings at the end of each match among it) is printed as the first bot hears it.

With `--journal F` the matches are kept in F, and a demo killed part way and started
again with the same seed and journal resumes where it stopped: the bots decide from
(seed, match, position) and the chance stream from (match seed, position), so the
journal ends up identical to an uninterrupted run (`mcbridge journal show F --json`).
"""

from __future__ import annotations

import dataclasses
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from mcbridge import CONFIG_DIR
from mcbridge.stats.recorder import record_tables
from mcbridge.tables.arena import Arena
from mcbridge.tables.build import build_arena
from mcbridge.tables.config import load_arena
from mcbridge.tables.demo import TableBot
from mcbridge.tables.faults import install_kill_points
from mcbridge.tables.journal import Journal
from mcbridge.tables.seat_bots import SeatBot
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.world.connection import Connection
from mcbridge.world.driver import SimPlayer
from mcbridge.world.embedded import start_embedded

BOT_NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen", "Hana"]


def shipped_arena(game: str) -> Path:
    return CONFIG_DIR / "arenas" / f"{game}.yaml"


def demo_arena(game: str, lang: str, mode: str, torches: str, turns: int | None) -> Arena:
    """G's shipped arena in `lang`; `mode`, `torches` and `turns` are Wool Bluff's and only
    change a Wool Bluff arena."""
    arena = load_arena(shipped_arena(game))
    options, settings = dict(arena.options), dict(arena.settings)
    if game == "wool_bluff":
        if turns:
            options["turns"] = turns
        settings.update(dispensing=mode, torches=torches)
    return dataclasses.replace(arena, locale=lang, options=options, settings=settings)


def demo_players(table: Table, wanted: int) -> int:
    """`wanted` clamped to what the rules allow and the booths hold."""
    low, high = table.game.player_range
    return max(low, min(wanted, high, len(table.arena.seats)))


def seat_bot(table: Table, player: SimPlayer, booth: int, seed: int) -> TableBot | SeatBot:
    if table.arena.game == "wool_bluff":
        return TableBot(table, player, booth, seed)
    if not SeatBot.supports(table.kit):
        raise SystemExit(f"the {table.arena.game} kit names no clicks for its actions (clicks_for): no demo bots")
    return SeatBot(table, player, booth, seed)


def run_demo(
    game: str = "wool_bluff",
    seed: int = 7,
    players: int = 4,
    tps: float = 20.0,
    mode: str = "booth",
    lang: str = "en",
    torches: str = "controller",
    turns: int | None = None,
    journal_path: Path | None = None,
    matches: int = 1,
    max_seconds: float = 600.0,
    quiet: bool = False,
    web: str | None = None,
    web_token: str | None = None,
    db: str | None = None,
) -> int:
    arena = demo_arena(game, lang, mode, torches, turns)
    with tempfile.TemporaryDirectory() as tmp, start_embedded(port=0, tps=tps) as world:
        journal = Journal(journal_path or Path(tmp) / "journal.sqlite")
        install_kill_points(journal)
        with Connection("127.0.0.1", world.port) as conn:
            started = time.monotonic()
            sent = build_arena(conn, arena)
            _say(quiet, f"arena {arena.name} built on the embedded world ({sent} commands)")
            caps = conn.capabilities()
            table = Table(
                arena,
                journal,
                time.monotonic,
                seed=seed,
                can_give="give" in caps,
                can_tell="tell" in caps,
                can_private="private" in caps,
                can_see_placements="placements" in caps,
                start_delay=1.0,
                hold=1.0,
                reveal_hold=0.5,
            )
            supervisor = Supervisor(conn, [table])
            web_cycle = _web(web, web_token, table, supervisor, conn, Path(journal.path), db)
            recorder = record_tables(journal.path, db, [table], bots=BOT_NAMES) if db else None
            bots = []
            for booth in range(demo_players(table, players)):
                bot = seat_bot(table, world.players.join(BOT_NAMES[booth]), booth, seed)
                bot.sit_down(by_walking=booth % 2 == 0)
                bots.append(bot)

            def done() -> bool:
                return journal.count(arena.name, finished=True) >= matches and (table.finished or table.state is None)

            printed = 0
            deadline = time.monotonic() + max_seconds
            while not done():
                if time.monotonic() > deadline:
                    raise TimeoutError(f"the demo matches did not finish within {max_seconds} s")
                supervisor.step()
                web_cycle()
                for bot in bots:
                    bot.act()
                heard = bots[0].player.chat_heard()
                for line in heard[printed:]:
                    _say(quiet, line)
                printed = len(heard)
            supervisor.step()  # deliver the last words (standings, prizes)
            for line in bots[0].player.chat_heard()[printed:]:
                _say(quiet, line)
            if recorder is not None:
                recorder.stop()
                _say(quiet, f"stats: {recorder.sent} match(es) recorded in {db}, {recorder.left} queued")
            _say(
                quiet,
                f"{matches} match(es) over in {time.monotonic() - started:.1f} s, {supervisor.cycles} cycles, "
                f"{conn.stats.commands} commands",
            )
        journal.close()
    return 0


def _web(addr: str | None, token: str | None, table: Table, supervisor: Supervisor, conn: Connection,
         journal_path: Path, stats_url: str | None) -> Callable[[], object]:
    """`--web ADDR`: the web view's once-a-cycle hook (a no-op without it)."""
    if addr is None:
        return lambda: None
    from mcbridge.web import start_web

    hub, _ = start_web(addr, [table], token=token, journal_path=journal_path,
                       conn=conn, supervisor=supervisor, stats_url=stats_url)
    return hub.cycle


def _say(quiet: bool, line: str) -> None:
    if not quiet:
        print(line, flush=True)
