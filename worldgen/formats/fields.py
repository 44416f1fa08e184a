"""Typed access to NBT fields that turns every surprise into a `SchematicError`."""

from __future__ import annotations

from typing import Any, TypeVar

import nbtlib

from worldgen.errors import SchematicError

T = TypeVar("T")

_TYPE_NAMES = {
    nbtlib.Byte: "Byte",
    nbtlib.Short: "Short",
    nbtlib.Int: "Int",
    nbtlib.Long: "Long",
    nbtlib.String: "String",
    nbtlib.ByteArray: "ByteArray",
    nbtlib.IntArray: "IntArray",
    nbtlib.List: "List",
    nbtlib.Compound: "Compound",
}


class Fields:
    """A compound plus where it is, so errors can say `Schematic.Blocks.Palette`."""

    def __init__(self, compound: Any, path: str, fmt: str, where: str) -> None:
        self.compound = compound
        self.path = path
        self.fmt = fmt
        self.where = where

    def error(self, name: str | None, message: str) -> SchematicError:
        field = f"{self.where}.{name}" if name and self.where else (name or self.where or None)
        return SchematicError(self.path, message, fmt=self.fmt, field=field)

    def has(self, name: str) -> bool:
        return name in self.compound

    def get(self, name: str, kind: type[T], *, required: bool = True) -> T | None:
        if name not in self.compound:
            if required:
                raise self.error(name, "is missing; the format requires it")
            return None
        value = self.compound[name]
        if not isinstance(value, kind):
            want = _TYPE_NAMES.get(kind, kind.__name__)
            raise self.error(name, f"should be {want} but is {type(value).__name__}")
        return value

    def need(self, name: str, kind: type[T]) -> T:
        value = self.get(name, kind)
        assert value is not None
        return value

    def child(self, name: str, *, required: bool = True) -> Fields | None:
        value = self.get(name, nbtlib.Compound, required=required)
        if value is None:
            return None
        return Fields(value, self.path, self.fmt, f"{self.where}.{name}" if self.where else name)

    def dimension(self, name: str) -> int:
        """Width/Height/Length: an unsigned short stored in a signed Short."""
        value = int(self.need(name, nbtlib.Short)) & 0xFFFF
        if value == 0:
            raise self.error(name, "is 0; a schematic needs at least one block on each axis")
        return value

    def triple(self, name: str, *, required: bool = True) -> tuple[int, int, int] | None:
        """An IntArray[3] or a List of three Int (vanilla structures use lists)."""
        if name not in self.compound:
            if required:
                raise self.error(name, "is missing; the format requires it")
            return None
        value = self.compound[name]
        try:
            items = [int(v) for v in value]
        except (TypeError, ValueError):
            raise self.error(name, "should hold three integers") from None
        if len(items) != 3:
            raise self.error(name, f"should hold three integers, not {len(items)}")
        return items[0], items[1], items[2]


def unsigned_short(value: int) -> nbtlib.Short:
    """Width/Height/Length as the formats store them: 16 bits in a signed Short."""
    if not 0 < value <= 0xFFFF:
        raise ValueError(f"a schematic side must be 1-65535 blocks, not {value}")
    return nbtlib.Short(value - 0x10000 if value > 0x7FFF else value)
