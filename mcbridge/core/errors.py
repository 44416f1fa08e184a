"""Errors the rules core raises.

`IllegalAction` carries a stable `code` so a table can translate it for the player in their
language; the English `str()` is for logs and tests only.
"""

from __future__ import annotations

from typing import Any


class IllegalAction(Exception):
    """An action the rules refuse. The state is unchanged when this is raised."""

    def __init__(self, code: str, **details: Any) -> None:
        self.code = code
        self.details = details
        shown = ", ".join(f"{k}={v!r}" for k, v in details.items())
        super().__init__(f"{code}({shown})" if shown else code)


class OptionError(ValueError):
    """A game option or seed value is unknown, of the wrong type, or out of range.

    The message names the key, the value and what is allowed; `where` (file:line:column)
    is filled in when the value came from a YAML file.
    """

    def __init__(self, key: str, value: Any, allowed: str, where: str | None = None, code: str = "bad_option") -> None:
        self.key = key
        self.value = value
        self.allowed = allowed
        self.where = where
        #: stable for tools and tests: "bad_option" unless a check names the problem better
        self.code = code
        super().__init__(self._message())

    def _message(self) -> str:
        prefix = f"{self.where}: " if self.where else ""
        return f"{prefix}option '{self.key}': {self.value!r} is not allowed; expected {self.allowed}"

    def located(self, where: str) -> OptionError:
        return OptionError(self.key, self.value, self.allowed, where, self.code)


class BadState(ValueError):
    """Saved match data (`Game.from_json`) that is not a match of this game.

    Like IllegalAction it carries a stable `code` ("bad_json", "wrong_game",
    "missing_field", "bad_state") and details that name the field and what was expected.
    It is a ValueError so callers that guard a restore with `except ValueError` keep working.
    """

    def __init__(self, code: str, **details: Any) -> None:
        self.code = code
        self.details = details
        shown = ", ".join(f"{k}={v!r}" for k, v in details.items())
        super().__init__(f"{code}({shown})" if shown else code)
