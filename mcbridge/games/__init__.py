"""One module per game on the rules core; `load(name, options)` is the way in.

Games register by module name here, so adding a game is one line and importing this
package stays cheap (game modules load on first use).
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from typing import Any

from mcbridge.core import CHANCE, Action, Event, Game, IllegalAction, OptionError, State

#: game name -> module that defines `GAME_CLASS`
GAMES: dict[str, str] = {
    "wool_bluff": "mcbridge.games.wool_bluff",
    "dice_bluff": "mcbridge.games.dice_bluff",
    "bribery": "mcbridge.games.bribery",
    "braff": "mcbridge.games.braff",
    "briscola_bugiarda": "mcbridge.games.briscola_bugiarda",
}


def available() -> list[str]:
    """Games whose module is present in this checkout."""
    found = []
    for name, module in GAMES.items():
        if importlib.util.find_spec(module) is not None:
            found.append(name)
    return found


def load(name: str, options: Mapping[str, Any] | None = None) -> Game:
    """The game `name` with its seed defaults, `options` on top (checked)."""
    module_name = GAMES.get(name) if isinstance(name, str) else None
    if module_name is None or importlib.util.find_spec(module_name) is None:
        raise OptionError("game", name, "one of " + ", ".join(available()))
    module = importlib.import_module(module_name)
    game_class: type[Game] = module.GAME_CLASS
    return game_class(options)


__all__ = ["CHANCE", "GAMES", "Action", "Event", "Game", "IllegalAction", "OptionError", "State", "available", "load"]
