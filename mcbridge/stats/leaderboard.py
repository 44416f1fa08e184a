"""Leaderboards and `!stats` answers as plain text: pure functions of store rows.

Sign lines go through `fit_sign_line` (pixel width) after `sign_line` (no control or
formatting characters: a player named "§4Admin" shows as typed, minus the section sign's
power). A wall is a list of signs of four lines each, filled top to bottom.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcbridge.i18n import Locale
from mcbridge.stats.store import BoardRow, PlayerGame
from mcbridge.textfit import fit_sign_line
from mcbridge.world.sanitize import sign_line

SIGN_LINES = 4
#: chat words asking for one's own stats (`!stats`, `!成績`, full-width `！` too)
STATS_WORDS = frozenset({"stats", "成績"})


def is_stats_request(message: str) -> bool:
    """Whether a chat line asks for the speaker's stats (the table's chat hook checks this)."""
    text = message.strip()
    return text.startswith(("!", "！")) and text.lstrip("!！").strip().lower() in STATS_WORDS


def safe_name(name: str) -> str:
    """A stored name as players may see it: exactly, but without § codes or control characters."""
    return sign_line(name.replace("§", ""))


def board_signs(title: str, rows: Sequence[BoardRow], signs: int) -> list[tuple[str, ...]]:
    """`signs` signs of lines: the title, then one line per player ("1 Aki 12.3"), blank after."""
    lines = [fit_sign_line(sign_line(title))]
    lines += [fit_sign_line(f"{row.rank} {safe_name(row.player)} {row.ordinal:.1f}") for row in rows]
    lines = lines[: signs * SIGN_LINES]
    lines += [""] * (signs * SIGN_LINES - len(lines))
    return [tuple(lines[i : i + SIGN_LINES]) for i in range(0, len(lines), SIGN_LINES)]


def stats_lines(text: Locale, name: str, games: Sequence[PlayerGame]) -> list[str]:
    """The private answer to `!stats`: one line per game the player has played."""
    if not games:
        return [text.t("stats.none", name=safe_name(name))]
    return [
        text.t(
            "stats.line",
            game=text.t(f"{g.game}.name"),
            rank=g.rank,
            rating=f"{g.ordinal:.1f}",
            matches=g.matches,
            wins=g.wins,
        )
        for g in games
    ]
