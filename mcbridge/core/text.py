"""Helpers for reading chat commands in English and Japanese.

Players type on phones and IMEs: full-width digits, `！ブラフ`, `赤１２個`. NFKC folds the
width variants, and tokens split at digit boundaries so "赤12" reads as ["赤", "12"].
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping

_TOKEN = re.compile(r"\d+|[^\W\d_]+|[^\w\s]", re.UNICODE)
_COUNTER_SUFFIXES = ("個", "こ", "つ", "枚", "本")
_PREFIXES = ("!", "/", "#")


def normalise(text: str) -> str:
    folded = unicodedata.normalize("NFKC", text).strip().lower()
    while folded[:1] in _PREFIXES and folded:
        folded = folded[1:].lstrip()
    return folded


def tokens(text: str) -> list[str]:
    """Words and numbers, with counters (個, つ) and punctuation dropped."""
    out = []
    for tok in _TOKEN.findall(normalise(text)):
        if not tok.isdigit() and not tok.isalpha():
            continue
        for suffix in _COUNTER_SUFFIXES:
            if len(tok) > len(suffix) and tok.endswith(suffix):
                tok = tok[: -len(suffix)]
        if tok in _COUNTER_SUFFIXES:
            continue
        out.append(tok)
    return out


def alias_table(aliases: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """{"bluff": ["ブラフ", "doubt"]} -> {"bluff": "bluff", "ブラフ": "bluff", "doubt": "bluff"}."""
    table: dict[str, str] = {}
    for canonical, names in aliases.items():
        for name in (canonical, *names):
            key = normalise(name)
            if key in table and table[key] != canonical:
                raise ValueError(f"alias {name!r} means both {table[key]!r} and {canonical!r}")
            table[key] = canonical
    return table
