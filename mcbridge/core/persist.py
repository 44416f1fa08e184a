"""Save and restore a match from the fields its class declares, once.

A state class declares every attribute of the match as a class annotation
(``torches: list[int]``). That one declaration does three jobs:

* `dump` writes every declared field as JSON-able data, and refuses a state that holds an
  attribute nobody declared (a field a hand-written dump would silently miss);
* `load` reads it back, converting by the annotation (lists to tuples, "3" keys to ints,
  dataclasses and `from_json` classes rebuilt) and refusing data of the wrong shape with a
  `BadState` that names the field, instead of a KeyError deep inside the rules later.

Annotated names that start with an underscore are scratch (caches derived from the saved
fields): never saved, and reset to None by `load`.

[decided here] No ``__slots__``: they would catch an undeclared attribute where it is set,
but tests and tools copy matches through ``__dict__``; the check at every dump (every
`to_json`, so every round-trip test) catches the same mistake.
"""

from __future__ import annotations

import dataclasses
import inspect
import sys
import types
import typing
from collections.abc import Mapping
from typing import Any

from mcbridge.core.errors import BadState

#: Attributes every state has that are not match data (the game object and its options).
NOT_SAVED = frozenset({"game"})


_hints_cache: dict[type, dict[str, Any]] = {}


def saved_fields(cls: type) -> dict[str, Any]:
    """Declared field -> evaluated annotation, base classes first (cached per class)."""
    found = _hints_cache.get(cls)
    if found is not None:
        return found
    found = {}
    for klass in reversed(cls.__mro__):
        module = sys.modules.get(klass.__module__)
        namespace = dict(vars(module)) if module else {}
        for field, hint in inspect.get_annotations(klass).items():
            if field in NOT_SAVED or field.startswith("_") or "ClassVar" in str(hint):
                continue
            found[field] = eval(hint, namespace) if isinstance(hint, str) else hint
    _hints_cache[cls] = found
    return found


_scratch_cache: dict[type, list[str]] = {}


def scratch_fields(cls: type) -> list[str]:
    """Annotated names with a leading underscore: caches, not match data (cached per class)."""
    found = _scratch_cache.get(cls)
    if found is None:
        found = [name for klass in cls.__mro__ for name in inspect.get_annotations(klass) if name.startswith("_")]
        _scratch_cache[cls] = found
    return found


#: Item types whose JSON value is the value itself when its type is exactly right.
_EXACT = frozenset({int, str, bool})

#: Values that are their own JSON form (exact types: a subclass may have a `to_json`).
_PLAIN = frozenset({int, str, bool, float, type(None)})


def encode(value: Any) -> Any:
    """JSON-able form: dataclasses (actions keep their "type"), `to_json` objects, tuples as lists."""
    kind = type(value)
    if kind in _PLAIN:  # most of a match is numbers and names: no attribute probe for them
        return value
    if kind is list or kind is tuple:
        return [encode(v) for v in value]
    to_json = getattr(value, "to_json", None)
    if to_json is not None:
        return to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {(str(k) if isinstance(k, int) else k): encode(v) for k, v in value.items()}
    return value


def dump(state: object) -> dict[str, Any]:
    fields = saved_fields(type(state))
    undeclared = vars(state).keys() - fields.keys() - NOT_SAVED - set(scratch_fields(type(state)))
    if undeclared:
        names = ", ".join(sorted(undeclared))
        raise TypeError(f"{type(state).__name__} holds undeclared fields ({names}): annotate them on the class")
    return {field: encode(getattr(state, field)) for field in fields}


def load(state: object, data: Mapping[str, Any]) -> None:
    """Set every declared field of `state` from `data` (BadState if one is missing or malformed)."""
    if not isinstance(data, Mapping):
        raise BadState("bad_state", field="state", expected="an object", value=type(data).__name__)
    for field, hint in saved_fields(type(state)).items():
        if field not in data:
            raise BadState("missing_field", field=field)
        setattr(state, field, decode(data[field], hint, field))
    for field in scratch_fields(type(state)):
        setattr(state, field, None)


_parts_cache: dict[Any, tuple[Any, tuple[Any, ...]]] = {}


def _parts(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    """`typing.get_origin` and `get_args` of an annotation, once per annotation (a restore
    asks them for every item of every list)."""
    try:
        return _parts_cache[hint]
    except KeyError:
        found = _parts_cache[hint] = (typing.get_origin(hint), typing.get_args(hint))
        return found
    except TypeError:  # an unhashable annotation: asked each time
        return typing.get_origin(hint), typing.get_args(hint)


def decode(value: Any, hint: Any, where: str) -> Any:
    """`value` (decoded JSON) as the annotation `hint` says, or BadState naming `where`."""
    origin, args = _parts(hint)
    if hint is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors: list[BadState] = []
        for option in args:
            if option is type(None):
                continue
            try:
                return decode(value, option, where)
            except BadState as exc:
                errors.append(exc)
        raise errors[0]
    if origin is typing.Literal:
        if value in args:
            return value
        return _refuse(where, " or ".join(map(repr, args)), value)
    if origin in (list, tuple):
        if not isinstance(value, list | tuple):
            return _refuse(where, "a list", value)
        if origin is list:
            item = args[0] if args else Any
            if item in _EXACT and all(type(v) is item for v in value):  # a hand, a row of chips
                return list(value)
            return [decode(v, item, f"{where}[{i}]") for i, v in enumerate(value)]
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(decode(v, args[0], f"{where}[{i}]") for i, v in enumerate(value))
        if args and len(args) != len(value):
            return _refuse(where, f"{len(args)} items", value)
        return tuple(decode(v, a, f"{where}[{i}]") for i, (v, a) in enumerate(zip(value, args, strict=False)))
    if origin is dict or hint is dict:
        if not isinstance(value, Mapping):
            return _refuse(where, "an object", value)
        key_hint, value_hint = args if args else (Any, Any)
        return {_key(k, key_hint, where): decode(v, value_hint, f"{where}.{k}") for k, v in value.items()}
    if hint in (int, float, str, bool):
        if hint is float and isinstance(value, int) and not isinstance(value, bool):
            return float(value)
        if type(value) is not hint:
            return _refuse(where, hint.__name__, value)
        return value
    if hint is type(None):
        return value if value is None else _refuse(where, "null", value)
    if isinstance(hint, type) and hasattr(hint, "from_json"):
        try:
            return hint.from_json(value)
        except (TypeError, ValueError, KeyError) as exc:
            raise BadState("bad_state", field=where, expected=hint.__name__, error=str(exc)) from None
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        if not isinstance(value, Mapping):
            return _refuse(where, hint.__name__, value)
        fields = {f.name: f for f in dataclasses.fields(hint)}
        hints = typing.get_type_hints(hint)
        try:
            return hint(**{k: decode(v, hints[k], f"{where}.{k}") for k, v in value.items() if k in fields})
        except TypeError as exc:
            raise BadState("bad_state", field=where, expected=hint.__name__, error=str(exc)) from None
    return value


def _key(key: Any, hint: Any, where: str) -> Any:
    """JSON object keys are strings; an int-keyed dict gets its ints back."""
    if hint is int:
        if isinstance(key, str) and key.lstrip("-").isdigit():
            return int(key)
        if type(key) is int:
            return key
        return _refuse(f"{where} key", "a whole number", key)
    return key


def _refuse(where: str, expected: str, value: Any) -> Any:
    raise BadState("bad_state", field=where, expected=expected, value=value)
