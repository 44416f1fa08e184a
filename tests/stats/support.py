"""Match records for stats tests, with exact names and ranks."""

from __future__ import annotations

from mcbridge.stats.records import MatchRecord, SeatResult


def record(match_id: int, ranking: list[str], game: str = "wool_bluff", journal: str = "j1",
           bots: frozenset[str] = frozenset()) -> MatchRecord:
    """A finished match where ranking[0] won, ranking[1] came second, ..."""
    seats = tuple(
        SeatResult(seat=i, player=name, rank=i + 1, score=float(10 - i), is_bot=name in bots, detail={"x": i})
        for i, name in enumerate(ranking)
    )
    return MatchRecord(journal, match_id, game, "arena", 1000.0 + match_id, 1060.0 + match_id, seats)
