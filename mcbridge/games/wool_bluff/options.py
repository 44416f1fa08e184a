"""Wool Bluff's option schema; the defaults live in seeds/wool_bluff.yaml."""

from mcbridge.core.options import Choice, Int, MapOf, Str, Struct
from mcbridge.games.wool_bluff.actions import COLOURS

SCHEMA = Struct(
    {
        "hand_size": Int(1, 64),
        "turns": Int(1, 1000),
        "min_players": Int(2, 8),
        "max_players": Int(2, 8),
        "weights": MapOf(Int(0, 1000), keys=Choice(*COLOURS), require_all_keys=True),
        "white_multiplier": Int(1, 100),
        "tamper": Choice("warn", "forfeit"),
        "timeouts": Struct(
            {"bid": Int(1, 3600), "respond": Int(1, 3600), "discard": Int(1, 3600), "reveal": Int(1, 3600)},
            required=("bid", "respond", "discard", "reveal"),
        ),
        "prize": Struct(
            {"item": Str(64), "winner": Int(0, 64), "others": Int(0, 64)}, required=("item", "winner", "others")
        ),
    },
    required=(
        "hand_size",
        "turns",
        "min_players",
        "max_players",
        "weights",
        "white_multiplier",
        "tamper",
        "timeouts",
        "prize",
    ),
)
