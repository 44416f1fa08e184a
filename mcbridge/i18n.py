"""Player-facing text from config/locales/<lang>/*.yaml.

Each file is one namespace (`common.yaml`, `wool_bluff.yaml`, ...), so every game keeps its
own texts and translators see one game at a time. Keys are looked up as
``<file>.<dotted.path>``; a missing key falls back to English, then to the key itself, so
a missing translation shows up in the game instead of crashing it.

Rules events and refusals are rendered generically: an event `BidMade` of game `g` uses
``g.event.BidMade`` with the event's fields, plus ``<field>_name`` for seats (the player's
name) and for values that have their own text (``g.colour.red`` -> ``colour_name``,
``g.action.Through`` -> ``action_name``). Lists never reach a template as Python reprs:
seats become names, named values their texts, numbers are joined ("300 + 400" for luck,
"1 3 ☆" for dice), per-seat lists become "name: ..." parts joined by ``common.seat_sep``.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from mcbridge import CONFIG_DIR
from mcbridge.core import Event, IllegalAction
from mcbridge.core.yamlmarks import MarkedYaml, PathKey, YamlError, load_marked_file
from mcbridge.textfit import fit_sign_line

LANGUAGES = ("en", "ja")
SEAT_FIELDS = ("seat", "bidder", "caller", "predictor", "winner", "partner", "player")
#: fields that hold a list of seats
SEAT_LIST_FIELDS = ("to_act", "winners")
#: fields that hold die faces (one list, or one per seat)
DICE_FIELDS = ("dice", "hidden")
#: how a list of numbers reads in a template, by field name (default: the list separator)
NUMBER_JOINS = {"luck": " + ", "dice": " "}
#: player text echoed in a reply ("Unknown command ...") is cut to this many characters,
#: so nothing a player types can make a reply long
ECHO_FIELDS = ("text", "word", "number")
ECHO_MAX = 24


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
        if isinstance(fields.get("item"), str):  # a Minecraft item id ("diamond") as people name it
            fields["item"] = self.item(fields["item"], fields.get("count", 1))
        pieces = _compiled(str(template))
        if pieces is None:  # a template `_compiled` leaves to the formatter itself
            return string.Formatter().vformat(str(template), (), _Lenient(fields))
        return "".join([
            literal if name is None else literal + format(
                _convert(fields[name] if name in fields else "{" + name + "}", conversion), spec)
            for literal, name, spec, conversion in pieces
        ])

    def item(self, item: str, count: Any = 1) -> str:
        """A Minecraft item id as players name it: "diamond" -> "diamonds" / "ダイヤモンド"
        (``common.item.*``, English plurals in ``common.items.*``); an id without a text
        reads as words ("minecraft:oak_log" -> "oak log")."""
        bare = item.removeprefix("minecraft:")
        plural = count != 1 and f"common.items.{bare}" in self.texts  # this language's own plural
        key = f"common.items.{bare}" if plural else f"common.item.{bare}"
        return self.t(key) if self.has(key) else bare.replace("_", " ")

    def lines(self, key: str, **fields: Any) -> tuple[str, str, str, str]:
        """A four-line sign text (`key` is a list of four templates in the locale file),
        each line fitted to the 90 px of a sign line (a long name ends in "…")."""
        a, b, c, d = (self.t(f"{key}.{i}", **fields) if self.has(f"{key}.{i}") else "" for i in range(4))
        return fit_sign_line(a), fit_sign_line(b), fit_sign_line(c), fit_sign_line(d)

    def event(
        self,
        game: str,
        event: Event,
        players: Sequence[str],
        numbers: Sequence[int] | None = None,
        **context: Any,
    ) -> str:
        """`numbers`: how each rules seat is numbered for people (a table's booth numbers);
        by default seat + 1. `context`: facts about the match the event does not carry
        (`text_context(state)`: which die face is the star)."""
        data = event.to_json()
        kind = data.pop("type")
        return self.t(f"{game}.event.{kind}", **self._fields(game, data, players, numbers, context))

    def help(self, game: str, phase: str, **fields: Any) -> list[str]:
        """`!help` in two or three short lines: the goal, what to do now (per phase), the
        commands and signs. The tables call this; the texts live in ``<game>.guide.*``
        (``<game>.help`` stays the one-line command list)."""
        now = f"{game}.guide.now.{phase}"
        keys = [f"{game}.guide.goal", now if self.has(now) else f"{game}.guide.now.other", f"{game}.guide.commands"]
        return [self.t(k, **fields) for k in keys if self.has(k)]

    def refusal(
        self, game: str, error: IllegalAction, players: Sequence[str] = (), numbers: Sequence[int] | None = None
    ) -> str:
        """The refusal in words: the game's text for the code, else the common one. Usually
        one line; help (`help_requested`) is several, one per line, for `split_chat`."""
        if error.code == "help_requested":  # `!？` reached the parser: answer with the help,
            lines = self.help(game, str(error.details.get("phase", "")))  # one line each
            return "\n".join(lines) or self.t("common.error.help_requested")
        fields = self._fields(game, dict(error.details), players, numbers, {})
        for key in (f"{game}.error.{error.code}", f"common.error.{error.code}"):
            if self.has(key):
                return self.t(key, **fields)
        return self.t("common.error.generic", code=error.code, **fields)

    def _fields(
        self,
        game: str,
        data: Mapping[str, Any],
        players: Sequence[str],
        numbers: Sequence[int] | None,
        context: Mapping[str, Any],
    ) -> dict[str, Any]:
        fields: dict[str, Any] = {**context, **data, "suggestion_text": "", "phase_hint": ""}
        if isinstance(data.get("phase"), str):
            hint = f"{game}.guide.now.{data['phase']}"
            fields["phase_hint"] = self.t(hint if self.has(hint) else f"{game}.guide.now.other", **context)

        def number(seat: int) -> int:
            return numbers[seat] if numbers is not None and 0 <= seat < len(numbers) else seat + 1

        def name_of(seat: Any) -> str:
            return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else str(number(int(seat)))

        for name, value in data.items():
            if name in SEAT_FIELDS and isinstance(value, int) and 0 <= value < len(players):
                fields[f"{name}_name"] = players[value]
                fields[f"{name}_no"] = number(value)
            elif name == "to_act" and isinstance(value, list | tuple):  # people, or the table itself
                people = [self.t("common.person", name=name_of(s)) for s in value if isinstance(s, int) and s >= 0]
                fields["to_act_name"] = self._join(people) or self.t("common.the_table")
            elif name in SEAT_LIST_FIELDS and isinstance(value, list | tuple):
                fields[f"{name}_name"] = self._join(name_of(s) for s in value if isinstance(s, int))
            elif name in ECHO_FIELDS and isinstance(value, str):
                fields[name] = value if len(value) <= ECHO_MAX else value[: ECHO_MAX - 1] + "…"
            elif name == "suggestion" and isinstance(value, str):
                # named the way the player typed: a Japanese word gets the Japanese command
                typed = data.get("typed")
                words = locale(typed) if typed in LANGUAGES and typed != self.lang else self
                fields["suggestion_text"] = self.t("common.did_you_mean", command=words.t(f"{game}.command.{value}"))
            elif isinstance(value, str) and (named := self._named(game, name, value)) is not None:
                fields[f"{name}_name"] = named
            elif name == "legal" and isinstance(value, list | tuple):
                fields[name] = self._join(self.t(f"{game}.command.{v}") for v in value) or self.t("common.nothing")
            elif name == "hands" and isinstance(value, list | tuple):  # per seat: [[colour, n], ...]
                fields["hands_text"] = self._per_seat(value, name_of, lambda h: self._counts(game, h))
            elif name in DICE_FIELDS and value and all(isinstance(v, list | tuple) for v in value):  # per seat
                fields[name] = self._per_seat(value, name_of, lambda d: self._dice(game, d, context))
            elif name in DICE_FIELDS and isinstance(value, list | tuple):
                fields[name] = self._dice(game, value, context)
            elif name == "difference" and isinstance(value, list | tuple):
                fields["difference_text"] = self._counts(game, value, signed=True)
            elif isinstance(value, list | tuple) and value and all(type(v) is int for v in value):
                # numbers (luck 300 + 400), each by its own text if it has one (0 = informant)
                shown = (self._named(game, name, str(v)) or v for v in value)
                fields[name] = self._join(shown, NUMBER_JOINS.get(name))
            elif isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
                # a list of named things (cards by colour...): each by its own text if it has one
                fields[f"{name}_name"] = self._join(self._named(game, name, v) or v for v in value)
            if isinstance(fields.get(name), list | tuple | dict | bool):  # never a Python repr
                fields[name] = self._plain(fields[name], NUMBER_JOINS.get(name))
        return fields

    def _join(self, parts: Any, sep: str | None = None) -> str:
        return (self.t("common.list_sep") if sep is None else sep).join(str(p) for p in parts)

    def _plain(self, value: Any, sep: str | None = None) -> str:
        """A list as text: numbers joined (300 + 400), nested lists flattened; never a repr."""
        if isinstance(value, bool):
            return self.t("common.answer_yes" if value else "common.answer_no")
        if isinstance(value, dict):
            value = list(value.values())
        if not value:
            return self.t("common.nothing")
        return self._join((self._plain(v) if isinstance(v, list | tuple | dict | bool) else v for v in value), sep)

    def _per_seat(self, values: Sequence[Any], name_of: Any, show: Any) -> str:
        """Per seat as "ann: 1 3 5; bob: 2 2" (seats with nothing, the eliminated, are left out)."""
        parts = [self.t("common.seat_part", name=name_of(s), what=show(v)) for s, v in enumerate(values) if v]
        return self.t("common.seat_sep").join(parts)

    def _dice(self, game: str, dice: Sequence[Any], context: Mapping[str, Any]) -> str:
        """Die faces as the players see them: the star face as ☆ (`context["star_face"]`)."""
        star = context.get("star_face")
        return " ".join(self.t(f"{game}.face.star") if d == star else str(d) for d in dice)

    def _named(self, game: str, field: str, value: str) -> str | None:
        """The text of a named value: by its field ("face"), the field's last word
        ("min_face" -> "face"), or as a colour."""
        kind = field.rsplit("_", 1)[-1]
        for key in (f"{game}.{field}.{value}", f"{game}.{kind}.{value}", f"{game}.colour.{value}"):
            if self.has(key):
                return self.t(key)
        return None

    def _counts(self, game: str, pairs: Any, signed: bool = False) -> str:
        """[["red", 3], ["white", -1]] -> "3 red, -1 white" / "赤3、白-1" (``common.count_of``)."""
        parts = []
        for key, n in pairs:
            label = self.t(f"{game}.colour.{key}") if self.has(f"{game}.colour.{key}") else str(key)
            parts.append(self.t("common.count_of", what=label, n=f"{n:+d}" if signed else n))
        return self._join(parts)


#: a template as (literal text, field name or None, format spec, conversion) pieces
_Pieces = tuple[tuple[str, str | None, str, str | None], ...]


@lru_cache(maxsize=8192)  # templates come from the locale files: a few thousand at most
def _compiled(template: str) -> _Pieces | None:
    """`template` parsed once, the way `string.Formatter` parses it on every call (which was
    most of a render's time). None for what the pieces cannot say exactly as the formatter
    would (a positional or dotted field, a field inside a format spec, a malformed template):
    those keep going through the formatter, with its very result and its very errors.

    [decided here] A missing field reads "{name}", as before, so a template that names a
    field its caller does not give shows up in the game instead of crashing it."""
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return None
    for _literal, name, spec, conversion in parsed:
        if name is not None and (not name.isidentifier() or "{" in (spec or "") or conversion not in _CONVERT):
            return None
    return tuple((literal, name, spec or "", conversion) for literal, name, spec, conversion in parsed)


_CONVERT = {None: None, "s": str, "r": repr, "a": ascii}


def _convert(value: Any, conversion: str | None) -> Any:
    convert = _CONVERT[conversion]
    return value if convert is None else convert(value)


def text_context(state: Any) -> dict[str, Any]:
    """What an event needs from its match to read right: in Dice Bluff, which face is the
    star (a die showing it is written ☆, not 6). Empty for games without such facts."""
    rules: Any = getattr(state, "rules", None)
    if getattr(rules, "wild_label", None) == "star":
        return {"star_face": rules.wild_face}
    return {}


def _load_dir(directory: Path) -> dict[str, str]:
    """Every text of one language. Locale files are edited by translators and operators, so
    they load through the bounded loader (size, nesting, aliases; file:line:column errors),
    and a key without text is an error there, not "None" on a sign."""
    flat: dict[str, str] = {}
    for path in sorted(directory.glob("*.yaml")):
        marked = load_marked_file(path)
        if marked.data is None:
            continue  # an empty file: no texts yet
        if not isinstance(marked.data, dict):
            raise YamlError(f"{marked.where(())}: a locale file maps keys to texts (key: \"text\"), "
                            f"not a {type(marked.data).__name__}")
        _flatten(path.stem, marked.data, flat, marked, ())
    return flat


def _flatten(prefix: str, value: Any, out: dict[str, str], marked: MarkedYaml, at: PathKey) -> None:
    if isinstance(value, dict):
        for key, sub in value.items():
            _flatten(f"{prefix}.{key}", sub, out, marked, (*at, key))
    elif isinstance(value, list):  # sign texts: four lines as key.0 .. key.3
        for i, sub in enumerate(value):
            _flatten(f"{prefix}.{i}", sub, out, marked, (*at, i))
    elif value is None:
        raise YamlError(f"{marked.where(at)}: {prefix} has no text; write it after the colon, in quotes")
    else:
        out[prefix] = str(value)


@cache
def locale(lang: str = "en") -> Locale:
    return Locale(lang)
