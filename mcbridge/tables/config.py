"""Arena YAML: load, check everything, and hand the tables typed, world-placed data.

Operators edit these files by hand, so every problem is reported as
``file:line:column: what is wrong — how to fix it``, and `validate` collects every
problem it can find in one pass instead of stopping at the first.

The schema is the common part (every game) plus the part the arena's game declares
(`ArenaPart`, see `mcbridge.tables.arena`): its booth signs and regions, its board signs,
its own `<game>:` section and the phases that take timeouts. After the schema, the
checks in `CHECKS` (and the game's own `ArenaPart.checks`) each add problems; a new check
is one more function in that list.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from mcbridge import games
from mcbridge.core import OptionError
from mcbridge.core.options import Bool, Choice, Float, Int, ListOf, MapOf, Spec, Str, Struct, unknown_key_hint
from mcbridge.core.yamlmarks import MarkedYaml, YamlError, load_marked_file, path_from_dotted, printable, short_repr
from mcbridge.tables import kits
from mcbridge.tables.arena import (
    ABSENT,
    Arena,
    ArenaCheck,
    ArenaError,
    ArenaPart,
    Bots,
    LeaderboardWall,
    Lobby,
    Region,
    SeatPlan,
    SignSpot,
)
from mcbridge.tables.arena_limits import check_limits
from mcbridge.world.blocks import Block, parse_block
from mcbridge.world.geometry import ArenaFrame, Cuboid, Facing, Pos

__all__ = ["Arena", "ArenaError", "Region", "SeatPlan", "SignSpot", "check_arena", "json_schema", "load_arena"]

XYZ = ListOf(Int(-30_000_000, 30_000_000), 3, 3)
FACE = Choice("north", "east", "south", "west")
REGION = Struct({"from": XYZ, "to": XYZ, "faces": FACE}, required=("from", "to"))
SIGN = Struct({"at": XYZ, "faces": FACE}, required=("at", "faces"))
TIMEOUT = Int(1, 3600)
DEFAULT_ABSENT = 90
DEFAULT_PRIZE = {"item": "diamond", "winner": 5, "others": 1}
REQUIRED = ("name", "game", "origin", "facing", "bounds", "seat_template", "seats", "board", "materials")


def schema_for(part: ArenaPart, *, timeouts: Spec | None = None) -> Struct:
    """The arena schema of one game: the common keys plus the game's part."""
    signs, regions, board = part.all_seat_signs, part.all_seat_regions, part.all_board_signs
    seat_template = Struct(
        {**{name: REGION for name in regions}, "signs": Struct({n: SIGN for n in signs}, required=signs)},
        required=(*regions, "signs"),
    )
    timed = Struct({k: TIMEOUT for k in (*part.timeouts, ABSENT)})
    return Struct(
        {
            "name": Str(64),
            "game": Choice(part.game),
            "origin": XYZ,
            "facing": FACE,
            "bounds": REGION,
            "locale": Choice("ja", "en"),
            "prize": Struct(
                {"item": Str(64), "winner": Int(0, 64), "others": Int(0, 64)}, required=("item", "winner", "others")
            ),
            # checked as a map here and by `_check_timeouts`, which names the game's phases
            "timeouts": timeouts or timed,
            "lobby": Struct({"countdown": Int(0, 3600), "hold": Int(0, 3600)}),
            "bots": Struct({"fill": Bool(), "after": Int(0, 3600), "think": Float(0.0, 60.0)}),
            "options": MapOf(Int(-1_000_000, 1_000_000)),
            "materials": Struct(
                {k: Str(40) for k in ("floor", "wall", "roof", "board")}, required=("floor", "wall", "roof", "board")
            ),
            "board": Struct(
                {"wall": REGION, "signs": Struct({n: SIGN for n in board}, required=board)},
                required=("wall", "signs"),
            ),
            "seat_template": seat_template,
            "seats": ListOf(Struct({"at": XYZ, **{k: REGION for k in regions}}, required=("at",)), 2, 8),
            part.game: Struct(dict(part.settings)),
            "leaderboard": Struct(
                {"game": Choice(*games.available()), "size": Int(1, 64), "signs": ListOf(SIGN, 1, 16)},
                required=("signs",),
            ),
        },
        required=REQUIRED,
    )


def load_arena(path: str | Path) -> Arena:
    """Read and check an arena file; raises ArenaError listing every problem found."""
    try:
        marked = load_marked_file(path)
    except YamlError as exc:
        raise ArenaError([str(exc)]) from None
    return check_arena(marked)


