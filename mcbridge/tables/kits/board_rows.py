"""Sign rows shared by the Bribery and Braff renders: short words packed into lines, and
the running standings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcbridge.tables.kits.signs import name_then, player_name
from mcbridge.textfit import SIGN_LINE_PX, text_px


def standing_rows(public: Mapping[str, Any], score: str, unit: str = "") -> list[str]:
    """ "name score" per seat, best first, from the public view's per-seat `score` list;
    once the match is over (the view carries "standings") the rules' ranking, numbered."""
    rows = public.get("standings")
    if rows is not None:
        ranked = [(f"{row['rank']}.", str(row["name"]), f" {row[score]}{unit}") for row in rows]
        return [rank + name_then(name, rest, SIGN_LINE_PX - text_px(rank)) for rank, name, rest in ranked]
    scores = public[score]
    order = sorted(range(len(public["players"])), key=lambda s: (-scores[s], s))
    return [name_then(player_name(public, s), f" {scores[s]}{unit}") for s in order]


def pack(words: Sequence[str], px: int = SIGN_LINE_PX) -> list[str]:
    """Short words (cards, meter cups) joined by spaces into as few sign lines as they fit."""
    lines: list[str] = []
    for word in words:
        if lines and text_px(lines[-1] + " " + word) <= px:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines
