"""Briscola bugiarda's option schema; the defaults and the chip table live in
seeds/briscola_bugiarda.yaml."""

from mcbridge.core.options import Int, ListOf, Struct

SCHEMA = Struct(
    {
        # the game is for exactly five: 8 cards each from 40, a declarer, a partner, three defenders
        "min_players": Int(5, 5),
        "max_players": Int(5, 5),
        "laps": Int(1, 100),
        "starting_chips": Int(-100_000, 100_000),
        "win_threshold": Int(1, 120),
        "units": ListOf(
            Struct({"from": Int(0, 120), "to": Int(0, 120), "unit": Int(0, 1000)}, required=("from", "to", "unit")),
            min_len=1,
        ),
        "shares": Struct(
            {"declarer": Int(0, 100), "partner": Int(0, 100), "defender": Int(0, 100), "solo_declarer": Int(0, 100)},
            required=("declarer", "partner", "defender", "solo_declarer"),
        ),
        "timeouts": Struct(
            {"bid": Int(1, 3600), "trump": Int(1, 3600), "play": Int(1, 3600)},
            required=("bid", "trump", "play"),
        ),
    },
    required=(
        "min_players",
        "max_players",
        "laps",
        "starting_chips",
        "win_threshold",
        "units",
        "shares",
        "timeouts",
    ),
)
