"""`mcbridge validate | schema | arena build | run | demo | journal list|show`."""

from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

from mcbridge import CONFIG_DIR

DEFAULT_ARENA = CONFIG_DIR / "arenas" / "wool_bluff.yaml"


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("validate", help="check arena YAML files (one arena or a 'tables:' list each)")
    p.add_argument("files", type=Path, nargs="+", metavar="file")
    p.set_defaults(func=cmd_validate)

    p = subparsers.add_parser("schema", help="print the arena JSON Schema (for editor completion)")
    p.set_defaults(func=cmd_schema)

    p = subparsers.add_parser("arena", help="arena tools")
    sub = p.add_subparsers(dest="arena_command", metavar="ACTION")
    b = sub.add_parser("build", help="place the arenas' structures in the world")
    b.add_argument("files", type=Path, nargs="+", metavar="file")
    _server_args(b)
    b.add_argument("--yes", action="store_true",
                   help="replace blocks that are not air above the floor (checked first; refused without it)")
    b.set_defaults(func=cmd_build)

    p = subparsers.add_parser("run", help="run the arenas' tables on a server until Ctrl-C")
    p.add_argument("files", type=Path, nargs="+", metavar="file",
                   help="arena files (one arena or a 'tables:' list each); all run under one supervisor")
    _server_args(p)
    p.add_argument("--journal", type=Path, default=Path("var/journal.sqlite"))
    p.add_argument("--journal-reset", action="store_true", help="start a new journal; the old one is kept as a backup")
    p.add_argument("--build", action="store_true", help="build the arena first")
    p.add_argument("--seed", type=int, default=None,
                   help="make the deals reproducible (default: a secret random seed per start)")
    p.add_argument(
        "--start-delay",
        type=float,
        default=None,
        help="lobby countdown: seconds after the last join before a match starts with free seats left "
        "(default: the arena's lobby.countdown)",
    )
    p.add_argument("--hold", type=float, default=None,
                   help="seconds the standings stay up after a match (default: the arena's lobby.hold)")
    p.add_argument("--reveal-hold", type=float, default=5.0, help="seconds the revealed hands stay on the walls")
    _web_args(p)
    p.add_argument("--db", metavar="URL", default=None,
                   help="stats store: sqlite:///PATH or postgresql://... (default: JOURNAL.stats beside the journal)")
    p.set_defaults(func=cmd_run)

    from mcbridge.tables.kits import games_with_kits

    p = subparsers.add_parser("demo", help="bots play full matches of a game on the embedded world")
    p.add_argument("--game", choices=games_with_kits(), default="wool_bluff", help="which game's arena to demo")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--tps", type=float, default=20.0, help="server ticks per second (0 = as fast as possible)")
    p.add_argument("--mode", choices=("booth", "give"), default="booth", help="Wool Bluff: how hands are dealt")
    p.add_argument(
        "--torches", choices=("controller", "players"), default="controller",
        help="Wool Bluff: who puts up the penalty torches"
    )
    p.add_argument("--lang", choices=("en", "ja"), default="en")
    p.add_argument("--turns", type=int, default=None, help="Wool Bluff: fewer turns for a shorter demo")
    p.add_argument("--matches", type=int, default=1, help="matches in a row on the one table")
    p.add_argument("--journal", type=Path, default=None,
                   help="keep the matches in this journal (a killed demo re-run with it resumes)")
    p.add_argument("--journal-reset", action="store_true",
                   help="with --journal: start a new journal; the old one is kept as a backup")
    _web_args(p)
    p.add_argument("--db", metavar="URL", default=None,
                   help="record the matches' stats: sqlite:///PATH or postgresql://... (default: none)")
    p.set_defaults(func=cmd_demo)

    p = subparsers.add_parser("journal", help="the match history in a journal file")
    sub = p.add_subparsers(dest="journal_command", metavar="ACTION")
    j = sub.add_parser("list", help="one line per match")
    j.add_argument("file", type=Path)
    j.set_defaults(func=cmd_journal_list)
    j = sub.add_parser("show", help="every action of every match (or of one)")
    j.add_argument("file", type=Path)
    j.add_argument("--match", type=int, default=None, help="only this match id")
    j.add_argument("--json", action="store_true", help="machine-readable; equal for equal histories")
    j.add_argument("--times", action="store_true", help="add wall-clock times (then runs no longer compare equal)")
    j.set_defaults(func=cmd_journal_show)


def _web_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--web", metavar="ADDR", default=None, type=_web_addr,
                   help="serve the live web view at HOST:PORT (e.g. 127.0.0.1:8080)")
    p.add_argument("--web-token", default=None, help="the operator console's token (default: generated and printed)")


def _web_addr(text: str) -> str:
    from mcbridge.web.address import parse_addr

    try:
        parse_addr(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _server_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=4711)
    p.add_argument("--connect-attempts", type=_attempts, default=None, metavar="N",
                   help="tries to reach the server before giving up (default 8; 0 = keep trying)")


