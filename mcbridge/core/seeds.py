"""Game data from seeds/<game>.yaml: defaults, components and tables, with provenance.

A seed file looks like::

    game: wool_bluff
    source: seeds/001_0430806d613bcf18.txt   # the original document
    spec: rules/wool_bluff.md
    options:
      hand_size: 10
      base_bet: {value: 5, placeholder: "the seed gives no number"}

A value written as ``{value: X, placeholder: "why"}`` is a number we had to choose because
the original is silent. It loads as X, and its path is listed by `placeholders`, so the
CLI (`mcbridge rules GAME --placeholders`) and reviewers can see every guess in one place.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcbridge import SEEDS_DIR
from mcbridge.core.errors import OptionError
from mcbridge.core.options import Spec, Struct, unknown_key_hint
from mcbridge.core.yamlmarks import load_marked_file, path_from_dotted


@dataclass(frozen=True)
class Placeholder:
    path: str
    value: Any
    note: str


@dataclass
class SeedData:
    game: str
    options: dict[str, Any]
    placeholders: list[Placeholder] = field(default_factory=list)
    source: str = ""
    spec: str = ""
    file: str = ""


def seed_path(game: str) -> Path:
    return SEEDS_DIR / f"{game}.yaml"


def load_seed(game: str, schema: Struct, path: Path | None = None) -> SeedData:
    """Read and check a seed file against the game's option schema.

    Cached per file and modification time: restoring a match builds a new Game, and
    re-parsing YAML was nearly all of a restore's cost.
    """
    file = Path(path or seed_path(game))
    try:
        mtime = file.stat().st_mtime_ns
    except OSError:
        mtime = -1  # missing: let the loader report it
    return copy.deepcopy(_load_seed_cached(game, schema, file, mtime))


@functools.lru_cache(maxsize=64)
def _load_seed_cached(game: str, schema: Struct, file: Path, mtime: int) -> SeedData:
    marked = load_marked_file(file)
    top = marked.data
    if not isinstance(top, dict):
        raise OptionError("", top, "a mapping with game, source, options", marked.where(()))
    allowed_top = {"game": None, "source": None, "spec": None, "options": None}
    for key in top:
        if key not in allowed_top:
            raise OptionError(str(key), top[key], unknown_key_hint(str(key), list(allowed_top)), marked.where((key,)))
    if top.get("game") != game:
        raise OptionError("game", top.get("game"), repr(game), marked.where(("game",)))
    placeholders: list[Placeholder] = []
    raw = _unwrap_placeholders(top.get("options") or {}, ("options",), placeholders)
    try:
        options = schema.check(raw, "")
    except OptionError as exc:
        raise exc.located(marked.where(path_from_dotted(exc.key, ("options",)))) from None
    return SeedData(
        game=game,
        options=options,
        placeholders=placeholders,
        source=str(top.get("source", "")),
        spec=str(top.get("spec", "")),
        file=marked.filename,
    )


def merge_options(seed: SeedData, overrides: Mapping[str, Any] | None, schema: Struct) -> dict[str, Any]:
    """Seed defaults with caller overrides on top; nested mappings merge one level deep."""
    merged = dict(seed.options)
    for key, value in (overrides or {}).items():
        if key not in schema.fields:
            raise OptionError(str(key), value, unknown_key_hint(str(key), schema.fields))
        base = merged.get(key)
        if isinstance(base, dict) and isinstance(value, Mapping):
            merged[key] = {**base, **value}
        else:
            merged[key] = value
    return schema.check(merged, "")


def _unwrap_placeholders(value: Any, path: tuple[Hashable, ...], out: list[Placeholder]) -> Any:
    if isinstance(value, dict):
        if set(value) == {"value", "placeholder"}:
            out.append(Placeholder(_dotted(path[1:]), value["value"], str(value["placeholder"])))
            return _unwrap_placeholders(value["value"], path, out)
        return {k: _unwrap_placeholders(v, (*path, k), out) for k, v in value.items()}
    if isinstance(value, list):
        return [_unwrap_placeholders(v, (*path, i), out) for i, v in enumerate(value)]
    return value


def _dotted(path: tuple[Hashable, ...]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


__all__ = ["Placeholder", "SeedData", "Spec", "load_seed", "merge_options", "seed_path"]
