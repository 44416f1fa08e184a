"""Chat text to Braff actions, in English and Japanese.

Accepted forms (a leading ``!`` is optional, full-width characters are fine):
``discard red black`` / ``discard red 2`` / ``捨て 赤 黒`` / ``赤と黒を交換`` / ``keep`` /
``交換しない``;
``raise D`` / ``raise D 6`` / ``ハイエストおっぱい Dカップ`` / ``D`` (the stake defaults to
the least allowed); ``call`` / ``ふーん``; ``all in`` / ``オールイン``; ``drop`` /
``そんなにありません``; ``stand`` / ``そのまま``; ``fake`` / ``にせ乳だ`` and
``not enough`` / ``足りてない`` (optionally after ``doubt`` / ``ダウト``). Katakana or hiragana
and romaji (``sute aka kuro``, ``haiesuto D``, ``fuun``, ``ooruin``) are fine; the command word
may come first or last (``赤と黒を交換``, ``D 6 ハイエスト``).

[decided here] コール and call mean CALL (match the highest cup), as in poker; チャレンジ and
ブラフ mean nothing in Braff (its contest is the doubt card, ダウト), so they get the
closest-command suggestion.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcbridge.core import Action, IllegalAction
from mcbridge.core.text import (
    COLOUR_ALIASES,
    PARTICLES,
    alias_table,
    check_help,
    command_and_rest,
    legal_commands,
    split_words,
    unknown_command,
)
from mcbridge.games.braff.actions import AllIn, Call, Discard, Doubt, Drop, Raise, Stand
from mcbridge.games.braff.cards import cup_ordinal

if TYPE_CHECKING:
    from mcbridge.games.braff.rules import BraffState

# No single-letter aliases: single letters are cups ("c" is C cup, not "call").
COMMANDS = alias_table(
    {
        "discard": ["change", "exchange", "捨て", "捨てる", "sute", "suteru", "交換", "こうかん", "koukan", "チェンジ"],
        "keep": ["none", "nothing", "なし", "nashi", "キープ", "kiipu", "交換しない", "そのまま交換しない"],
        "raise": [
            "declare", "highest", "open", "bet", "ハイエスト", "haiesuto", "ハイエストおっぱい",
            "レイズ", "reizu", "宣言",
        ],
        "call": ["see", "match", "ふーん", "ふうん", "fuun", "コール", "kooru"],
        "allin": ["shove", "オールイン", "ooruin"],
        "drop": [
            "fold", "そんなにありません", "ドロップ", "doroppu", "降りる", "おりる", "oriru", "降り", "フォールド",
        ],
        "stand": ["stay", "hold", "check", "pass", "そのまま", "sonomama", "スタンド", "パス", "pasu", "ステイ"],
        "doubt": ["ダウト", "dauto"],
    }
)

KINDS = alias_table(
    {
        "fake": ["にせ乳だ", "にせ乳", "偽乳", "にせちち", "nisechichi", "にせ", "nise", "偽"],
        "not_enough": ["notenough", "short", "足りてない", "たりてない", "足りない", "tarinai", "taritenai", "不足"],
    }
)

COLOUR_NAMES = alias_table(COLOUR_ALIASES)

_CUP_WORDS = ["aaa", "aa", *"abcdefghijklmnopqrstuvwxyz"]
VOCABULARY = [*COMMANDS, *KINDS, *COLOUR_NAMES, *_CUP_WORDS]
#: "Dカップ", "cup D", "6 chips" read as "D", "D", "6"
FILLERS = PARTICLES | {"cup", "cups", "カップ", "chips", "chip", "チップ"}
PHRASES: dict[tuple[str, ...], str] = {("all", "in"): "allin", ("not", "enough"): "notenough"}
#: commands that take no words after them
SIMPLE: dict[str, Action] = {"keep": Discard(()), "call": Call(), "allin": AllIn(), "drop": Drop(), "stand": Stand()}


def parse(seat: int, text: str, state: BraffState) -> Action:
    check_help(text, state)
    words = split_words(text, VOCABULARY, FILLERS, PHRASES)
    command, rest = command_and_rest(words, COMMANDS)
    if command is None and words:
        command = _implied_command(words[0])
    if command is None:
        raise unknown_command(text, words, COMMANDS, _legal(state, seat))
    if command == "discard":
        return _discard(text, rest)
    if command == "raise":
        return _raise(text, rest, state)
    if command == "doubt":
        kinds = [KINDS[w] for w in rest if w in KINDS]
        if len(kinds) != 1 or len(rest) != 1:
            raise IllegalAction("bad_doubt_syntax", text=text, example="fake / not enough")
        return Doubt(kinds[0])
    if rest:
        raise unknown_command(text, rest, COMMANDS, _legal(state, seat))
    return SIMPLE[command]


def _implied_command(word: str) -> str | None:
    if word in COLOUR_NAMES or word.isdigit():
        return "discard"
    if word in KINDS:
        return "doubt"
    if cup_ordinal(word) is not None:
        return "raise"
    return None


def _discard(text: str, words: list[str]) -> Discard:
    cards: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word.isdigit() and int(word) == 0 and len(words) == 1:
            return Discard(())
        colour = COLOUR_NAMES.get(word)
        if colour is None:
            raise IllegalAction("bad_discard_syntax", text=text, example="discard red black")
        count = 1
        if i + 1 < len(words) and words[i + 1].isdigit():
            count = int(words[i + 1])
            i += 1
        if count > 10:
            raise IllegalAction("bad_discard_syntax", text=text, example="discard red black")
        cards.extend([colour] * count)
        i += 1
    return Discard(tuple(cards))


def _raise(text: str, words: list[str], state: BraffState) -> Raise:
    cups = [w for w in words if cup_ordinal(w) is not None]
    numbers = [int(w) for w in words if w.isdigit()]
    if len(cups) != 1 or len(numbers) > 1 or len(cups) + len(numbers) != len(words):
        raise IllegalAction("bad_raise_syntax", text=text, example="raise D 6")
    label = cups[0].upper()
    if numbers:
        return Raise(label, numbers[0])
    required = state.required_stake(label)
    if required is None:
        raise IllegalAction("not_on_meter", cup=label, cups=state.game.meter_labels)
    return Raise(label, required)


#: what a refusal lists as possible now, command by action kind
LEGAL = {
    "discard": "Discard", "raise": "Raise", "call": "Call", "allin": "AllIn",
    "drop": "Drop", "stand": "Stand", "doubt": "Doubt",
}


def _legal(state: BraffState, seat: int) -> list[str]:
    return legal_commands(state, seat, LEGAL)
