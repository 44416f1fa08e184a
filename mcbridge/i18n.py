"""Player-facing text from config/locales/<lang>/*.yaml.

Each file is one namespace (`common.yaml`, `wool_bluff.yaml`, ...), so every game keeps its
own texts and translators see one game at a time. Keys are looked up as
``<file>.<dotted.path>``; a missing key falls back to English, then to the key itself, so
a missing translation shows up in the game instead of crashing it.

Rules events and refusals are rendered generically: an event `BidMade` of game `g` uses
``g.event.BidMade`` with the event's fields, plus ``<field>_name`` for seats (the player's
name) and for values that have their own text (``g.colour.red`` -> ``colour_name``).
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from mcbridge import CONFIG_DIR
from mcbridge.core import Event, IllegalAction

LANGUAGES = ("en", "ja")
SEAT_FIELDS = ("seat", "bidder", "caller", "predictor", "winner", "partner", "player")


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class Locale:
    def __init__(self, lang: str, directory: Path | None = None) -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"unknown language {lang!r}; choose one of {', '.join(LANGUAGES)}")
        self.lang = lang
        base = directory or CONFIG_DIR / "locales"
        self.texts = _load_dir(base / lang)
        self.fallback = _load_dir(base / "en") if lang != "en" else {}

    def has(self, key: str) -> bool:
        return key in self.texts or key in self.fallback

    def t(self, key: str, **fields: Any) -> str:
        template = self.texts.get(key, self.fallback.get(key))
        if template is None:
            return key
        return string.Formatter().vformat(str(template), (), _Lenient(fields))

    def lines(self, key: str, **fields: Any) -> tuple[str, str, str, str]:
        """A four-line sign text (`key` is a list of four templates in the locale file)."""
        a, b, c, d = (self.t(f"{key}.{i}", **fields) if self.has(f"{key}.{i}") else "" for i in range(4))
        return a, b, c, d

    def event(self, game: str, event: Event, players: Sequence[str], numbers: Sequence[int] | None = None) -> str:
        """`numbers`: how each rules seat is numbered for people (a table's booth numbers);
        by default seat + 1."""
        data = event.to_json()
        kind = data.pop("type")
        return self.t(f"{game}.event.{kind}", **self._fields(game, data, players, numbers))

    def refusal(
        self, game: str, error: IllegalAction, players: Sequence[str] = (), numbers: Sequence[int] | None = None
    ) -> str:
        fields = self._fields(game, dict(error.details), players, numbers)
        for key in (f"{game}.error.{error.code}", f"common.error.{error.code}"):
            if self.has(key):
                return self.t(key, **fields)
        return self.t("common.error.generic", code=error.code, **fields)

    def _fields(
        self, game: str, data: Mapping[str, Any], players: Sequence[str], numbers: Sequence[int] | None = None
    ) -> dict[str, Any]:
        fields = dict(data)

        def number(seat: int) -> int:
            return numbers[seat] if numbers is not None and 0 <= seat < len(numbers) else seat + 1

        for name, value in data.items():
            if name in SEAT_FIELDS and isinstance(value, int) and 0 <= value < len(players):
                fields[f"{name}_name"] = players[value]
                fields[f"{name}_no"] = number(value)
            elif name == "to_act" and isinstance(value, list | tuple):
                fields["to_act_name"] = ", ".join(
                    players[s] if 0 <= s < len(players) else str(number(s)) for s in value if isinstance(s, int)
                )
            elif isinstance(value, str) and self.has(f"{game}.{name}.{value}"):
                fields[f"{name}_name"] = self.t(f"{game}.{name}.{value}")
            elif isinstance(value, list | tuple) and name in ("legal",):
                fields[name] = ", ".join(self.t(f"{game}.command.{v}") for v in value)
            elif isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
                # a list of named things (cards by colour...): each by its own text if it has one
                texts = [self._named(game, name, v) for v in value]
                if all(t is not None for t in texts):
                    fields[f"{name}_name"] = ", ".join(str(t) for t in texts)
            elif name == "hands" and isinstance(value, list | tuple):  # per seat: [[colour, n], ...]
                shown = [
                    f"{players[s] if s < len(players) else s}: {self._counts(game, h)}"
                    for s, h in enumerate(value)
                    if h
                ]
                fields["hands_text"] = "; ".join(shown)
            elif name == "difference" and isinstance(value, list | tuple):
                fields["difference_text"] = self._counts(game, value, signed=True)
        return fields

    def _named(self, game: str, field: str, value: str) -> str | None:
        for key in (f"{game}.{field}.{value}", f"{game}.colour.{value}"):
            if self.has(key):
                return self.t(key)
        return None

    def _counts(self, game: str, pairs: Any, signed: bool = False) -> str:
        """[["red", 3], ["white", -1]] -> "3 red, -1 white" in this language."""
        parts = []
        for key, n in pairs:
            label = self.t(f"{game}.colour.{key}") if self.has(f"{game}.colour.{key}") else str(key)
            parts.append(f"{n:+d} {label}" if signed else f"{n} {label}")
        return ", ".join(parts)


def _load_dir(directory: Path) -> dict[str, str]:
    flat: dict[str, str] = {}
    for path in sorted(directory.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        _flatten(path.stem, data, flat)
    return flat


def _flatten(prefix: str, value: Any, out: dict[str, str]) -> None:
    if isinstance(value, dict):
        for key, sub in value.items():
            _flatten(f"{prefix}.{key}", sub, out)
    elif isinstance(value, list):  # sign texts: four lines as key.0 .. key.3
        for i, sub in enumerate(value):
            _flatten(f"{prefix}.{i}", sub, out)
    else:
        out[prefix] = str(value)


@cache
def locale(lang: str = "en") -> Locale:
    return Locale(lang)
