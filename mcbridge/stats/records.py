"""What the store keeps of one finished match (built from the journal, JSON for the outbox)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Any

#: where a result does not name its score (`score_name`), the first of these a row has
SCORE_FIELDS = ("score", "vp", "points", "chips", "torches")


@dataclass(frozen=True)
class SeatResult:
    seat: int
    player: str
    rank: int
    score: float | None
    is_bot: bool
    detail: dict[str, Any]


@dataclass(frozen=True)
class MatchRecord:
    journal_id: str
    match_id: int
    game: str
    arena: str
    started: float
    finished: float
    seats: tuple[SeatResult, ...]

    @property
    def duration(self) -> float:
        return max(0.0, self.finished - self.started)

    def to_json(self) -> str:
        return json.dumps(asdict(self), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        data = json.loads(text)
        data["seats"] = tuple(SeatResult(**s) for s in data["seats"])
        return cls(**data)


def seat_results(
    standings: list[dict[str, Any]], bots: frozenset[str], score_name: str | None = None
) -> tuple[SeatResult, ...]:
    """The rules' standings rows as seat results, names kept exactly as the players have them."""
    fields = (score_name, *SCORE_FIELDS) if score_name else SCORE_FIELDS
    out = []
    for row in standings:
        score = next((row[k] for k in fields if isinstance(row.get(k), int | float)), None)
        name = str(row["name"])
        out.append(
            SeatResult(
                seat=int(row["seat"]),
                player=name,
                rank=int(row["rank"]),
                score=None if score is None or isinstance(score, bool) else float(score),
                is_bot=name in bots,
                detail={k: v for k, v in row.items() if k not in ("seat", "name", "rank")},
            )
        )
    return tuple(sorted(out, key=lambda s: s.seat))