def _attempts(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: give a whole number of attempts (0 = keep trying)")
    return int(text)


def cmd_validate(args: argparse.Namespace) -> int:
    from mcbridge.tables.config import ArenaError
    from mcbridge.tables.table_files import load_tables

    try:
        arenas = load_tables(args.files)
    except ArenaError as exc:
        for problem in exc.problems:
            print(problem)
        print(f"{len(exc.problems)} problem(s) in {', '.join(map(str, args.files))}")
        return 1
    for arena in arenas:
        settings = "".join(f", {k} {v}" for k, v in sorted(arena.settings.items()))
        print(f"OK: {arena.file} ({arena.name}: {arena.game}, {len(arena.seats)} seats{settings})")
    return 0


def cmd_schema(args: argparse.Namespace) -> int:
    from mcbridge.tables.config import json_schema

    print(json_schema())
    return 0


def cmd_build(args: argparse.Namespace) -> int:
    from mcbridge.cli import EXIT_OPERATOR
    from mcbridge.tables.build import build_arena, survey
    from mcbridge.tables.dial import dial
    from mcbridge.tables.table_files import load_tables

    arenas = load_tables(args.files)
    with dial(args.host, args.port, attempts=args.connect_attempts) as conn:
        for arena in arenas:
            found = survey(conn, arena)
            print(f"{arena.name} will overwrite {found.describe()}")
            if found.non_air and not args.yes:
                print(
                    f"refused: {found.non_air} block(s) there are not air and would be replaced; move the arena "
                    f"({arena.name!r}: 'origin'/'facing' in its file) or run again with --yes",
                    file=sys.stderr,
                )
                return EXIT_OPERATOR
        for arena in arenas:
            started, trips = time.monotonic(), conn.stats.round_trips
            sent = build_arena(conn, arena)
            print(
                f"built {arena.name}: {sent} commands, {conn.stats.round_trips - trips} round trips, "
                f"{time.monotonic() - started:.2f} s"
            )
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from mcbridge.stats.recorder import record_tables
    from mcbridge.tables import collector, switching
    from mcbridge.tables.build import build_arena
    from mcbridge.tables.dial import dial
    from mcbridge.tables.faults import install_kill_points
    from mcbridge.tables.journal import Journal
    from mcbridge.tables.journal_check import prepare_journal
    from mcbridge.tables.supervisor import Supervisor
    from mcbridge.tables.table import Table
    from mcbridge.tables.table_files import load_tables

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    arenas = load_tables(args.files)
    prepare_journal(args.journal, reset=args.journal_reset)
    journal = Journal(args.journal)  # one journal for every table: matches are kept by arena name
    install_kill_points(journal)
    with dial(args.host, args.port, attempts=args.connect_attempts) as conn:
        caps = conn.capabilities()
        tables = []
        for arena in arenas:
            if args.build:
                build_arena(conn, arena)
            tables.append(
                Table(
                    arena,
                    journal,
                    time.monotonic,
                    seed=args.seed,
                    can_give="give" in caps,
                    can_tell="tell" in caps,
                    can_private="private" in caps,
                    can_see_placements="placements" in caps,
                    start_delay=args.start_delay,
                    hold=args.hold,
                    reveal_hold=args.reveal_hold,
                )
            )
        names = ", ".join(f"{a.name} ({a.game})" for a in arenas)
        print(f"running {names} on {args.host}:{args.port} (journal {args.journal}); Ctrl-C stops", flush=True)
        supervisor = Supervisor(conn, tables, while_waiting=collector.collect_ahead)
        until = lambda: False  # noqa: E731
        stats_url = args.db or f"sqlite:///{args.journal}.stats"
        if args.web:
            from mcbridge.web import start_web

            hub, _ = start_web(args.web, tables, token=args.web_token, journal_path=args.journal,
                               conn=conn, supervisor=supervisor, stats_url=stats_url)
            until = hub.cycle  # once per cycle on this thread: the web's hook (never stops the loop)
        recorder = record_tables(args.journal, stats_url, tables)
        collector.settle()  # everything long-lived is built: the collector stops walking it
        switching.prefer_io_thread()  # replies are read on the I/O thread while the tables work
        try:
            supervisor.run(until=until, max_seconds=float("inf"))
        finally:
            recorder.stop()
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from mcbridge.cli import EXIT_OPERATOR
    from mcbridge.tables.demo_run import run_demo
    from mcbridge.tables.journal_check import prepare_journal

    if args.journal is None and args.journal_reset:
        print("error: --journal-reset needs --journal FILE (without it the demo keeps no journal)", file=sys.stderr)
        return EXIT_OPERATOR
    if args.journal is not None:  # the same checks as `run`, before any world starts
        prepare_journal(args.journal, reset=args.journal_reset)
    return run_demo(
        game=args.game,
        seed=args.seed,
        players=args.players,
        tps=args.tps,
        mode=args.mode,
        lang=args.lang,
        torches=args.torches,
        turns=args.turns,
        journal_path=args.journal,
        matches=args.matches,
        web=args.web,
        web_token=args.web_token,
        db=args.db,
    )


def _journal(path: Path) -> Any:
    """The journal to read, after `run`'s checks (the read-only ones): a missing, damaged or
    foreign file is one line on stderr with the fix (exit 2), and is never created or changed."""
    from mcbridge.tables.journal_check import JournalError, check_journal
    from mcbridge.tables.journal_view import NotAJournal, open_existing

    check_journal(path, writing=False)
    try:
        journal = open_existing(path)
    except NotAJournal as exc:
        raise JournalError(path, str(exc).removeprefix(f"{path}: "), "check the path") from None
    if journal is None:  # gone since the check
        raise JournalError(path, "no such file", "check the path")
    return journal


def cmd_journal_list(args: argparse.Namespace) -> int:
    from mcbridge.tables.journal_view import list_lines

    journal = _journal(args.file)
    for line in list_lines(journal):
        print(line)
    return 0


def cmd_journal_show(args: argparse.Namespace) -> int:
    from mcbridge.tables.journal_view import history, show_lines

    journal = _journal(args.file)
    try:
        data = history(journal, args.match, times=args.times)
    except KeyError:
        print(f"{args.file}: no match {args.match} (see `mcbridge journal list {args.file}`)")
        return 1
    if args.json:
        print(json.dumps(data, ensure_ascii=False, sort_keys=True))
    else:
        for line in show_lines(data):
            print(line)
    return 0
