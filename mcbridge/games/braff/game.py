"""The Braff game object: options (checked), the character table and meter, match creation."""

from __future__ import annotations

import marshal
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from mcbridge.core import Action, FirstSeat, Game, OptionError
from mcbridge.games.braff import parse
from mcbridge.games.braff.actions import ACTION_TYPES, EVENT_TYPES
from mcbridge.games.braff.bot import BraffBot
from mcbridge.games.braff.cards import Character, character_from_option, cup_label, cup_ordinal, deck_cards
from mcbridge.games.braff.options import SCHEMA
from mcbridge.games.braff.rules import BraffState


class Braff(Game):
    name = "braff"
    schema = SCHEMA
    state_class = BraffState
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    action_aliases: ClassVar[Mapping[str, type[Action]]] = {"FirstDealer": FirstSeat}
    text_parser = staticmethod(parse.parse)
    bot_class = BraffBot

    def __init__(self, options: Mapping[str, Any] | None = None, seed_file: Path | None = None) -> None:
        super().__init__(options, seed_file)
        #: id -> Character, in table order
        self.characters: dict[str, Character] = {
            str(c["id"]): character_from_option(c) for c in self.options["characters"]
        }
        #: (cup ordinal, minimum stake), smallest cup first
        self.meter: list[tuple[int, int]] = sorted(
            (ordinal, int(minimum))
            for label, minimum in self.options["meter"].items()
            if (ordinal := cup_ordinal(str(label))) is not None
        )
        self.meter_minimum: dict[int, int] = dict(self.meter)
        #: (cup label, minimum stake), as views show the meter
        self.meter_rows: list[tuple[str, int]] = [(cup_label(cup), minimum) for cup, minimum in self.meter]
        # [decided here] The character table is in every view; marshal makes a fresh deep
        # copy of it at half the cost of building it again from the characters.
        self._character_table = marshal.dumps([c.to_json() for c in self.characters.values()])
        #: what a shuffle must hold, sorted (a shuffle is checked against these)
        self.sorted_characters = sorted(self.characters)
        self.sorted_deck = sorted(deck_cards(self.options["deck"]))
        #: "A, B, ..." for messages that list the meter
        self.meter_labels = ", ".join(cup_label(cup) for cup, _ in self.meter)

    def character_table(self) -> list[dict[str, Any]]:
        """The public character table as views show it (a new copy every time)."""
        table: list[dict[str, Any]] = marshal.loads(self._character_table)
        return table

    def _check_options(self) -> None:
        o = self.options
        if not o["meter"]:
            raise OptionError("meter", o["meter"], "at least one cup with its minimum stake")
        seen: dict[int, str] = {}
        for label in o["meter"]:
            ordinal = cup_ordinal(str(label))
            if ordinal is None:
                raise OptionError(f"meter.{label}", label, "a cup label: AAA, AA or a letter A..Z")
            if ordinal in seen:
                # labels are case-insensitive, so {"A": 1, "a": 5} would name one cup twice
                allowed = f"one minimum per cup ('{seen[ordinal]}' and '{label}' are the same cup)"
                raise OptionError(f"meter.{label}", label, allowed, code="duplicate_cup")
            seen[ordinal] = str(label)
        ids = [c["id"] for c in o["characters"]]
        if len(set(ids)) != len(ids):
            raise OptionError("characters", ids, "distinct character ids")
        if len(ids) < o["max_players"]:
            raise OptionError("characters", len(ids), f"at least one character per player ({o['max_players']})")
        for i, character in enumerate(o["characters"]):
            for colour, rows in character["rows"].items():
                cards = [k for k, _ in rows]
                if any(k < 1 for k in cards) or len(set(cards)) != len(cards):
                    allowed = "[[cards, bonus], ...] with distinct card counts of at least 1"
                    raise OptionError(f"characters[{i}].rows.{colour}", rows, allowed)
        needed = o["max_players"] * (o["hand_size"] + o["max_discard"])
        if sum(o["deck"].values()) < needed:
            allowed = f"at least {needed} cards (a hand and the most discards for every player)"
            raise OptionError("deck", o["deck"], allowed)
