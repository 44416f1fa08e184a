"""The Bribery game object: options, match creation, restore, parsing, bot."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar

from mcbridge.core import Action, FirstSeat, Game
from mcbridge.games.bribery import parse
from mcbridge.games.bribery.actions import ACTION_TYPES, EVENT_TYPES
from mcbridge.games.bribery.bot import BriberyBot
from mcbridge.games.bribery.options import SCHEMA, check, influencers_of
from mcbridge.games.bribery.rules import BriberyState


class Bribery(Game):
    name = "bribery"
    schema = SCHEMA
    state_class = BriberyState
    action_types = ACTION_TYPES
    event_types = EVENT_TYPES
    action_aliases: ClassVar[Mapping[str, type[Action]]] = {"FirstStarter": FirstSeat}
    text_parser = staticmethod(parse.parse)
    bot_class = BriberyBot

    def __init__(self, options: Mapping[str, Any] | None = None, seed_file: Path | None = None) -> None:
        super().__init__(options, seed_file)
        self.influencers = influencers_of(self.options)
        #: influencer id -> its VP (scores are summed on every view)
        self.vp_of = {card: data.vp for card, data in self.influencers.items()}
        #: influencer id -> its VP and effect, as views show them: built once and shared by
        #: every view, read-only all the way down so no view's consumer can change it
        self.influencer_table: Mapping[str, Any] = MappingProxyType(
            {
                card: MappingProxyType({**data.to_json(), "effect": MappingProxyType(data.to_json()["effect"])})
                for card, data in self.influencers.items()
            }
        )

    def _check_options(self) -> None:
        check(self.options)
