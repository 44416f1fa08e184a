"""Dice Bluff's option schema and the rules a ruleset resolves to.

`ruleset` picks the defaults of a whole family (Bluff or Perudo); the options `wild_face`,
`exact`, `penalty`, `set_aside` and `palifico` are `null` in seeds/dice_bluff.yaml, which
means "as the ruleset says", and any explicit value wins. That keeps `--option
ruleset=perudo` a one-word switch while OpenSpiel's settings (Bluff bids, loser pays one,
exact hit costs the challenger) stay expressible.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

from mcbridge.core.options import Choice, Int, Struct

RULESETS = ("bluff", "perudo")

SCHEMA = Struct(
    {
        "ruleset": Choice(*RULESETS),
        "min_players": Int(2, 8),
        "max_players": Int(2, 8),
        "dice_per_player": Int(1, 10),
        "wild_face": Choice(None, 1, 6),
        "exact": Choice(None, "all_others", "challenger_only"),
        "penalty": Choice(None, "difference", "one"),
        "set_aside": Choice(None, True, False),
        "palifico": Choice(None, True, False),
        "timeouts": Struct({"bid": Int(1, 3600)}, required=("bid",)),
    },
    required=("ruleset", "min_players", "max_players", "dice_per_player", "timeouts"),
)

#: What each ruleset means for the options left at null (rules/dice_bluff.md, last table).
RULESET_DEFAULTS: dict[str, dict[str, Any]] = {
    "bluff": {"wild_face": 6, "exact": "all_others", "penalty": "difference", "set_aside": True, "palifico": False},
    "perudo": {"wild_face": 1, "exact": "challenger_only", "penalty": "one", "set_aside": False, "palifico": True},
}

@dataclass(frozen=True)
class DiceRules:
    """The options after the ruleset filled in every null: what the state machine reads."""

    ruleset: str
    dice_per_player: int
    wild_face: int
    exact: str
    penalty: str
    set_aside: bool
    palifico: bool

    @property
    def wild_label(self) -> str:
        """How logs name a wild bid: Bluff dice show a star, Perudo calls the 1 a paco."""
        return "star" if self.ruleset == "bluff" else "paco"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def resolve_rules(options: Mapping[str, Any]) -> DiceRules:
    defaults = RULESET_DEFAULTS[options["ruleset"]]

    def pick(key: str) -> Any:
        value = options.get(key)
        return defaults[key] if value is None else value

    return DiceRules(
        ruleset=options["ruleset"],
        dice_per_player=int(options["dice_per_player"]),
        wild_face=int(pick("wild_face")),
        exact=str(pick("exact")),
        penalty=str(pick("penalty")),
        set_aside=bool(pick("set_aside")),
        palifico=bool(pick("palifico")),
    )
