"""The arena model: a checked arena file as typed, arena-local data, for any game.

This module and the kits' arena parts (`mcbridge.tables.kits.*_arena`) import nothing of
the table runtime, so worldgen, `validate` and `schema` can use them without loading a
match engine. An arena has common parts every game needs (bounds, board, booths with a
join, seat and info sign) and the parts its game's kit declares in its `ArenaPart`: more
seat signs and regions, board signs, the game's own settings section and the phases that
take a timeout.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from mcbridge.core.options import Spec
from mcbridge.world.blocks import Block
from mcbridge.world.geometry import ArenaFrame, Cuboid, Facing, Pos

if TYPE_CHECKING:
    from mcbridge.core.yamlmarks import MarkedYaml
    from mcbridge.tables.layout import Structure

#: Every booth has these, whatever the game: its shell, the air inside and a door.
COMMON_SEAT_REGIONS = ("booth", "interior", "door")
#: Every booth shows these: click `join` to sit, `seat` (public: who sits there), `info`
#: (private, inside: what the table waits for from this seat).
COMMON_SEAT_SIGNS = ("join", "seat", "info")
#: Every board shows the game and arena (`title`) and where the match is (`status`).
COMMON_BOARD_SIGNS = ("title", "status")
#: The runtime's own timeout: a seated player away this long is played for at once.
ABSENT = "absent"


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

    @cached_property
    def cells(self) -> tuple[Pos, ...]:
        """Cells in reading order as seen from the front: top row first, left to right
        (computed once: renders ask for them on every change)."""
        return tuple(sorted(self.cuboid, key=lambda p: (-p.y, p.x, p.z)))


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
    """One booth: its regions (common and the kit's) by name, and its signs.

    Regions read as attributes too (`seat.booth`, `seat.wool_wall`), since every piece of
    code that uses one knows its name.
    """

    index: int
    regions: Mapping[str, Region]
    signs: Mapping[str, SignSpot]

    def __getattr__(self, name: str) -> Region:
        regions = self.__dict__.get("regions")
        if regions is not None and name in regions:
            return regions[name]
        raise AttributeError(name)


#: A check of a loaded arena: appends 'file:line:col: message' problems.
ArenaCheck = Callable[["Arena", "MarkedYaml", list[str]], None]


@dataclass(frozen=True)
class ArenaPart:
    """What a game's kit adds to the arena schema (declared without the runtime).

    `settings` is the schema of the game's own section (`<game>: {...}` in the YAML),
    `defaults` fills what the section leaves out; `timeouts` maps each phase that has a
    timeout to its default seconds; `rules_options` turns the arena into options for
    `games.load`; `static` draws the kit's fixed blocks for `arena build` and worldgen;
    `checks` are the kit's own geometry checks.
    """

    game: str
    seat_signs: tuple[str, ...]
    seat_regions: tuple[str, ...]
    board_signs: tuple[str, ...]
    timeouts: Mapping[str, int]
    settings: Mapping[str, Spec] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)
    rules_options: Callable[[Arena], dict[str, Any]] = lambda arena: {}
    static: Callable[[Structure, Arena, SeatPlan], None] = lambda structure, arena, seat: None
    checks: tuple[ArenaCheck, ...] = ()

    @property
    def all_seat_signs(self) -> tuple[str, ...]:
        return (*COMMON_SEAT_SIGNS, *self.seat_signs)

    @property
    def all_seat_regions(self) -> tuple[str, ...]:
        return (*COMMON_SEAT_REGIONS, *self.seat_regions)

    @property
    def all_board_signs(self) -> tuple[str, ...]:
        return (*COMMON_BOARD_SIGNS, *self.board_signs)


@dataclass(frozen=True)
class Lobby:
    """Between matches: `hold` seconds of standings on the board, then a `countdown` that
    starts the next match once enough players sit (at once when every booth is taken)."""

    countdown: float = 10.0
    hold: float = 20.0


@dataclass(frozen=True)
class Bots:
    """Library bots in empty booths: with `fill`, once a person has sat `after` seconds
    waiting, bots take the free booths; each bot answers `think` seconds after its decision
    comes up (a person takes a bot's booth between matches, see `mcbridge.tables.seat_fill`)."""

    fill: bool = False
    after: float = 30.0
    think: float = 1.0


@dataclass(frozen=True)
class LeaderboardWall:
    """The optional `leaderboard:` wall: the top `size` players of `game` on `signs`, in order."""

    game: str
    size: int
    signs: tuple[SignSpot, ...]


@dataclass(frozen=True)
class Arena:
    """A checked arena. Positions are local; `frame` places them in the world."""

    name: str
    game: str
    frame: ArenaFrame
    bounds: Cuboid
    locale: str
    prize: dict[str, Any]
    timeouts: dict[str, int]
    options: dict[str, Any]
    materials: dict[str, Block]
    board_wall: Region
    board_signs: dict[str, SignSpot]
    seats: list[SeatPlan]
    part: ArenaPart
    settings: dict[str, Any] = field(default_factory=dict)
    lobby: Lobby = field(default_factory=Lobby)
    bots: Bots = field(default_factory=Bots)
    leaderboard: LeaderboardWall | None = None
    file: str = ""
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def game_options(self) -> dict[str, Any]:
        """Rules options: the arena's `options` plus what the game's kit derives from the arena."""
        return {**self.options, **self.part.rules_options(self)}

    def setting(self, name: str) -> Any:
        """One of the game's own settings (its YAML section), with the kit's default."""
        return self.settings.get(name, self.part.defaults.get(name))
