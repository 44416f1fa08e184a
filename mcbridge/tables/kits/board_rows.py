"""Board rows shared by the Bribery and Braff renders: names and the running standings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def seat_name(public: Mapping[str, Any], seat: int | None) -> str:
    return "" if seat is None else str(public["players"][seat])


def standing_rows(public: Mapping[str, Any], score: str, unit: str = "") -> list[str]:
    """"name score" per seat, best first, from the public view's per-seat `score` list;
    once the match is over (the view carries "standings") the rules' ranking, numbered."""
    rows = public.get("standings")
    if rows is not None:
        return [f"{row['rank']}.{row['name']} {row[score]}{unit}" for row in rows]
    scores = public[score]
    order = sorted(range(len(public["players"])), key=lambda s: (-scores[s], s))
    return [f"{seat_name(public, s)} {scores[s]}{unit}" for s in order]
