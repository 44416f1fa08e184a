"""Helpers for reading chat commands in English and Japanese.

Players type on phones and IMEs: full-width digits, `！ブラフ`, `赤１２個`, katakana or
hiragana, romaji. NFKC folds the width variants, katakana folds to hiragana (so one alias
covers `スルー` and `するー`), and tokens split at digit boundaries so "赤12" reads as
["赤", "12"]. Japanese without spaces ("予想赤12個以上", "カップのA") is split into a game's
known words by `split_words`; particles and counters (が, を, 個, 枚, つ, 以上) are dropped.

Numbers are whole numbers only: "-1", "+3" and "100.0" are refused with the stable code
`bad_number` instead of being read as 1, 3 or "100 0" [decided here: a hyphen between two
words, "red-12", is a separator, not a sign]. Anything that is not a string, or is longer
than a chat line, is refused with `not_text` / `text_too_long`.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from mcbridge.core.errors import IllegalAction
from mcbridge.core.legal import ActionRange

#: the chat cap of a Minecraft 1.12 client; nobody can type more, so longer text is an attack
MAX_TEXT = 256
_TOKEN = re.compile(r"\d+|[^\W\d_]+|[^\w\s]", re.UNICODE)
#: a sign or a decimal point glued to a number: "-1", "+3", "−2", "100.0", "1,5"
_BAD_NUMBER = re.compile(r"(?<!\w)[-+−]\d+(?:[.,]\d+)?|\d+[.,]\d+")
_PREFIXES = ("!", "/", "#")
_KATAKANA = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}

#: Counters and "or more" (赤が12個以上, 3つ, 2枚) carry no meaning in a command.
COUNTERS = frozenset({"個", "こ", "つ", "枚", "本", "以上", "いじょう"})
#: Particles that carry no meaning in a command ("赤を2枚", "カップのA"); a game adds its own.
PARTICLES = frozenset({"の", "を", "で", "に", "は", "が", "と", "も"}) | COUNTERS
#: What asks for help in every game: `!help`, `!ヘルプ`, `!？` (full-width folds to "?"); no
#: single letters: in Braff "!h" is the H cup.
HELP_WORDS = frozenset({"help", "?", "ヘルプ", "herupu", "使い方", "つかいかた", "commands", "コマンド"})


def normalise(text: Any) -> str:
    """NFKC, lower case, katakana as hiragana, without a leading `!`, `/` or `#`."""
    if not isinstance(text, str):
        raise IllegalAction("not_text", got=type(text).__name__)
    if len(text) > MAX_TEXT:
        raise IllegalAction("text_too_long", length=len(text), max=MAX_TEXT)
    folded = unicodedata.normalize("NFKC", text).strip().lower().translate(_KATAKANA)
    while folded[:1] in _PREFIXES and folded:
        folded = folded[1:].lstrip()
    return folded


def is_help(text: Any) -> bool:
    """`!help`, `!ＨＥＬＰ`, `!ヘルプ`, `!？`: the tables answer these before any game parser."""
    try:
        word = normalise(text)
    except IllegalAction:
        return False
    return word in _HELP or word.rstrip("?") in _HELP


_HELP = frozenset(normalise(w) for w in HELP_WORDS)


def check_help(text: Any, state: Any) -> None:
    """A parser's first step: `!help` in any form raises IllegalAction("help_requested",
    phase=...), which a table renders as the help for this phase (`Locale.help`), so even a
    table that only knows refusals answers `!？` and `!ＨＥＬＰ`."""
    if is_help(text):
        raise IllegalAction("help_requested", phase=state.phase)


def tokens(text: Any) -> list[str]:
    """Words and numbers, with punctuation and stand-alone counters (個, つ) dropped.

    Raises IllegalAction("bad_number") for a signed or decimal number.
    """
    folded = normalise(text)
    bad = _BAD_NUMBER.search(folded)
    if bad:
        raise IllegalAction("bad_number", text=text, number=bad.group())
    out = []
    for tok in _TOKEN.findall(folded):
        if tok.isdigit() and not tok.isdecimal():  # "᧚": a digit sign that is not a number
            raise IllegalAction("bad_number", text=text, number=tok)
        if (tok.isdecimal() or tok.isalpha()) and tok not in COUNTERS:
            out.append(tok)
    return out


def alias_table(aliases: Mapping[str, Iterable[str]]) -> dict[str, str]:
    """{"bluff": ["ブラフ", "doubt"]} -> {"bluff": "bluff", "ぶらふ": "bluff", "doubt": "bluff"}."""
    table: dict[str, str] = {}
    for canonical, names in aliases.items():
        for name in (canonical, *names):
            key = normalise(name)
            if key in table and table[key] != canonical:
                raise ValueError(f"alias {name!r} means both {table[key]!r} and {canonical!r}")
            table[key] = canonical
    return table


def closest(word: str, table: Mapping[str, str], cutoff: float = 0.6) -> str | None:
    """The canonical name of the alias nearest to `word` ("bluf" -> "bluff"), or None."""
    match = difflib.get_close_matches(word, list(table), n=1, cutoff=cutoff)
    return table[match[0]] if match else None


#: Colour names players type, for every game with colours (wool, Braff cards).
COLOUR_ALIASES: dict[str, list[str]] = {
    "red": ["赤", "あか", "aka", "赤色", "レッド", "reddo"],
    "blue": ["青", "あお", "ao", "青色", "ブルー", "buruu"],
    "yellow": ["黄", "黄色", "きいろ", "kiiro", "イエロー", "ierou"],
    "green": ["緑", "みどり", "midori", "緑色", "グリーン", "guriin"],
    "black": ["黒", "くろ", "kuro", "黒色", "ブラック", "burakku"],
    "white": ["白", "しろ", "shiro", "白色", "ホワイト", "howaito"],
}


def legal_commands(state: Any, seat: int, commands: Mapping[str, str]) -> list[str]:
    """The commands ({"call": "Call", ...}, in that order) whose action kinds `seat` may
    play now: what a refusal tells the player they can type."""
    if seat not in state.to_act():
        return []
    kinds = {type(a.first if isinstance(a, ActionRange) else a).__name__ for a in state.legal_actions(seat)}
    return [command for command, kind in commands.items() if kind in kinds]


def command_and_rest(words: list[str], commands: Mapping[str, str]) -> tuple[str | None, list[str]]:
    """The command word first ("捨て 赤2") or last ("赤2 青1 捨て"), and the words beside it."""
    if words and words[0] in commands:
        return commands[words[0]], words[1:]
    if len(words) > 1 and words[-1] in commands:
        return commands[words[-1]], words[:-1]
    return None, words


def unknown_command(text: Any, words: list[str], commands: Mapping[str, str], legal: list[str]) -> IllegalAction:
    """`unknown_command` with what is legal now and, when a word looks like a command
    ("bluf", "ぶらぷ"), the closest one as `suggestion`, with `typed` the language it was
    typed in, so the reply names the command the way the player writes."""
    details: dict[str, Any] = {"text": text, "legal": legal}
    word = next((w for w in words if not w.isdigit()), None)
    suggestion = closest(word, commands) if word else None
    if word and suggestion:
        details["suggestion"] = suggestion
        details["typed"] = "en" if word.isascii() else "ja"  # the language the player typed in
    return IllegalAction("unknown_command", **details)


# -- Japanese written without spaces ("予想赤12", "カップのA") --------------------------------
def split_words(
    text: Any,
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
    dropped = _normalised(_hashable(fillers))
    known = _normalised(_hashable(vocabulary)) | dropped
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


def _hashable(words: Collection[str]) -> frozenset[str] | tuple[str, ...]:
    return words if isinstance(words, (frozenset, tuple)) else frozenset(words)


@functools.lru_cache(maxsize=256)
def _normalised(words: frozenset[str] | tuple[str, ...]) -> frozenset[str]:
    """A vocabulary's normalised words, kept: the tables parse every chat line against the same
    few vocabularies, and normalising them anew was ~7% of the controller's CPU at 50 tables."""
    return frozenset(normalise(w) for w in words)


def _split(token: str, known: frozenset[str]) -> list[str]:
    """Fewest known words that make up `token` (digits may stand alone), or [token]."""
    best: list[list[str] | None] = [None] * (len(token) + 1)
    best[0] = []
    for end in range(1, len(token) + 1):
        for start in range(max(0, end - 24), end):  # no word is longer than 24 characters
            prefix = best[start]
            piece = token[start:end]
            if prefix is None or not (piece in known or piece.isdigit()):
                continue
            if best[end] is None or len(prefix) + 1 < len(best[end] or ()):
                best[end] = [*prefix, piece]
    return best[-1] or [token]
