"""Legacy id:data <-> 1.13+ block states, and what follows from the table.

The world speaks legacy numbers (RaspberryJuice on 1.12: red wool is 35:14); modern
schematics speak block states (`minecraft:red_wool`). The mapping is data, not code: every
1.12 id:data and its state come from minecraft-data's `legacy.json` (vendored in
`data/minecraft-data/`), and `data/legacy_states.yaml` adds only what that source cannot
say (1.14 names, stray data values, tie-breaks, 1.12's own names for structure files),
so an operator can fix a block without touching code. This module loads both and
answers lookups. Everything here works per palette entry, never per cell, so it costs
nothing on large builds.

A cell's legacy block is packed into one integer, its *key*: ``id << 4 | data`` (the way
1.12 itself numbered block states), which fits an unsigned 16-bit array for every id up
to 4095.
"""

from __future__ import annotations

import functools
import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcbridge.core.yamlmarks import YamlError, load_marked_file

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
    (given that block's closest entry); ``base_state`` counts legacy id:data pairs the
    table has no state for, written as their id's base state (54:0 -> a north chest);
    ``notes`` are file-level remarks (entities skipped, extra palettes ignored).
    """

    unknown: Counter[str] = field(default_factory=Counter)
    approximated: Counter[str] = field(default_factory=Counter)
    base_state: Counter[str] = field(default_factory=Counter)
    notes: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.unknown or self.approximated or self.base_state or self.notes)

    @property
    def unknown_cells(self) -> int:
        return sum(self.unknown.values())

    def lines(self, fallback: str = "the fallback") -> list[str]:
        """Sentences for people, most frequent first."""
        out: list[str] = []
        for what, count in self.unknown.most_common():
            out.append(f"unknown block {what}: {count} cells replaced by {fallback}")
        for what, count in self.approximated.most_common():
            out.append(f"no exact legacy match for {what}: {count} cells approximated")
        for what, count in self.base_state.most_common():
            out.append(f"legacy {what} has no state of its own: {count} cells as its id's base state")
        out.extend(self.notes)
        return out


@dataclass(frozen=True)
class _Entry:
    properties: frozenset[tuple[str, str]]
    key: int
    rank: tuple[int, int]  # lower wins a tie: (0 for a preferred id, else 1), key


@dataclass(frozen=True)
class _Rule:
    """Which properties count for some states of some blocks (`only_when`)."""

    names: frozenset[str]
    when: frozenset[tuple[str, str]]
    use: frozenset[str]


def _rules(items: Iterable[Mapping[str, Any]]) -> list[_Rule]:
    return [
        _Rule(
            frozenset(_namespaced(n) for n in item["names"]),
            frozenset((str(k), str(v)) for k, v in item["if"].items()),
            frozenset(str(u) for u in item["use"]),
        )
        for item in items
    ]


def _counted(name: str, props: Iterable[tuple[str, str]], rules: list[_Rule]) -> frozenset[str] | None:
    """The properties that count for this state, or None when every one does."""
    have = frozenset(props)
    for rule in rules:
        if name in rule.names and rule.when <= have:
            return rule.use
    return None


class LegacyTable:
    """The loaded mapping. Use :func:`default_table` for the shipped one.

    ``document`` is `data/legacy_states.yaml`; ``legacy`` is minecraft-data's
    ``legacy.json`` block map (``"35:14" -> "minecraft:red_wool"``).
    """

    def __init__(
        self, document: Mapping[str, Any], legacy: Mapping[str, str], source: str = "<table>"
    ) -> None:
        self.source = source
        self.data_version = int(document.get("data_version", 1976))
        self._aliases = _expand_aliases(document.get("aliases") or {})
        renames = {_namespaced(k): _namespaced(v) for k, v in (document.get("renames") or {}).items()}
        self._rules = _rules(document.get("only_when") or ())
        prefer = frozenset(int(i) for i in document.get("prefer_ids") or ())
        ignore = {_namespaced(k): v for k, v in (document.get("ignored") or {}).items()}
        self._state_of: dict[int, BlockState] = {}
        for text_key, text_state in legacy.items():
            state = BlockState.parse(text_state)
            self._state_of[parse_key(text_key)] = BlockState(
                renames.get(state.name, state.name), state.properties
            )
        #: Keys legacy.json itself lists (the rest come from `overrides`).
        self.generated_keys = frozenset(self._state_of)
        for text_key, text_state in (document.get("overrides") or {}).items():
            self._state_of[parse_key(str(text_key))] = BlockState.parse(str(text_state))

        # Per name: the properties that vary among its legacy states decide the match.
        by_name: dict[str, list[tuple[int, BlockState]]] = {}
        for key, state in sorted(self._state_of.items()):
            if key not in self.generated_keys:
                continue  # an override reads a stray data value; it is never written
            by_name.setdefault(state.name, []).append((key, state))
        self._varying: dict[str, frozenset[str]] = {}
        self._entries: dict[str, list[_Entry]] = {}
        for name, items in by_name.items():
            values: dict[str, set[str]] = {}
            for _, state in items:
                for k, v in state.properties:
                    values.setdefault(k, set()).add(v)
            ignored = set(ignore.get(name, ()))
            varying = frozenset(k for k, vs in values.items() if len(vs) > 1 and k not in ignored)
            self._varying[name] = varying
            for key, state in items:
                self._add(state, key, prefer)
        for state_text, legacy_key in (document.get("extra_states") or {}).items():
            self._add(BlockState.parse(str(state_text)), parse_key(str(legacy_key)), prefer)

        self._base: dict[int, int] = {}
        for key in sorted(self._state_of, reverse=True):
            self._base[key >> 4] = key  # ends on the lowest data of each id
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
        self.pre_flattening = PreFlattening(document.get("pre_flattening") or {})

    def _add(self, state: BlockState, key: int, prefer: frozenset[int]) -> None:
        props = self._deciding(state)
        rank = (0 if key >> 4 in prefer else 1, key)
        self._entries.setdefault(state.name, []).append(_Entry(props, key, rank))

    def _deciding(self, state: BlockState) -> frozenset[tuple[str, str]]:
        """The state's properties that can tell its legacy pairs apart."""
        varying = self._varying.get(state.name, frozenset())
        counted = _counted(state.name, state.properties, self._rules)
        return frozenset(
            (k, v)
            for k, v in state.properties
            if k in varying and (counted is None or k in counted)
        )

    # -- lookups ---------------------------------------------------------------------

    def state_of(self, key: int) -> BlockState | None:
        """The state for a legacy key, or None when the table has no entry for it."""
        return self._state_of.get(key)

    def base_key(self, block_id: int) -> int | None:
        """The key standing in for an id's unlisted data values (data 0, else the lowest)."""
        return self._base.get(block_id)

    def canonical_name(self, name: str) -> str:
        return self._aliases.get(name, name)

    def legacy_of(self, state: BlockState) -> tuple[int | None, bool]:
        """(key, exact) for a state; key None when the block is unknown.

        ``exact`` is False when the block is known but no entry's deciding properties all
        appear in the state; the entry agreeing on the most properties is returned then.
        """
        name = self.canonical_name(state.name)
        entries = self._entries.get(name)
        if not entries:
            return None, False
        props = self._deciding(BlockState(name, state.properties))
        best: _Entry | None = None
        for entry in entries:
            if entry.properties <= props and (
                best is None
                or (-len(entry.properties), entry.rank) < (-len(best.properties), best.rank)
            ):
                best = entry
        if best is not None:
            return best.key, True
        closest = min(entries, key=lambda e: (-len(e.properties & props), e.rank))
        return closest.key, False

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
        *,
        pre_flattening: bool = False,
    ) -> list[int]:
        """Legacy keys for a palette of state strings; misses counted in ``report``.

        ``pre_flattening`` reads the names as 1.12 spelled them (`stonebrick`,
        `stone[variant=smooth_andesite]`), for files saved before 1.13.
        """
        lookup = self._pre_then_modern if pre_flattening else self.legacy_of
        keys: list[int] = []
        for text, count in zip(states, counts, strict=True):
            try:
                state = BlockState.parse(text)
            except ValueError:
                key, exact = None, False
            else:
                key, exact = lookup(state)
            if key is None:
                if count:
                    report.unknown[text] += count
                keys.append(fallback)
                continue
            if not exact and count:
                report.approximated[text] += count
            keys.append(key)
        return keys

    def _pre_then_modern(self, state: BlockState) -> tuple[int | None, bool]:
        """1.12's spelling first; a name 1.12 lacks may be a hand-made file's 1.13 one."""
        key, exact = self.pre_flattening.legacy_of(state)
        return (key, exact) if key is not None else self.legacy_of(state)

    def states_for_keys(
        self, keys: list[int], counts: list[int], fallback: BlockState, report: ConversionReport
    ) -> list[BlockState]:
        """States for legacy keys: exact, else the id's base state, else ``fallback``."""
        states: list[BlockState] = []
        for key, count in zip(keys, counts, strict=True):
            state = self.state_of(key)
            if state is None:
                base = self.base_key(key >> 4)
                if base is not None:
                    state = self._state_of[base]
                    if count:
                        report.base_state[format_key(key)] += count
                else:
                    if count:
                        report.unknown[format_key(key)] += count
                    state = fallback
            states.append(state)
        return states

    # -- rotation ----------------------------------------------------------------------

    def rotate_key(self, key: int, quarter_turns: int) -> int | None:
        """The key of this block turned clockwise (seen from above), or None if unknown.

        Rotating in state space makes one rule serve every block: facings turn, sign
        rotations add 4 per quarter, x and z axes swap, rail shapes and the sides of
        vines and mushroom blocks go round.
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


class PreFlattening:
    """1.12 block names and properties -> legacy keys (`pre_flattening` in the table).

    1.12 packs a block's properties into its 4-bit data the same way for whole families
    (every stairs block, every colour), so the table lists per block which property
    adds what; this class adds them up.
    """

    def __init__(self, document: Mapping[str, Any]) -> None:
        layouts = document.get("layouts") or {}
        self._aliases = {
            _namespaced(k): _namespaced(v) for k, v in (document.get("aliases") or {}).items()
        }
        self._rules = _rules(document.get("only_when") or ())
        self._blocks: dict[str, tuple[int, dict[str, dict[str, int] | None]]] = {}
        for name, spec in (document.get("blocks") or {}).items():
            props: dict[str, dict[str, int] | None] = {}
            for layout in spec.get("use") or ():
                for prop, shares in layouts[layout].items():
                    props[prop] = _shares(shares)
            for prop, shares in spec.items():
                if prop not in ("id", "use"):
                    props[str(prop)] = _shares(shares)
            self._blocks[_namespaced(str(name))] = (int(spec["id"]), props)

    def names(self) -> dict[str, int]:
        return {name: block_id for name, (block_id, _) in self._blocks.items()}

    def legacy_of(self, state: BlockState) -> tuple[int | None, bool]:
        """(key, exact); exact is False when a property has a value 1.12 does not know."""
        name = self._aliases.get(state.name, state.name)
        found = self._blocks.get(name)
        if found is None:
            return None, False
        block_id, props = found
        counted = _counted(name, state.properties, self._rules)
        data, exact = 0, True
        given = state.props
        for prop, shares in props.items():
            if prop not in given or (counted is not None and prop not in counted):
                continue
            value = given[prop]
            if shares is None:  # `number`: the value is the data
                share = int(value) if value.isdigit() and int(value) < 16 else None
            else:
                share = shares.get(value)
            if share is None:
                exact = False
                continue
            data |= share
        return key_of(block_id, data & 0x0F), exact


def _shares(spec: Any) -> dict[str, int] | None:
    if spec == "number":
        return None
    if isinstance(spec, int):
        return {"false": 0, "true": spec}
    return {str(k): int(v) for k, v in spec.items()}


COLOURS = (
    "white", "orange", "magenta", "light_blue", "yellow", "lime", "pink", "gray",
    "light_gray", "cyan", "purple", "blue", "brown", "green", "red", "black",
)


def _expand_aliases(raw: Mapping[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in raw.items():
        names = [key.replace("{}", c) for c in COLOURS] if "{}" in key else [key]
        for name in names:
            if _namespaced(name) != _namespaced(value):
                out[_namespaced(name)] = _namespaced(value)
    return out


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


def load_table(path: Path | str) -> LegacyTable:
    """The table file and the vendored legacy.json it names (`source`, beside it)."""
    path = Path(path)
    document = load_marked_file(path).data  # bounded, file:line:column errors like every YAML file
    if not isinstance(document, dict):
        raise YamlError(f"{path}:1:1: a legacy state table is a mapping (source, blocks, ...)")
    source = path.parent / str(document.get("source", "minecraft-data/legacy.json"))
    with open(source, encoding="utf-8") as handle:
        legacy = json.load(handle)["blocks"]
    return LegacyTable(document, legacy, source=str(path))


@functools.cache
def default_table() -> LegacyTable:
    """The shipped table (loaded once)."""
    return load_table(TABLE_PATH)
