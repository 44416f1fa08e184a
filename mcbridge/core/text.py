"""Helpers for reading chat commands in English and Japanese.

Players type on phones and IMEs: full-width digits, `！ブラフ`, `赤１２個`. NFKC folds the
width variants, and tokens split at digit boundaries so "赤12" reads as ["赤", "12"].
Japanese without spaces ("Cカップ", "カップのA") is split into a game's known words by
`split_words`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping

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


# -- Japanese written without spaces ("Cカップ", "カップのA") --------------------------------
#: Particles that carry no meaning in a command ("赤を2枚", "カップのA"); a game adds its own.
PARTICLES = frozenset({"の", "を", "で", "に", "は", "が", "と", "枚"})


def split_words(
    text: str,
    vocabulary: Collection[str],
    fillers: Collection[str] = PARTICLES,
    phrases: Mapping[tuple[str, ...], str] | None = None,
    split_ascii_up_to: int = 0,
) -> list[str]:
    """Tokens of `text` with unknown tokens split into known words; two-word `phrases`
    ("all in") joined into one word; `fillers` dropped.

    Only tokens with non-ASCII characters are split, plus ASCII tokens of at most
    `split_ascii_up_to` letters (Briscola's "ac" = A of coppe), so an English typo is
    reported as it was typed instead of being read as a string of one-letter words.
    """
    dropped = {normalise(w) for w in fillers}
    known = {normalise(w) for w in vocabulary} | dropped
    out: list[str] = []
    for token in tokens(text):
        splittable = not token.isascii() or len(token) <= split_ascii_up_to
        out.extend(_split(token, known) if token not in known and splittable else [token])
    joined: list[str] = []
    i = 0
    while i < len(out):
        pair = tuple(out[i : i + 2])
        if phrases and pair in phrases:
            joined.append(phrases[pair])
            i += 2
            continue
        joined.append(out[i])
        i += 1
    return [w for w in joined if w not in dropped]


def _split(token: str, known: set[str]) -> list[str]:
    """Fewest known words that make up `token` (digits may stand alone), or [token]."""
    best: list[list[str] | None] = [None] * (len(token) + 1)
    best[0] = []
    for end in range(1, len(token) + 1):
        for start in range(end):
            prefix = best[start]
            piece = token[start:end]
            if prefix is None or not (piece in known or piece.isdigit()):
                continue
            if best[end] is None or len(prefix) + 1 < len(best[end] or ()):
                best[end] = [*prefix, piece]
    return best[-1] or [token]