def check_arena(marked: MarkedYaml) -> Arena:
    raw = marked.data if marked.data is not None else {}
    if not isinstance(raw, dict):
        raise ArenaError([f"{marked.where(())}: an arena file is a mapping of keys (name, game, origin, ...)"])
    part = _game_part(raw, marked)
    problems, misplaced = _misplaced_sections(raw, part, marked)
    try:
        data = schema_for(part, timeouts=MapOf(TIMEOUT)).check({k: v for k, v in raw.items() if k not in misplaced}, "")
    except OptionError as exc:
        where, key = marked.where(path_from_dotted(exc.key)), printable(exc.key) or "file"
        raise ArenaError(
            [*problems, f"{where}: {key}: {short_repr(exc.value)} is not allowed; expected {exc.allowed}"]
        ) from None
    if problems:
        raise ArenaError(problems)
    arena = _build(data, part, marked, problems)
    for check in (*CHECKS, *part.checks):
        check(arena, marked, problems)
    if problems:
        raise ArenaError(problems)
    return arena


def _game_part(raw: dict[str, Any], marked: MarkedYaml) -> ArenaPart:
    game = raw.get("game")
    where = marked.where(("game",) if "game" in raw else ())
    with_kits = ", ".join(kits.games_with_kits())
    if not isinstance(game, str) or game not in games.GAMES:
        raise ArenaError(
            [f"{where}: game: {game!r} is not a registered game; registered games: "
             f"{', '.join(games.available())} (with table kits: {with_kits})"]
        )
    if game not in kits.KITS:
        raise ArenaError([f"{where}: game: {game} has no table kit yet; games with table kits: {with_kits}"])
    return kits.arena_part(game)


def _misplaced_sections(raw: dict[str, Any], part: ArenaPart, marked: MarkedYaml) -> tuple[list[str], set[str]]:
    """A section or setting of another game, or a game setting at the top level: say whose it
    is. Returns the problems and the keys they name (the schema need not complain again)."""
    problems: list[str] = []
    keys: set[str] = set()
    others = [kits.arena_part(g) for g in kits.games_with_kits() if g != part.game]
    for key in raw:
        if key in games.GAMES and key != part.game:
            problems.append(
                f"{marked.where((key,))}: '{key}' is the section of {key} arenas; this arena's game is "
                f"{part.game} (its own settings go under '{part.game}:')"
            )
        elif key in part.settings:
            problems.append(f"{marked.where((key,))}: '{key}' is a {part.game} setting: move it under '{part.game}:'")
        else:
            owner = next((o.game for o in others if key in o.settings), None)
            if owner:
                problems.append(
                    f"{marked.where((key,))}: '{key}' is a setting of {owner} arenas, not of {part.game}"
                )
        if len(problems) > len(keys):
            keys.add(key)
    return problems, keys


ORIGIN = Pos(0, 0, 0)


def _region(raw: dict[str, Any], offset: Pos = ORIGIN) -> Region:
    faces = Facing.parse(raw["faces"]) if "faces" in raw else None
    return Region(Cuboid(Pos.of(raw["from"]) + offset, Pos.of(raw["to"]) + offset), faces)


def _sign(raw: dict[str, Any], offset: Pos = ORIGIN) -> SignSpot:
    return SignSpot(Pos.of(raw["at"]) + offset, Facing.parse(raw["faces"]))


def _build(data: dict[str, Any], part: ArenaPart, marked: MarkedYaml, problems: list[str]) -> Arena:
    materials: dict[str, Block] = {}
    for key, text in data["materials"].items():
        try:
            materials[key] = parse_block(text)
        except ValueError as exc:
            problems.append(f"{marked.where(('materials', key))}: materials.{key}: {exc}")
            materials[key] = Block(1)
    template = data["seat_template"]
    seats = []
    for i, seat in enumerate(data["seats"]):
        at = Pos.of(seat["at"])
        regions = {
            name: _region(seat.get(name, template[name]), at if name not in seat else ORIGIN)
            for name in part.all_seat_regions
        }
        signs = {name: _sign(spot, at) for name, spot in template["signs"].items()}
        seats.append(SeatPlan(index=i, regions=regions, signs=signs))
    lobby = data.get("lobby", {})
    wall = data.get("leaderboard")
    leaderboard = None
    if wall is not None:
        # [decided here] default: this arena's game, as many players as the signs hold (3 a sign)
        spots = tuple(_sign(s) for s in wall["signs"])
        leaderboard = LeaderboardWall(wall.get("game", data["game"]), wall.get("size", 4 * len(spots) - 1), spots)
    return Arena(
        name=data["name"],
        game=data["game"],
        frame=ArenaFrame.of(data["origin"], data["facing"]),
        bounds=_region(data["bounds"]).cuboid,
        locale=data.get("locale", "en"),
        prize=data.get("prize", DEFAULT_PRIZE),
        timeouts={**part.timeouts, ABSENT: DEFAULT_ABSENT, **data.get("timeouts", {})},
        options=dict(data.get("options", {})),
        materials=materials,
        board_wall=_region(data["board"]["wall"]),
        board_signs={n: _sign(s) for n, s in data["board"]["signs"].items()},
        seats=seats,
        part=part,
        settings={**part.defaults, **data.get(part.game, {})},
        lobby=Lobby(**{k: float(v) for k, v in lobby.items()}),
        bots=Bots(**data.get("bots", {})),
        leaderboard=leaderboard,
        file=marked.filename,
        raw=data,
    )


