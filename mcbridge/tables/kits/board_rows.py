"""Sign rows shared by the Bribery and Braff renders: short words packed into lines, and
the running standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcbridge.tables.kits.signs import LINE_UNITS, player_name, text_width


def standing_rows(public: Mapping[str, Any], score: str, unit: str = "") -> list[str]:
    """"name score" per seat, best first, from the public view's per-seat `score` list;
    once the match is over (the view carries "standings") the rules' ranking, numbered."""
    rows = public.get("standings")
    if rows is not None:
        return [f"{row['rank']}.{row['name']} {row[score]}{unit}" for row in rows]
    scores = public[score]
    order = sorted(range(len(public["players"])), key=lambda s: (-scores[s], s))
    return [f"{player_name(public, s)} {scores[s]}{unit}" for s in order]


def pack(words: Sequence[str], units: int = LINE_UNITS) -> list[str]:
    """Short words (cards, meter cups) joined by spaces into as few sign lines as they fit."""
    lines: list[str] = []
    for word in words:
        if lines and text_width(lines[-1] + " " + word) <= units:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines
