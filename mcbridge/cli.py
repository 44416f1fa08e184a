"""The `mcbridge` command line.

Each layer owns its sub-commands in its own module, which exposes
``register(subparsers)``; this module only wires them together, so adding a command never
means editing a shared file beyond the list below. Heavy imports happen inside the command
functions, so `mcbridge --help` stays fast.

It also owns what every command shares: an operator's mistake (a missing or invalid file,
a bad port, a server that does not answer) ends in one line on stderr and a documented
exit code, never a traceback; tracebacks are for bugs, and only with `--debug`.

Exit codes: 0 done, 1 a file has problems (each printed as file:line:column: message),
2 any other operator error (usage, paths, ports, servers, journals), 70 a bug, 130 Ctrl-C.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

#: Modules that add sub-commands. A module that is missing (a layer not built yet) is skipped.
COMMAND_MODULES = (
    "mcbridge.games.cli",  # rules
    "mcbridge.world.cli",  # world serve
    "mcbridge.world.realserver",  # server (flying-squid)
    "mcbridge.tables.cli",  # validate, schema, arena build, run, demo
    "mcbridge.stats.cli",  # stats top/player
    "worldgen.cli",  # worldgen build/paste/export/diff/repair
)

EXIT_INVALID_FILE = 1
EXIT_OPERATOR = 2
EXIT_BUG = 70  # EX_SOFTWARE (sysexits.h)
EXIT_INTERRUPTED = 130
DEBUG_ENV = "MCBRIDGE_DEBUG"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcbridge",
        description="Bluffing games inside a Minecraft Java server (RaspberryJuice protocol).",
        epilog="Exit codes: 0 done, 1 a file has problems, 2 operator error, 70 bug (see --debug), 130 Ctrl-C.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is not None and name.startswith(exc.name):
                continue
            raise
        module.register(subparsers)
    _add_debug(parser, False)
    return parser


def _add_debug(parser: argparse.ArgumentParser, default: object) -> None:
    """`--debug` anywhere on the line: before the command or after it (`mcbridge run X --debug`)."""
    parser.add_argument(
        "--debug", action="store_true", default=default, help=f"show tracebacks (also: {DEBUG_ENV}=1)"
    )
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                # SUPPRESS: a sub-command's default must not undo a --debug given before it
                _add_debug(sub, argparse.SUPPRESS)


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return EXIT_OPERATOR
    _check_ports(parser, args)
    debug = bool(getattr(args, "debug", False)) or os.environ.get(DEBUG_ENV, "") not in ("", "0")
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return 0
    except Exception as exc:
        if debug:
            raise
        return report(exc)


def _check_ports(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """Every command's --port/--*-port: a port number, said before any socket is opened."""
    for name, value in vars(args).items():
        if (name == "port" or name.endswith("_port")) and isinstance(value, int) and not 0 <= value <= 65535:
            flag = "--" + name.replace("_", "-")
            parser.error(f"{flag} {value}: a port is a number from 1 to 65535 (0 = pick a free one where serving)")


def report(exc: BaseException) -> int:
    """One line (one per problem for a file) on stderr for `exc`; returns the exit code."""
    problems = operator_problems(exc)
    if problems is None:
        print(
            f"mcbridge: internal error (a bug): {type(exc).__name__}: {exc}. "
            f"Run again with --debug for the traceback and report it.",
            file=sys.stderr,
        )
        return EXIT_BUG
    code, lines = problems
    for line in lines:
        print(line if code == EXIT_INVALID_FILE else f"error: {line}", file=sys.stderr)
    return code


def operator_problems(exc: BaseException) -> tuple[int, list[str]] | None:
    """(exit code, lines) when `exc` is an operator's mistake, None when it is a bug."""
    import sqlite3

    from mcbridge.core.errors import OptionError
    from mcbridge.core.yamlmarks import YamlError
    from mcbridge.stats.errors import StoreError
    from mcbridge.tables.journal_check import JournalError
    from mcbridge.world.errors import WorldError
    from worldgen.errors import SchematicError

    # ArenaError (wherever the arena model lives) carries its file:line:column lines
    problems = getattr(exc, "problems", None)
    if isinstance(exc, ValueError) and isinstance(problems, list) and problems:
        return EXIT_INVALID_FILE, [_one_line(str(p)) for p in problems]
    if isinstance(exc, YamlError | OptionError):
        return EXIT_INVALID_FILE, [_one_line(str(exc))]
    if isinstance(exc, WorldError | SchematicError | JournalError | StoreError | sqlite3.Error):
        return EXIT_OPERATOR, [_one_line(str(exc) or type(exc).__name__)]
    if isinstance(exc, OSError):
        return EXIT_OPERATOR, [_one_line(_os_message(exc))]
    return None


def _os_message(exc: OSError) -> str:
    reason = exc.strerror or str(exc) or type(exc).__name__
    where = " -> ".join(str(f) for f in (exc.filename, exc.filename2) if f is not None)
    return f"{where}: {reason}" if where else reason


def _one_line(text: str) -> str:
    """Messages may quote player or file text; they still must stay one line each."""
    return " ".join(text.split("\n")).replace("\r", " ")


if __name__ == "__main__":
    sys.exit(main())
