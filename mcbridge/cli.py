"""The `mcbridge` command line.

Each layer owns its sub-commands in its own module, which exposes
``register(subparsers)``; this module only wires them together, so adding a command never
means editing a shared file beyond the list below. Heavy imports happen inside the command
functions, so `mcbridge --help` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: Modules that add sub-commands. A module that is missing (a layer not built yet) is skipped.
COMMAND_MODULES = (
    "mcbridge.games.cli",  # rules
    "mcbridge.world.cli",  # world serve
    "mcbridge.world.realserver",  # server (flying-squid)
    "mcbridge.tables.cli",  # validate, schema, arena build, run, demo
    "worldgen.cli",  # worldgen build/paste/export/diff/repair
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcbridge",
        description="Bluffing games inside a Minecraft Java server (RaspberryJuice protocol).",
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
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help()
        return 2
    try:
        return int(func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
