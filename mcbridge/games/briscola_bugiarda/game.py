"""The Briscola bugiarda game object: options (checked), match creation, parsing, bot."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from types import MappingProxyType
from typing import Any, ClassVar

from mcbridge.core import Action, FirstSeat, Game
from mcbridge.games.briscola_bugiarda import parse
from mcbridge.games.briscola_bugiarda.actions import ACTION_TYPES, EVENT_TYPES
from mcbridge.games.briscola_bugiarda.bot import BriscolaBot
from mcbridge.games.briscola_bugiarda.options import SCHEMA
from mcbridge.games.briscola_bugiarda.rules import BriscolaState
from mcbridge.games.briscola_bugiarda.scoring import check_table


class BriscolaBugiarda(Game):
    name = "briscola_bugiarda"
    schema = SCHEMA
    state_class = BriscolaState
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    action_aliases: ClassVar[Mapping[str, type[Action]]] = {"FirstDealer": FirstSeat}
    text_parser = staticmethod(parse.parse)
    bot_class = BriscolaBot

    def _check_options(self) -> None:
        o = self.options
        check_table(o["units"], o["shares"], o["max_players"])

    @cached_property
    def view_constants(self) -> dict[str, Any]:
        """The view keys that come from the options alone, built once and copied into every
        view of every match. The values are read-only (an int, a tuple of read-only mappings,
        a read-only mapping), so no view's consumer can change them; only views are given
        this dict's contents, never the dict."""
        o = self.options
        return {
            "win_threshold": int(o["win_threshold"]),
            "units": tuple(MappingProxyType(dict(row)) for row in o["units"]),
            "shares": MappingProxyType(dict(o["shares"])),
        }
