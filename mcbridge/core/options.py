"""Declarative checks for game options and seed data.

Each game declares its options as specs (`Int(1, 64)`, `Choice("warn", "forfeit")`,
`MapOf(...)`, `Struct(...)`); one checker walks a value and the spec together and fails
with the key, the value and what is allowed. The same specs describe the data in seeds/.
"""

from __future__ import annotations

import difflib
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcbridge.core.errors import OptionError


class Spec(ABC):
    @abstractmethod
    def check(self, value: Any, key: str) -> Any:
        """The value, normalised; OptionError naming the key, the value and what is allowed."""

    @abstractmethod
    def describe(self) -> str:
        """What is allowed, in words, for error messages."""

    @abstractmethod
    def json_schema(self) -> dict[str, Any]:
        """The same rule as JSON Schema (draft 2020-12), for editor completion."""


@dataclass(frozen=True)
class Int(Spec):
    min: int | None = None
    max: int | None = None

    def check(self, value: Any, key: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise OptionError(key, value, self.describe())
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            raise OptionError(key, value, self.describe())
        return value

    def describe(self) -> str:
        if self.min is not None and self.max is not None:
            return f"a whole number from {self.min} to {self.max}"
        if self.min is not None:
            return f"a whole number of at least {self.min}"
        if self.max is not None:
            return f"a whole number of at most {self.max}"
        return "a whole number"

    def json_schema(self) -> dict[str, Any]:
        return _bounded({"type": "integer"}, self.min, self.max)


@dataclass(frozen=True)
class Float(Spec):
    min: float | None = None
    max: float | None = None

    def check(self, value: Any, key: str) -> float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise OptionError(key, value, self.describe())
        if (self.min is not None and value < self.min) or (self.max is not None and value > self.max):
            raise OptionError(key, value, self.describe())
        return float(value)

    def describe(self) -> str:
        lo = "" if self.min is None else f" >= {self.min}"
        hi = "" if self.max is None else f" <= {self.max}"
        return f"a number{lo}{' and' if lo and hi else ''}{hi}"

    def json_schema(self) -> dict[str, Any]:
        return _bounded({"type": "number"}, self.min, self.max)


@dataclass(frozen=True)
class Bool(Spec):
    def check(self, value: Any, key: str) -> bool:
        if not isinstance(value, bool):
            raise OptionError(key, value, self.describe())
        return value

    def describe(self) -> str:
        return "true or false"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "boolean"}


@dataclass(frozen=True)
class Str(Spec):
    max_len: int = 200

    def check(self, value: Any, key: str) -> str:
        if not isinstance(value, str) or len(value) > self.max_len:
            raise OptionError(key, value, self.describe())
        return value

    def describe(self) -> str:
        return f"text of at most {self.max_len} characters"

    def json_schema(self) -> dict[str, Any]:
        return {"type": "string", "maxLength": self.max_len}


class Choice(Spec):
    def __init__(self, *choices: Any) -> None:
        self.choices = choices

    def check(self, value: Any, key: str) -> Any:
        # Compare types too, so True is not taken for 1 nor 1 for 1.0.
        if not any(type(value) is type(c) and value == c for c in self.choices):
            raise OptionError(key, value, self.describe())
        return value

    def describe(self) -> str:
        return "one of " + ", ".join(repr(c) for c in self.choices)

    def json_schema(self) -> dict[str, Any]:
        return {"enum": list(self.choices)}


@dataclass(frozen=True)
class ListOf(Spec):
    item: Spec
    min_len: int = 0
    max_len: int | None = None

    def check(self, value: Any, key: str) -> list[Any]:
        if not isinstance(value, list):
            raise OptionError(key, value, self.describe())
        if len(value) < self.min_len or (self.max_len is not None and len(value) > self.max_len):
            raise OptionError(key, value, self.describe())
        return [self.item.check(v, f"{key}[{i}]") for i, v in enumerate(value)]

    def describe(self) -> str:
        if self.max_len == self.min_len:
            size = f"exactly {self.min_len}"
        elif self.max_len is None:
            size = f"at least {self.min_len}"
        else:
            size = f"{self.min_len} to {self.max_len}"
        return f"a list of {size} items, each {self.item.describe()}"

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "array", "items": self.item.json_schema(), "minItems": self.min_len}
        if self.max_len is not None:
            schema["maxItems"] = self.max_len
        return schema


@dataclass(frozen=True)
class MapOf(Spec):
    """A mapping whose keys come from `keys` (a Choice) or are free text."""

    value: Spec
    keys: Choice | None = None
    require_all_keys: bool = False

    def check(self, value: Any, key: str) -> dict[Any, Any]:
        if not isinstance(value, Mapping):
            raise OptionError(key, value, self.describe())
        out = {}
        for k, v in value.items():
            if self.keys is not None:
                self.keys.check(k, f"{key} key")
            out[k] = self.value.check(v, f"{key}.{k}")
        if self.require_all_keys and self.keys is not None:
            missing = [c for c in self.keys.choices if c not in out]
            if missing:
                raise OptionError(key, value, f"a value for each of {', '.join(map(str, missing))}")
        return out

    def describe(self) -> str:
        keys = f" with keys {self.keys.describe()}" if self.keys else ""
        return f"a mapping{keys} to {self.value.describe()}"

    def json_schema(self) -> dict[str, Any]:
        schema: dict[str, Any] = {"type": "object", "additionalProperties": self.value.json_schema()}
        if self.keys is not None:
            schema["propertyNames"] = self.keys.json_schema()
            if self.require_all_keys:
                schema["required"] = list(self.keys.choices)
        return schema


class Struct(Spec):
    """A mapping with known fields; unknown fields are errors with a did-you-mean."""

    def __init__(self, fields: Mapping[str, Spec], required: tuple[str, ...] = ()) -> None:
        self.fields = dict(fields)
        self.required = required

    def check(self, value: Any, key: str) -> dict[str, Any]:
        if not isinstance(value, Mapping):
            raise OptionError(key, value, self.describe())
        out = {}
        for name, v in value.items():
            full = f"{key}.{name}" if key else str(name)
            if name not in self.fields:
                raise OptionError(full, v, unknown_key_hint(str(name), self.fields))
            out[name] = self.fields[name].check(v, full)
        for name in self.required:
            if name not in out:
                raise OptionError(f"{key}.{name}" if key else name, None, "a value (it is required)")
        return out

    def describe(self) -> str:
        return "a mapping with keys " + ", ".join(self.fields)

    def json_schema(self) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {name: spec.json_schema() for name, spec in self.fields.items()},
            "required": list(self.required),
            "additionalProperties": False,
        }


def _bounded(schema: dict[str, Any], lo: float | None, hi: float | None) -> dict[str, Any]:
    if lo is not None:
        schema["minimum"] = lo
    if hi is not None:
        schema["maximum"] = hi
    return schema


def unknown_key_hint(name: str, known: Mapping[str, Any] | list[str]) -> str:
    """'a known key (did you mean X?): a, b, c' for unknown-key errors."""
    keys = list(known)
    close = difflib.get_close_matches(name, keys, n=1)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return f"a known key{hint}: " + ", ".join(keys)
