"""Arena YAML: load, check everything, and hand the tables typed, world-placed data.

Operators edit these files by hand, so every problem is reported as
``file:line:column: what is wrong — how to fix it``, and `validate` collects every
problem it can find in one pass instead of stopping at the first.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcbridge.core import OptionError
from mcbridge.core.options import Choice, Int, ListOf, MapOf, Str, Struct
from mcbridge.core.yamlmarks import MarkedYaml, YamlError, load_marked_file, path_from_dotted
from mcbridge.world.blocks import Block, parse_block
from mcbridge.world.geometry import ArenaFrame, Cuboid, Facing, Pos

XYZ = ListOf(Int(-30_000_000, 30_000_000), 3, 3)
FACE = Choice("north", "east", "south", "west")
REGION = Struct({"from": XYZ, "to": XYZ, "faces": FACE}, required=("from", "to"))
SIGN = Struct({"at": XYZ, "faces": FACE}, required=("at", "faces"))
SEAT_SIGNS = ("colour", "minus", "bid", "plus", "through", "bluff", "info", "seat", "join")
BOARD_SIGNS = ("title", "status", "bid", "to_act", "wool", "standings")
SEAT_REGIONS = ("booth", "interior", "door", "hand_display", "wool_wall", "torch_wall", "discard_pad")

SEAT_TEMPLATE = Struct(
    {**{name: REGION for name in SEAT_REGIONS}, "signs": Struct({n: SIGN for n in SEAT_SIGNS}, required=SEAT_SIGNS)},
    required=(*SEAT_REGIONS, "signs"),
)

SCHEMA = Struct(
    {
        "name": Str(64),
        "game": Choice("wool_bluff"),
        "origin": XYZ,
        "facing": FACE,
        "bounds": REGION,
        "locale": Choice("ja", "en"),
        "dispensing": Choice("booth", "give"),
        "torches": Choice("controller", "players"),
        "tamper": Choice("warn", "forfeit"),
        "prize": Struct(
            {"item": Str(64), "winner": Int(0, 64), "others": Int(0, 64)}, required=("item", "winner", "others")
        ),
        "timeouts": Struct(
            {k: Int(1, 3600) for k in ("bid", "respond", "discard", "reveal", "absent")},
        ),
        "options": MapOf(Int(-1_000_000, 1_000_000)),
        "materials": Struct(
            {k: Str(40) for k in ("floor", "wall", "roof", "board")}, required=("floor", "wall", "roof", "board")
        ),
        "board": Struct(
            {"wall": REGION, "signs": Struct({n: SIGN for n in BOARD_SIGNS}, required=BOARD_SIGNS)},
            required=("wall", "signs"),
        ),
        "seat_template": SEAT_TEMPLATE,
        "seats": ListOf(Struct({"at": XYZ, **{k: REGION for k in SEAT_REGIONS}}, required=("at",)), 2, 8),
    },
    required=("name", "game", "origin", "facing", "bounds", "seat_template", "seats", "board", "materials"),
)

DEFAULT_TIMEOUTS = {"bid": 60, "respond": 30, "discard": 45, "reveal": 60, "absent": 90}


class ArenaError(ValueError):
    """One or more problems in an arena file; `problems` are 'file:line:col: message' lines."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = problems
        super().__init__("\n".join(problems))


@dataclass(frozen=True)
class Region:
    """A local cuboid, with the direction its visible face looks (for walls)."""

    cuboid: Cuboid
    faces: Facing | None = None

    @property
    def cells(self) -> list[Pos]:
        """Cells in reading order as seen from the front: top row first, left to right."""
        return sorted(self.cuboid, key=lambda p: (-p.y, p.x, p.z))


@dataclass(frozen=True)
class SignSpot:
    at: Pos
    faces: Facing

    @property
    def support(self) -> Pos:
        """The block a wall sign facing `faces` hangs on (behind it)."""
        return self.at - self.faces.vector


@dataclass(frozen=True)
class SeatPlan:
    index: int
    booth: Region
    interior: Region
    door: Region
    hand_display: Region
    wool_wall: Region
    torch_wall: Region
    discard_pad: Region
    signs: dict[str, SignSpot]


@dataclass(frozen=True)
class Arena:
    """A checked arena. Positions are local; `frame` places them in the world."""

    name: str
    game: str
    frame: ArenaFrame
    bounds: Cuboid
    locale: str
    dispensing: str
    torches: str
    tamper: str
    prize: dict[str, Any]
    timeouts: dict[str, int]
    options: dict[str, Any]
    materials: dict[str, Block]
    board_wall: Region
    board_signs: dict[str, SignSpot]
    seats: list[SeatPlan]
    file: str = ""
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def game_options(self) -> dict[str, Any]:
        """Rules options: the arena's `options` plus the policy keys it sets at top level."""
        return {
            **self.options,
            "tamper": self.tamper,
            "prize": self.prize,
            "max_players": max(len(self.seats), 2),
            "timeouts": {k: v for k, v in self.timeouts.items() if k != "absent"},
        }


def load_arena(path: str | Path) -> Arena:
    """Read and check an arena file; raises ArenaError listing every problem found."""
    try:
        marked = load_marked_file(path)
    except YamlError as exc:
        raise ArenaError([str(exc)]) from None
    return check_arena(marked)


def check_arena(marked: MarkedYaml) -> Arena:
    try:
        data = SCHEMA.check(marked.data if marked.data is not None else {}, "")
    except OptionError as exc:
        where = marked.where(path_from_dotted(exc.key))
        raise ArenaError(
            [f"{where}: {exc.key or 'file'}: {exc.value!r} is not allowed; expected {exc.allowed}"]
        ) from None
    problems: list[str] = []
    arena = _build(data, marked, problems)
    _check_geometry(arena, marked, problems)
    _check_game_options(arena, marked, problems)
    if problems:
        raise ArenaError(problems)
    return arena


