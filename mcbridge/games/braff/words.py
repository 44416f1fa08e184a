"""Chat words for games whose players write Japanese without spaces ("Cカップ", "カップのA").

`core.text.tokens` splits at digit boundaries and punctuation, but a run of kana, kanji and
Latin letters stays one token. Here a token that is not a known word is split into known
words when it can be split completely (a small dynamic programme over the vocabulary);
otherwise it stays as it is, so an unknown word is reported, never half-read.

Briscola bugiarda uses this too. Proposed for core.text as `split_words` (see the report
on issue 8); until then it lives here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from mcbridge.core.text import normalise, tokens

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
