"""`mcbridge worldgen ...`: paste, export, diff and repair schematics on a live server.

Heavy imports happen inside the commands so `mcbridge --help` stays fast. Positions are
``x,y,z`` in protocol coordinates; a position that starts with a minus sign needs the
``--at=-5,64,3`` spelling (or ``--`` before positional corners), as argparse would take it
for an option otherwise.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcbridge.world.connection import Connection
    from worldgen.grid import BlockGrid
    from worldgen.planner import Plan
    from worldgen.progress import Progress
    from worldgen.states import ConversionReport

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 4711
#: worldgen.schematic.WRITE_FORMATS, spelled out so `mcbridge --help` imports no numpy.
FORMATS = ("sponge-v3", "sponge-v2", "mcedit", "structure")
EXIT_DIFFERENT = 1
EXIT_ERROR = 2
#: Conversion remarks `worldgen info` lists before it sums up the rest.
INFO_LINES = 12


def position(text: str) -> tuple[int, int, int]:
    parts = text.replace(" ", "").split(",")
    try:
        x, y, z = (int(p) for p in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a position; write x,y,z with whole numbers, e.g. 10,64,-3"
        ) from None
    return x, y, z


def rotation(text: str) -> int:
    try:
        degrees = int(text)
    except ValueError:
        degrees = -1
    if degrees < 0 or degrees % 90:
        raise argparse.ArgumentTypeError(f"{text!r}: turn by 0, 90, 180 or 270 degrees")
    return degrees % 360


def fallback_block(text: str) -> Any:
    from worldgen.schematic import Fallback

    try:
        return Fallback(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "worldgen",
        help="paste, export, diff and repair schematics (.schem, .schematic, .nbt)",
        description="Schematics to and from a live RaspberryJuice world.",
    )
    commands = parser.add_subparsers(dest="worldgen_command", metavar="COMMAND", required=True)

    build = commands.add_parser("build", help="write an arena's static structure (config/arenas/*.yaml) as a schematic")
    build.add_argument("arena", help="arena file, e.g. config/arenas/wool_bluff.yaml")
    build.add_argument("-o", "--output", help="file to write (default: the arena's name .schem)")
    _format_arg(build)
    build.set_defaults(func=cmd_build)

    info = commands.add_parser("info", help="what a schematic file holds (no server needed)")
    info.add_argument("file", help="schematic: .schem, .schematic, .nbt or .litematic")
    info.add_argument("--json", action="store_true", help="print the facts as JSON")
    _fallback_arg(info)
    info.set_defaults(func=cmd_info)

    convert = commands.add_parser("convert", help="convert a schematic to another format")
    convert.add_argument("input", help="schematic to read")
    convert.add_argument("output", help="file to write (.schem, .schematic or .nbt)")
    _format_arg(convert)
    _fallback_arg(convert)
    convert.set_defaults(func=cmd_convert)

    paste = commands.add_parser("paste", help="place a schematic in the world")
    _schematic_args(paste)
    paste.add_argument("--dry-run", action="store_true", help="print the plan; send nothing")
    paste.add_argument(
        "--resume",
        action="store_true",
        help="go on with a paste that stopped: send only what is not confirmed written",
    )
    paste.add_argument("--state", help="where a stopped paste is recorded (default: FILE.paste-state.json)")
    _max_box_arg(paste)
    _server_args(paste)
    paste.set_defaults(func=cmd_paste)

    export = commands.add_parser("export", help="save a region of the world as a schematic")
    export.add_argument("corner1", type=position, help="x1,y1,z1")
    export.add_argument("corner2", type=position, help="x2,y2,z2 (inclusive)")
    export.add_argument("-o", "--output", required=True, help="file to write (.schem, ...)")
    _format_arg(export)
    _server_args(export)
    export.set_defaults(func=cmd_export)

    diff = commands.add_parser("diff", help="list where the world differs from a schematic")
    _schematic_args(diff)
    diff.add_argument("--limit", type=int, default=20, help="changed blocks to list (20)")
    _server_args(diff)
    diff.set_defaults(func=cmd_diff)

    repair = commands.add_parser("repair", help="rewrite only what differs from a schematic")
    _schematic_args(repair)
    repair.add_argument("--dry-run", action="store_true", help="read and plan; write nothing")
    repair.add_argument(
        "--signs",
        action="store_true",
        help="also rewrite the text of unchanged signs (it cannot be read back)",
    )
    _max_box_arg(repair)
    _server_args(repair)
    repair.set_defaults(func=cmd_repair)


def box_size(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give the largest box in blocks, e.g. 1000000")
    return value


def _max_box_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--max-box",
        type=box_size,
        help="largest world.setBlocks box in blocks (default: what the server reports,"
        " else 1000000); bigger boxes are cut",
    )


def _format_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=FORMATS,
        help="file format (default: from the file name)",
    )


def _schematic_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="schematic: Sponge .schem v1-3, MCEdit .schematic, .nbt")
    parser.add_argument("--at", type=position, required=True, help="x,y,z of the schematic's low corner")
    parser.add_argument("--rotate", type=rotation, default=0, help="turn clockwise seen from above: 90, 180, 270")
    _fallback_arg(parser)


def _fallback_arg(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fallback",
        type=fallback_block,
        default="minecraft:stone",
        help="block for states the legacy table lacks (default minecraft:stone)",
    )


def _server_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=DEFAULT_HOST, help="RaspberryJuice host (127.0.0.1)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="RaspberryJuice port")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds to wait for any one reply")


# --- commands ---------------------------------------------------------------------------


def cmd_build(args: argparse.Namespace) -> int:
    from pathlib import Path

    from mcbridge.tables.config import ArenaError
    from worldgen.arena import arena_file_grid
    from worldgen.planner import plan_paste
    from worldgen.schematic import write_schematic

    def run() -> int:
        try:
            grid = arena_file_grid(args.arena)
        except ArenaError as exc:
            for problem in exc.problems:
                print(f"error: {problem}", file=sys.stderr)
            return EXIT_ERROR
        output = args.output or str(Path(args.arena).with_suffix(".schem"))
        _print_report(write_schematic(grid, output, fmt=args.format))
        w, h, length = grid.size
        plan = plan_paste(grid, (0, 0, 0))
        print(
            f"wrote {output}: {w}x{h}x{length} = {grid.volume} blocks,"
            f" {len(grid.block_entities)} signs; pastes in {plan.commands} commands"
        )
        return 0

    return _guarded(run)


def cmd_info(args: argparse.Namespace) -> int:
    import json

    from worldgen.schematic import describe, read_schematic

    def run() -> int:
        loaded = read_schematic(args.file, fallback=args.fallback)
        facts = describe(loaded)
        if args.json:
            print(json.dumps(facts, indent=2, ensure_ascii=False))
            return 0
        w, h, length = facts["size"]
        version = facts["data_version"]
        print(f"{args.file}: {facts['format']}, DataVersion {version or 'none'}")
        print(f"  size          {w}x{h}x{length} = {w * h * length} blocks")
        print(f"  paste offset  {','.join(map(str, facts['offset']))} (WorldEdit's, from the player)")
        if facts["origin"] is not None:
            print(f"  origin        {','.join(map(str, facts['origin']))} (where it was copied)")
        print(f"  palette       {facts['palette']} states")
        print(f"  non-air       {facts['non_air_cells']} cells")
        print(f"  block entities {facts['block_entities']}")
        print(
            f"  unknown       {facts['unknown_states']} states, {facts['unknown_cells']} cells"
            f" (placed as {args.fallback})"
        )
        if facts["approximated_cells"]:
            print(f"  approximated  {facts['approximated_cells']} cells (closest legacy block)")
        lines = loaded.report.lines(str(args.fallback))
        for line in lines[:INFO_LINES]:
            print(f"  - {line}")
        if len(lines) > INFO_LINES:
            print(f"  - ... and {len(lines) - INFO_LINES} more (--json, or convert, lists them)")
        return 0

    return _guarded(run)


def cmd_convert(args: argparse.Namespace) -> int:
    from worldgen.schematic import format_for_path, read_schematic, write_schematic

    def run() -> int:
        loaded = read_schematic(args.input, fallback=args.fallback)
        fmt = args.format or format_for_path(args.output)
        written = write_schematic(loaded.grid, args.output, fmt=fmt, fallback=args.fallback)
        for report in (loaded.report, written):
            _print_report(report, str(args.fallback))
        w, h, length = loaded.grid.size
        changed = [
            f"{loaded.report.unknown_cells + written.unknown_cells} unknown cells as"
            f" {args.fallback}",
            f"{sum(loaded.report.approximated.values()) + sum(written.approximated.values())}"
            " approximated",
            f"{sum(written.base_state.values())} as their id's base state",
        ]
        print(
            f"converted {args.input} ({loaded.format}, {w}x{h}x{length}) to {args.output}"
            f" ({fmt}): {', '.join(changed)}; paste offset {','.join(map(str, loaded.grid.offset))}"
        )
        return 0

    return _guarded(run)


def cmd_paste(args: argparse.Namespace) -> int:
    from pathlib import Path

    from worldgen import resume
    from worldgen.errors import PasteIncomplete
    from worldgen.live import apply_plan
    from worldgen.planner import plan_paste

    def run() -> int:
        grid = _load(args)
        if args.dry_run:
            _print_plan(plan_paste(grid, args.at, max_box=args.max_box or _default_box()))
            return 0
        state = Path(args.state) if args.state else resume.default_state_path(args.file)
        with _connect(args) as conn:
            plan = plan_paste(grid, args.at, max_box=_max_box(args, conn))
            fingerprint = resume.Fingerprint(
                resume.file_digest(args.file),
                args.at,
                args.rotate,
                str(args.fallback),
                plan.max_box,
                plan.commands,
            )
            done = resume.load(state, fingerprint) if args.resume else None
            left = plan.commands - (int(done.sum()) if done is not None else 0)
            if done is not None:
                print(f"resuming: {left} of {plan.commands} commands left to send")
            try:
                with _progress("paste", left) as bar:
                    apply_plan(conn, plan, progress=bar, done=done)
            except PasteIncomplete as exc:
                resume.save(state, fingerprint, exc.written)
                print(f"error: paste {exc}", file=sys.stderr)
                print(
                    f"the state is saved in {state}; fix the cause, then run the same command"
                    " with --resume to send only what is missing",
                    file=sys.stderr,
                )
                return EXIT_ERROR
        state.unlink(missing_ok=True)
        print(f"pasted: {plan.summary()}")
        return 0

    return _guarded(run)


def cmd_export(args: argparse.Namespace) -> int:
    from worldgen.operations import export
    from worldgen.schematic import write_schematic

    def run() -> int:
        with _connect(args) as conn, _progress("export", 0, "reads") as bar:
            grid = export(conn, args.corner1, args.corner2, progress=bar)
        report = write_schematic(grid, args.output, fmt=args.format)
        _print_report(report)
        w, h, length = grid.size
        print(f"exported {w}x{h}x{length} = {grid.volume} blocks to {args.output}")
        print("note: sign text cannot be read over RaspberryJuice; exported signs are blank")
        return 0

    return _guarded(run)


def cmd_diff(args: argparse.Namespace) -> int:
    from worldgen.diff import diff_world

    def run() -> int:
        grid = _load(args)
        with _connect(args) as conn, _progress("diff", 0, "reads") as bar:
            found = diff_world(conn, grid, args.at, progress=bar)
        if not found.count:
            print(f"the world matches the schematic ({grid.volume} blocks)")
            return 0
        print(f"{found.count} of {grid.volume} blocks differ")
        for (expected, actual), count in found.summary().most_common(args.limit):
            print(f"  {count:6d} x  expected {expected:>7}  found {actual}")
        shown = found.cells(args.limit)
        ax, ay, az = args.at
        for (x, y, z), key, (block_id, data) in shown:
            found_text = f"{block_id}:{'?' if data is None else data}"
            print(f"  at {ax + x},{ay + y},{az + z}: expected {key >> 4}:{key & 15}, found {found_text}")
        return EXIT_DIFFERENT

    return _guarded(run)


def cmd_repair(args: argparse.Namespace) -> int:
    from worldgen.operations import repair

    def run() -> int:
        grid = _load(args)
        with _connect(args) as conn, _progress("repair", 0, "commands") as bar:
            result = repair(
                conn,
                grid,
                args.at,
                restamp_signs=args.signs,
                dry_run=args.dry_run,
                max_box=_max_box(args, conn),
                progress=bar,
            )
        unverified = result.diff.unverified_count
        rewritten = (
            f"; {unverified} more with unread data written again (the server skips those already right)"
            if unverified
            else ""
        )
        if args.dry_run:
            print(f"# {result.diff.count} of {grid.volume} blocks differ{rewritten}")
            _print_plan(result.plan)
            return 0
        print(
            f"repaired {result.diff.count} of {grid.volume} blocks with"
            f" {result.plan.commands} commands ({result.diff.read.commands} reads in"
            f" {result.diff.read.round_trips} round trips){rewritten}"
        )
        return 0

    return _guarded(run)


# --- helpers ------------------------------------------------------------------------------


def _load(args: argparse.Namespace) -> BlockGrid:
    from worldgen.operations import rotate
    from worldgen.schematic import read_schematic

    loaded = read_schematic(args.file, fallback=args.fallback)
    _print_report(loaded.report, str(args.fallback))
    grid = loaded.grid
    if args.rotate:
        grid, report = rotate(grid, args.rotate)
        _print_report(report)
    return grid


def _default_box() -> int:
    from worldgen.planner import DEFAULT_MAX_BOX

    return DEFAULT_MAX_BOX


def _max_box(args: argparse.Namespace, conn: Connection) -> int:
    """The operator's cap, never above what the server reports; else the server's."""
    reported = conn.max_box()
    if args.max_box is None:
        return reported or _default_box()
    if reported is not None and args.max_box > reported:
        print(
            f"warning: the server takes boxes of at most {reported} blocks;"
            f" using that instead of --max-box {args.max_box}",
            file=sys.stderr,
        )
        return reported
    return int(args.max_box)


def _print_report(report: ConversionReport, fallback: str = "the fallback") -> None:
    for line in report.lines(fallback):
        print(f"warning: {line}", file=sys.stderr)


def _print_plan(plan: Plan) -> None:
    print(f"# {plan.summary()}")
    for name, count in plan.blocks_by_name.most_common():
        print(f"#   {count:7d}  {name}")
    for tick, group in enumerate(plan.tick_groups(), start=1):
        print(f"# tick {tick}: {len(group)} commands")
        for step in group:
            print(step.line())


def _connect(args: argparse.Namespace) -> Connection:
    from mcbridge.world.connection import Connection

    return Connection(args.host, args.port, reply_timeout=args.timeout, connect_timeout=min(args.timeout, 10))


def _progress(label: str, total: int, unit: str = "commands") -> Progress:
    from worldgen.progress import Progress

    return Progress(label, total, unit)


def _guarded(run: Callable[[], int]) -> int:
    """Errors for people become one line on stderr and exit code 2; bugs stay tracebacks."""
    from mcbridge.world.errors import WorldError
    from worldgen.errors import PasteIncomplete, SchematicError
    from worldgen.resume import ResumeError

    try:
        return int(run())
    except BrokenPipeError:
        raise  # output piped into `head`: the top-level CLI ends quietly
    except PasteIncomplete as exc:  # a repair that stopped: running it again resumes it
        print(f"error: {exc}; run the repair again to finish", file=sys.stderr)
        return EXIT_ERROR
    except (SchematicError, WorldError, OSError, ResumeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_ERROR