ORIGIN = Pos(0, 0, 0)


def _region(raw: dict[str, Any], offset: Pos = ORIGIN) -> Region:
    faces = Facing.parse(raw["faces"]) if "faces" in raw else None
    return Region(Cuboid(Pos.of(raw["from"]) + offset, Pos.of(raw["to"]) + offset), faces)


def _sign(raw: dict[str, Any], offset: Pos = ORIGIN) -> SignSpot:
    return SignSpot(Pos.of(raw["at"]) + offset, Facing.parse(raw["faces"]))


def _build(data: dict[str, Any], marked: MarkedYaml, problems: list[str]) -> Arena:
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
            name: _region(seat.get(name, template[name]), at if name not in seat else ORIGIN) for name in SEAT_REGIONS
        }
        signs = {name: _sign(spot, at) for name, spot in template["signs"].items()}
        seats.append(SeatPlan(index=i, signs=signs, **regions))
    timeouts = {**DEFAULT_TIMEOUTS, **data.get("timeouts", {})}
    return Arena(
        name=data["name"],
        game=data["game"],
        frame=ArenaFrame.of(data["origin"], data["facing"]),
        bounds=_region(data["bounds"]).cuboid,
        locale=data.get("locale", "en"),
        dispensing=data.get("dispensing", "booth"),
        torches=data.get("torches", "controller"),
        tamper=data.get("tamper", "warn"),
        prize=data.get("prize", {"item": "diamond", "winner": 5, "others": 1}),
        timeouts=timeouts,
        options=dict(data.get("options", {})),
        materials=materials,
        board_wall=_region(data["board"]["wall"]),
        board_signs={n: _sign(s) for n, s in data["board"]["signs"].items()},
        seats=seats,
        file=marked.filename,
        raw=data,
    )


def _check_geometry(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
    def at(*path: Any) -> str:
        return marked.where(tuple(path))

    named: list[tuple[str, tuple[Any, ...], Cuboid]] = [("board.wall", ("board", "wall"), arena.board_wall.cuboid)]
    for name, spot in arena.board_signs.items():
        named.append((f"board.signs.{name}", ("board", "signs", name), Cuboid(spot.at, spot.at)))
    hand = int(arena.options.get("hand_size", 10))
    too_small: set[tuple[Any, ...]] = set()  # a template region too small is one problem, not one per seat
    for seat in arena.seats:
        base = ("seats", seat.index)
        own = arena.raw["seats"][seat.index]
        for name in SEAT_REGIONS:
            region: Region = getattr(seat, name)
            # a template region lands outside because of this seat's 'at': point there
            src: tuple[Any, ...] = (*base, name) if name in own else (*base, "at")
            named.append((f"seat {seat.index + 1} {name}", src, region.cuboid))
        for name, spot in seat.signs.items():
            named.append((f"seat {seat.index + 1} sign '{name}'", (*base, "at"), Cuboid(spot.at, spot.at)))
        for name in ("hand_display", "wool_wall", "torch_wall"):
            region = getattr(seat, name)
            src = (*base, name) if name in own else ("seat_template", name)
            if region.cuboid.volume < hand and src not in too_small:
                too_small.add(src)
                who = f"seat {seat.index + 1} {name}" if name in own else f"{name} (every seat)"
                problems.append(
                    f"{marked.where(src)}: {who} holds "
                    f"{region.cuboid.volume} blocks but a hand is {hand}; make it at least {hand} blocks"
                )
        for name in ("wool_wall", "torch_wall"):
            if getattr(seat, name).faces is None:
                problems.append(f"{at('seat_template', name)}: {name} needs 'faces' (the side players look at)")
        if not seat.booth.cuboid.contains(seat.interior.cuboid.lo) or not seat.booth.cuboid.contains(
            seat.interior.cuboid.hi
        ):
            problems.append(
                f"{at('seat_template', 'interior')}: seat {seat.index + 1} interior must lie inside its booth"
            )
    for label, src, cuboid in named:
        if not (arena.bounds.contains(cuboid.lo) and arena.bounds.contains(cuboid.hi)):
            problems.append(
                f"{marked.where(src)}: {label} {cuboid.lo}..{cuboid.hi} lies outside the arena bounds "
                f"{arena.bounds.lo}..{arena.bounds.hi}; move it or enlarge 'bounds'"
            )
    # Different seats must not share a block; the board must not touch a booth.
    owners: list[tuple[str, tuple[Any, ...], Cuboid]] = [("board", ("board", "wall"), arena.board_wall.cuboid)]
    for seat in arena.seats:
        parts = [seat.booth.cuboid, seat.wool_wall.cuboid, seat.torch_wall.cuboid]
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
    from mcbridge import games

    try:
        game = games.load(arena.game, arena.game_options())
    except OptionError as exc:
        root = exc.key.split(".")[0]
        src = ("options", *path_from_dotted(exc.key)) if root in arena.options else (root,)
        problems.append(f"{marked.where(src)}: {exc.key}: {exc.value!r} is not allowed; expected {exc.allowed}")
        return
    lo, _hi = game.player_range
    if len(arena.seats) < lo:
        problems.append(f"{marked.where(('seats',))}: {arena.game} needs at least {lo} seats")


def json_schema() -> str:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "mcbridge arena",
        **SCHEMA.json_schema(),
    }
    return json.dumps(schema, indent=2)