def _check_timeouts(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
    """Timeout keys are phases of this game (or `absent`); a typo gets a did-you-mean."""
    known = [*arena.part.timeouts, ABSENT]
    for key in arena.raw.get("timeouts", {}):
        if key not in known:
            problems.append(
                f"{marked.where(('timeouts', key))}: timeouts.{key}: not a phase of {arena.game} that takes a "
                f"timeout; expected {unknown_key_hint(str(key), known)}"
            )


def _check_geometry(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
    named: list[tuple[str, tuple[Any, ...], Cuboid]] = [("board.wall", ("board", "wall"), arena.board_wall.cuboid)]
    for name, spot in arena.board_signs.items():
        named.append((f"board.signs.{name}", ("board", "signs", name), Cuboid(spot.at, spot.at)))
    for i, spot in enumerate(arena.leaderboard.signs if arena.leaderboard else ()):
        named.append((f"leaderboard sign {i + 1}", ("leaderboard", "signs", i), Cuboid(spot.at, spot.at)))
    for seat in arena.seats:
        base = ("seats", seat.index)
        own = arena.raw["seats"][seat.index]
        for name, region in seat.regions.items():
            # a template region lands outside because of this seat's 'at': point there
            src: tuple[Any, ...] = (*base, name) if name in own else (*base, "at")
            named.append((f"seat {seat.index + 1} {name}", src, region.cuboid))
        for name, spot in seat.signs.items():
            named.append((f"seat {seat.index + 1} sign '{name}'", (*base, "at"), Cuboid(spot.at, spot.at)))
        inner = seat.interior.cuboid
        if not seat.booth.cuboid.contains(inner.lo) or not seat.booth.cuboid.contains(inner.hi):
            problems.append(
                f"{marked.where(('seat_template', 'interior'))}: seat {seat.index + 1} interior must lie inside "
                "its booth"
            )
    for label, src, cuboid in named:
        if not (arena.bounds.contains(cuboid.lo) and arena.bounds.contains(cuboid.hi)):
            problems.append(
                f"{marked.where(src)}: {label} {cuboid.lo}..{cuboid.hi} lies outside the arena bounds "
                f"{arena.bounds.lo}..{arena.bounds.hi}; move it or enlarge 'bounds'"
            )
    _check_overlaps(arena, marked, problems)


def _check_overlaps(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
    """Different seats must not share a block; the board must not touch a booth."""
    owners: list[tuple[str, tuple[Any, ...], Cuboid]] = [("board", ("board", "wall"), arena.board_wall.cuboid)]
    for seat in arena.seats:
        parts = [r.cuboid for name, r in seat.regions.items() if name not in ("interior", "door")]
        parts += [Cuboid(s.at, s.at) for s in seat.signs.values()]
        owners += [(f"seat {seat.index + 1}", ("seats", seat.index, "at"), c) for c in parts]
    for i, (a_label, a_src, a) in enumerate(owners):
        for b_label, _b_src, b in owners[i + 1 :]:
            if a_label != b_label and a.intersects(b):
                problems.append(
                    f"{marked.where(a_src)}: {a_label} overlaps {b_label} at {a.lo}..{a.hi}; "
                    "move the seats further apart ('at') or shrink the regions"
                )
                break


def _check_game_options(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
    try:
        game = games.load(arena.game, arena.game_options())
    except OptionError as exc:
        root = exc.key.split(".")[0]
        src = ("options", *path_from_dotted(exc.key)) if root in arena.options else (root,)
        shown = short_repr(exc.value)
        problems.append(f"{marked.where(src)}: {printable(exc.key)}: {shown} is not allowed; expected {exc.allowed}")
        return
    lo, hi = game.player_range
    if len(arena.seats) < lo:
        problems.append(f"{marked.where(('seats',))}: {arena.game} needs at least {lo} seats")
    elif len(arena.seats) > hi:
        problems.append(f"{marked.where(('seats',))}: {arena.game} allows at most {hi} seats")


#: The common checks, in order; a game's `ArenaPart.checks` run after them. `check_limits`:
#: volume, sign clashes and supports, prize item, materials, control characters.
CHECKS: list[ArenaCheck] = [_check_timeouts, _check_geometry, _check_game_options, check_limits]


def json_schema() -> str:
    """One JSON Schema for every game: the common keys, then per game (`if game == G`) its part."""
    branches = []
    for game in kits.games_with_kits():
        branches.append(
            {"if": {"properties": {"game": {"const": game}}}, "then": schema_for(kits.arena_part(game)).json_schema()}
        )
    common = schema_for(kits.arena_part(kits.games_with_kits()[0])).json_schema()
    properties = {k: v for k, v in common["properties"].items() if k not in games.GAMES}
    properties["game"] = {"enum": kits.games_with_kits()}
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "mcbridge arena",
        "type": "object",
        "properties": properties,
        "required": list(REQUIRED),
        "allOf": branches,
    }
    return json.dumps(schema, indent=2)
