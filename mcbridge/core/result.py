"""What every game reports the same way: standings with tied ranks, a typed result and
the header of every view.

Each game keeps its own ranking rule (a sort key per seat) and its own row details; the
core turns keys into competition ranks ("1, 1, 3") once, and gives tables and the CLI one
typed shape to read: the score, its name and which way is better, and the view header.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Better = Literal["higher", "lower"]


def ranked(keys: Sequence[Any]) -> list[tuple[int, int]]:
    """(rank, seat) best first, for per-seat sort keys where a smaller key is better.

    Equal keys share a rank and the next distinct key skips the shared places (1, 1, 3);
    seats with equal keys are listed in seat order.
    """
    order = sorted(range(len(keys)), key=lambda s: (keys[s], s))
    out: list[tuple[int, int]] = []
    for position, seat in enumerate(order):
        tied = out and keys[order[position - 1]] == keys[seat]
        out.append((out[-1][0] if tied else position + 1, seat))
    return out


@dataclass(frozen=True)
class Standing:
    """One seat's line in the standings. `row` is the game's JSON line (every key tables
    have always read: "rank", "seat", "name", the score under its name, "winner", ...)."""

    rank: int
    seat: int
    name: str
    score: int
    winner: bool
    eliminated: bool
    row: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return dict(self.row)


@dataclass(frozen=True, eq=False)
class Result(Mapping[str, Any]):
    """A match's result: standings best first, each with a `score` named `score_name`
    ("torches", "dice", "vp", "chips") where `better` says which way wins.

    It also reads as the JSON mapping it serialises to (`result["standings"]`), so code
    written against the old plain-dict result keeps working.
    """

    over: bool
    standings: tuple[Standing, ...]
    score_name: str
    better: Better
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "over": self.over,
            **self.extra,
            "standings": [s.to_json() for s in self.standings],
            "score_name": self.score_name,
            "better": self.better,
        }

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.standings if s.winner)

    def __getitem__(self, key: str) -> Any:
        return self.to_json()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_json())

    def __len__(self) -> int:
        return len(self.to_json())


@dataclass(frozen=True)
class ViewHeader:
    """The part of every view that is the same for every game (`view(seat)["header"]`).

    `seq` counts the actions applied in this match (chance included), so a renderer can
    tell a new view from a repeat; `deadline` names the timeout (a key of the game's
    `timeouts` option) that runs for the seats in `to_act`, or None when no clock runs.
    """

    game: str
    phase: str
    players: tuple[str, ...]
    to_act: tuple[int, ...]
    scores: tuple[int, ...]
    score_name: str
    better: Better
    seq: int
    deadline: str | None

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "phase": self.phase,
            "players": list(self.players),
            "to_act": list(self.to_act),
            "scores": list(self.scores),
            "score_name": self.score_name,
            "better": self.better,
            "seq": self.seq,
            "deadline": self.deadline,
        }
