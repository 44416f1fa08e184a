"""Braff's option schema; the defaults (and every placeholder) live in seeds/braff.yaml."""

from mcbridge.core.options import Bool, Choice, Int, ListOf, MapOf, Str, Struct
from mcbridge.games.braff.cards import COLOURS

#: One character card. rows: colour -> [[cards, bonus], ...] (lists, not int-keyed maps,
#: so the options survive the JSON round trip unchanged).
CHARACTER = Struct(
    {
        "id": Str(32),
        "base": Int(-1, 99),
        "exposed_by_fake": Bool(),
        "rows": MapOf(ListOf(ListOf(Int(-99, 99), 2, 2)), keys=Choice(*COLOURS)),
    },
    required=("id", "base", "exposed_by_fake", "rows"),
)

SCHEMA = Struct(
    {
        "min_players": Int(2, 8),
        "max_players": Int(2, 8),
        "starting_chips": Int(1, 100_000),
        "hand_size": Int(1, 10),
        "max_discard": Int(0, 10),
        "dealer_bonus": Int(0, 99),
        "end_pattern": Choice(1, 2),
        "max_laps": Int(1, 1000),
        "deck": MapOf(Int(0, 100), keys=Choice(*COLOURS), require_all_keys=True),
        "fake_colours": ListOf(Choice(*COLOURS)),
        "meter": MapOf(Int(0, 100_000)),
        "characters": ListOf(CHARACTER, min_len=2, max_len=64),
        "timeouts": Struct(
            {"discard": Int(1, 3600), "bet": Int(1, 3600), "doubt": Int(1, 3600)},
            required=("discard", "bet", "doubt"),
        ),
    },
    required=(
        "min_players",
        "max_players",
        "starting_chips",
        "hand_size",
        "max_discard",
        "dealer_bonus",
        "end_pattern",
        "max_laps",
        "deck",
        "fake_colours",
        "meter",
        "characters",
        "timeouts",
    ),
)
