"""Bribery's option schema and the influencer cards it describes.

The seed (004) names no counts and no card texts, so every number is data in
seeds/bribery.yaml, most of it flagged as a placeholder. Influencer effects are data too:
`effect: {winner_draws: k}` and/or `{losers_who_bet_draw: k}` (rules/bribery.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcbridge.core import OptionError
from mcbridge.core.options import Int, ListOf, Str, Struct

SCHEMA = Struct(
    {
        "min_players": Int(2, 8),
        "max_players": Int(2, 8),
        "hand_size": Int(0, 30),
        "luck_values": ListOf(Int(1, 100_000), min_len=1, max_len=20),
        "luck_copies": ListOf(
            Struct({"players": Int(2, 8), "copies": Int(1, 50)}, required=("players", "copies")), min_len=1
        ),
        "informants": Int(0, 50),
        "pass_draw": Int(0, 10),
        "pass_draw_with_informant": Int(0, 10),
        "influencers": ListOf(
            Struct(
                {
                    "id": Str(40),
                    "vp": Int(0, 100),
                    "effect": Struct({"winner_draws": Int(0, 20), "losers_who_bet_draw": Int(0, 20)}),
                },
                required=("id", "vp", "effect"),
            ),
            min_len=1,
            max_len=40,
        ),
        "removed_influencers": Int(0, 10),
        "tiebreak": ListOf(Str(40), max_len=40),
        "timeouts": Struct({"bet": Int(1, 3600)}, required=("bet",)),
    },
    required=(
        "min_players", "max_players", "hand_size", "luck_values", "luck_copies", "informants", "pass_draw",
        "pass_draw_with_informant", "influencers", "removed_influencers", "tiebreak", "timeouts",
    ),
)


@dataclass(frozen=True)
class Influencer:
    id: str
    vp: int
    winner_draws: int = 0
    losers_who_bet_draw: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "vp": self.vp,
            "effect": {"winner_draws": self.winner_draws, "losers_who_bet_draw": self.losers_who_bet_draw},
        }


def influencers_of(options: Mapping[str, Any]) -> dict[str, Influencer]:
    return {
        card["id"]: Influencer(
            card["id"],
            card["vp"],
            card["effect"].get("winner_draws", 0),
            card["effect"].get("losers_who_bet_draw", 0),
        )
        for card in options["influencers"]
    }


def check(options: Mapping[str, Any]) -> None:
    """Cross-field checks the schema cannot express; OptionError names the key and the fix."""
    lo, hi = options["min_players"], options["max_players"]
    if lo > hi:
        raise OptionError("min_players", lo, f"at most max_players ({hi})")
    copies = [entry["players"] for entry in options["luck_copies"]]
    missing = [n for n in range(lo, hi + 1) if n not in copies]
    if missing or len(copies) != len(set(copies)):
        raise OptionError("luck_copies", options["luck_copies"], f"exactly one entry for each player count {lo}..{hi}")
    values = options["luck_values"]
    if len(values) != len(set(values)):
        raise OptionError("luck_values", values, "distinct values (0 is the informant's value)")
    ids = [card["id"] for card in options["influencers"]]
    if len(ids) != len(set(ids)):
        raise OptionError("influencers", ids, "distinct influencer ids")
    unknown = [t for t in options["tiebreak"] if t not in ids]
    if unknown:
        raise OptionError("tiebreak", unknown, "ids of influencer cards: " + ", ".join(ids))
    removed = options["removed_influencers"]
    if removed >= len(ids):
        raise OptionError("removed_influencers", removed, f"fewer than the {len(ids)} influencers")


def luck_deck(options: Mapping[str, Any], players: int) -> list[int]:
    """Every luck card for this many players: each value the same number of times."""
    copies = next(entry["copies"] for entry in options["luck_copies"] if entry["players"] == players)
    return sorted(value for value in options["luck_values"] for _ in range(copies))
