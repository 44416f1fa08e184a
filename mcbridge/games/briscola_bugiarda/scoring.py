"""The chip table (data in seeds/briscola_bugiarda.yaml) and the per-deal settlement.

P is the card points of the declarer's side. The table gives a unit u for P; the shares
say how many units each role wins or loses. The seed prints its payouts per row; they
are all share x u except one misprint (15 instead of 16 for a partnerless 91-100), so the
table is stored as units and shares, which makes zero-sum checkable once at load time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcbridge.core import OptionError
from mcbridge.games.briscola_bugiarda.cards import TOTAL_POINTS


def check_table(units: Sequence[Mapping[str, int]], shares: Mapping[str, int], players: int) -> None:
    """Every P from 0 to 120 has exactly one row, and both payouts are zero-sum."""
    seen: dict[int, int] = {}
    for i, row in enumerate(units):
        if row["from"] > row["to"]:
            raise OptionError(f"units[{i}]", dict(row), "from <= to")
        for p in range(row["from"], row["to"] + 1):
            if p in seen:
                allowed = f"rows that do not overlap (P={p} is also in units[{seen[p]}])"
                raise OptionError(f"units[{i}]", dict(row), allowed)
            seen[p] = i
    missing = [p for p in range(TOTAL_POINTS + 1) if p not in seen]
    if missing:
        raise OptionError("units", f"no row for P={missing[0]}", f"a row for every P from 0 to {TOTAL_POINTS}")
    if shares["declarer"] + shares["partner"] != (players - 2) * shares["defender"]:
        raise OptionError("shares", dict(shares), f"declarer + partner = {players - 2} x defender (zero-sum)")
    if shares["solo_declarer"] != (players - 1) * shares["defender"]:
        raise OptionError("shares", dict(shares), f"solo_declarer = {players - 1} x defender (zero-sum)")


def unit_for(points: int, units: Sequence[Mapping[str, int]]) -> int:
    return next(int(row["unit"]) for row in units if row["from"] <= points <= row["to"])


def settle(
    points: int, declarer: int, partner: int | None, players: int, options: Mapping[str, Any]
) -> tuple[bool, int, list[int]]:
    """(declarer side won, unit, chip change per seat) for one deal."""
    won = points >= int(options["win_threshold"])
    unit = unit_for(points, options["units"])
    sign = 1 if won else -1
    shares = options["shares"]
    delta = [-sign * unit * int(shares["defender"])] * players
    if partner is None:
        delta[declarer] = sign * unit * int(shares["solo_declarer"])
    else:
        delta[declarer] = sign * unit * int(shares["declarer"])
        delta[partner] = sign * unit * int(shares["partner"])
    return won, unit, delta
