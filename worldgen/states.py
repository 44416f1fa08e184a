"""Legacy id:data <-> 1.13+ block states, and what follows from the table.

The world speaks legacy numbers (RaspberryJuice on 1.12: red wool is 35:14); modern
schematics speak block states (`minecraft:red_wool`). The whole mapping lives in one data
file, `data/legacy_states.yaml`, so an operator can add a block without touching code;
this module loads it and answers lookups. Everything here works per palette entry, never
per cell, so it costs nothing on large builds.

A cell's legacy block is packed into one integer, its *key*: ``id << 4 | data`` (the way
1.12 itself numbered block states), which fits an unsigned 16-bit array for every id up
to 4095.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

TABLE_PATH = Path(__file__).with_name("data") / "legacy_states.yaml"
NAMESPACE = "minecraft:"


def key_of(block_id: int, data: int = 0) -> int:
    """Pack a legacy (id, data) pair into one key."""
    return (block_id << 4) | (data & 0x0F)


def split_key(key: int) -> tuple[int, int]:
    return key >> 4, key & 0x0F


def format_key(key: int) -> str:
    block_id, data = split_key(key)
    return f"{block_id}:{data}"


def parse_key(text: str) -> int:
    """Parse ``"35:14"`` or ``"35"`` (data 0) into a key."""
    block_id, _, data = text.strip().partition(":")
    value, data_value = int(block_id), int(data or 0)
    if not (0 <= value < 4096 and 0 <= data_value < 16):
        raise ValueError(f"legacy block {text!r} is out of range (id 0-4095, data 0-15)")
    return key_of(value, data_value)


_STATE_RE = re.compile(r"^\s*([a-z0-9_.:/-]+)\s*(?:\[([^\]]*)\])?\s*$")


@dataclass(frozen=True)
class BlockState:
    """A parsed block state: ``minecraft:oak_stairs[facing=east,half=top]``."""

    name: str  # always namespaced
    properties: tuple[tuple[str, str], ...] = ()  # sorted by key

    @classmethod
    def parse(cls, text: str) -> BlockState:
        match = _STATE_RE.match(text.lower())
        if match is None:
            raise ValueError(f"not a block state: {text!r}")
        name, props = match.group(1), match.group(2)
        if ":" not in name:
            name = NAMESPACE + name
        pairs: dict[str, str] = {}
        for part in (props or "").split(","):
            if not part.strip():
                continue
            key, sep, value = part.partition("=")
            if not sep:
                raise ValueError(f"property {part!r} in {text!r} has no '='")
            pairs[key.strip()] = value.strip()
        return cls(name, tuple(sorted(pairs.items())))

    def with_properties(self, extra: Mapping[str, str]) -> BlockState:
        merged = dict(self.properties)
        merged.update(extra)
        return BlockState(self.name, tuple(sorted(merged.items())))

    @property
    def props(self) -> dict[str, str]:
        return dict(self.properties)

    def __str__(self) -> str:
        if not self.properties:
            return self.name
        return f"{self.name}[{','.join(f'{k}={v}' for k, v in self.properties)}]"


@dataclass
class ConversionReport:
    """What a conversion could not carry over exactly. Nothing is dropped silently.

    ``unknown`` counts cells whose block has no entry at all (replaced by the fallback);
    ``approximated`` counts cells of a known block whose properties matched no entry
    (given that block's first entry); ``notes`` are file-level remarks (entities skipped,
    extra palettes ignored).
    """

    unknown: Counter[str] = field(default_factory=Counter)
    approximated: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.unknown or self.approximated or self.notes)

    def lines(self, fallback: str = "the fallback") -> list[str]:
        """Sentences for people, most frequent first."""
        out: list[str] = []
        for what, count in self.unknown.most_common():
            out.append(f"unknown block {what}: {count} cells replaced by {fallback}")
        for what, count in self.approximated.most_common():
            out.append(f"no exact legacy match for {what}: {count} cells approximated")
        out.extend(self.notes)
        return out


@dataclass(frozen=True)
class _Entry:
    properties: frozenset[tuple[str, str]]
    key: int
    order: int


class LegacyTable:
    """The loaded mapping. Use :func:`default_table` for the shipped one."""

    def __init__(self, document: Mapping[str, Any], source: str = "<table>") -> None:
        self.source = source
        self.data_version = int(document.get("data_version", 1976))
        self._aliases = {
            _namespaced(k): _namespaced(v) for k, v in (document.get("aliases") or {}).items()
        }
        self._state_of: dict[int, BlockState] = {}
        self._entries: dict[str, list[_Entry]] = {}
        self._order = 0
        for family_name, family in (document.get("families") or {}).items():
            data_table = family.get("data") or {}
            for block_id, base in (family.get("blocks") or {}).items():
                for data, value in data_table.items():
                    state = _family_state(str(base), str(value), f"families.{family_name}")
                    self._add(key_of(int(block_id), int(data)), state)
        for block_id, by_data in (document.get("blocks") or {}).items():
            for data, value in by_data.items():
                self._add(key_of(int(block_id), int(data)), BlockState.parse(str(value)))
        for state_text, legacy in (document.get("extra_states") or {}).items():
            self._add(parse_key(str(legacy)), BlockState.parse(state_text), reverse_only=True)
        self.needs_support = frozenset(int(i) for i in document.get("needs_support") or ())
        self._same: dict[int, int] = {}
        for group in document.get("same_block") or ():
            ids = sorted(int(i) for i in group)
            for block_id in ids:
                self._same[block_id] = ids[0]
        #: Ids the game switches among by itself (lit and unlit torches, lamps, furnaces).
        self.switching_ids = frozenset(self._same)
        data_counts = Counter(key >> 4 for key in self._state_of)
        #: Ids whose data value the table never varies: reading the id alone tells the block.
        self.single_state_ids = frozenset(
            block_id for block_id, count in data_counts.items() if count == 1
        )

    def _add(self, key: int, state: BlockState, *, reverse_only: bool = False) -> None:
        if not reverse_only:
            self._state_of.setdefault(key, state)
        entry = _Entry(frozenset(state.properties), key, self._order)
        self._order += 1
        self._entries.setdefault(state.name, []).append(entry)

    # -- lookups ---------------------------------------------------------------------

    def state_of(self, key: int) -> BlockState | None:
        """The 1.13+ state for a legacy key, or None when the table has no entry."""
        return self._state_of.get(key)

    def canonical_name(self, name: str) -> str:
        return self._aliases.get(name, name)

    def legacy_of(self, state: BlockState) -> tuple[int | None, bool]:
        """(key, exact) for a state; key None when the block is unknown.

        ``exact`` is False when the block is known but no entry's properties all appear
        in the state; the block's first entry is returned then.
        """
        entries = self._entries.get(self.canonical_name(state.name))
        if not entries:
            return None, False
        props = set(state.properties)
        best: _Entry | None = None
        for entry in entries:
            if entry.properties <= props and (
                best is None or len(entry.properties) > len(best.properties)
            ):
                best = entry
        if best is None:
            return min(entries, key=lambda e: e.order).key, False
        return best.key, True

    def known_keys(self) -> Iterable[int]:
        return self._state_of.keys()

    def same_block_id(self, block_id: int) -> int:
        """The id a 1.13+ server reports for this id (lit and unlit read alike)."""
        return self._same.get(block_id, block_id)

    # -- palette conversions (one call per palette entry) -----------------------------

    def keys_for_states(
        self,
        states: list[str],
        counts: list[int],
        fallback: int,
        report: ConversionReport,
    ) -> list[int]:
        """Legacy keys for a palette of state strings; misses counted in ``report``."""
        keys: list[int] = []
        for text, count in zip(states, counts, strict=True):
            try:
                state = BlockState.parse(text)
            except ValueError:
                key, exact = None, False
            else:
                key, exact = self.legacy_of(state)
            if key is None:
                if count:
                    report.unknown[text] += count
                keys.append(fallback)
                continue
            if not exact and count:
                report.approximated[text] += count
            keys.append(key)
        return keys

    def states_for_keys(
        self, keys: list[int], counts: list[int], fallback: BlockState, report: ConversionReport
    ) -> list[BlockState]:
        states: list[BlockState] = []
        for key, count in zip(keys, counts, strict=True):
            state = self.state_of(key)
            if state is None:
                if count:
                    report.unknown[format_key(key)] += count
                state = fallback
            states.append(state)
        return states

    # -- rotation ----------------------------------------------------------------------

    def rotate_key(self, key: int, quarter_turns: int) -> int | None:
        """The key of this block turned clockwise (seen from above), or None if unknown.

        Rotating in state space makes one rule serve every block: facings turn, sign
        rotations add 4 per quarter, x and z axes swap.
        """
        turns = quarter_turns % 4
        if turns == 0:
            return key
        state = self.state_of(key)
        if state is None:
            return None
        turned = rotate_state(state, turns)
        new_key, exact = self.legacy_of(turned)
        return new_key if exact else None


_CLOCKWISE = {"north": "east", "east": "south", "south": "west", "west": "north"}


def rotate_state(state: BlockState, quarter_turns: int) -> BlockState:
    """Turn a state clockwise seen from above (north -> east -> south -> west)."""
    props = state.props
    for _ in range(quarter_turns % 4):
        if props.get("facing") in _CLOCKWISE:
            props["facing"] = _CLOCKWISE[props["facing"]]
        if "rotation" in props:
            props["rotation"] = str((int(props["rotation"]) + 4) % 16)
        if props.get("axis") in ("x", "z"):
            props["axis"] = "z" if props["axis"] == "x" else "x"
    return BlockState(state.name, tuple(sorted(props.items())))


def _namespaced(name: str) -> str:
    return name if ":" in name else NAMESPACE + name


def _family_state(base: str, value: str, where: str) -> BlockState:
    if "{}" in base:
        return BlockState.parse(base.replace("{}", value))
    state = BlockState.parse(base)
    extra: dict[str, str] = {}
    for part in value.split(","):
        if part.strip():
            k, sep, v = part.partition("=")
            if not sep:
                raise ValueError(f"{where}: property {part!r} has no '='")
            extra[k.strip()] = v.strip()
    return state.with_properties(extra)


def load_table(path: Path | str) -> LegacyTable:
    with open(path, encoding="utf-8") as handle:
        document = yaml.safe_load(handle)
    return LegacyTable(document, source=str(path))


@functools.cache
def default_table() -> LegacyTable:
    """The shipped table (loaded once)."""
    return load_table(TABLE_PATH)
