"""Chat text to Braff actions, in English and Japanese.

Accepted forms (a leading ``!`` is optional, full-width characters are fine):
``discard red black`` / ``discard red 2`` / ``捨て 赤 黒`` / ``赤と黒を交換`` / ``keep`` /
``交換しない``;
``raise D`` / ``raise D 6`` / ``ハイエストおっぱい Dカップ`` / ``D`` (the stake defaults to
the least allowed); ``call`` / ``ふーん``; ``all in`` / ``オールイン``; ``drop`` /
``そんなにありません``; ``stand`` / ``そのまま``; ``fake`` / ``にせ乳だ`` and
``not enough`` / ``足りてない`` (optionally after ``doubt`` / ``ダウト``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcbridge.core import Action, IllegalAction
from mcbridge.core.text import PARTICLES, alias_table, split_words
from mcbridge.games.braff.actions import AllIn, Call, Discard, Doubt, Drop, Raise, Stand
from mcbridge.games.braff.cards import cup_ordinal

if TYPE_CHECKING:
    from mcbridge.games.braff.rules import BraffState

# No single-letter aliases: single letters are cups ("c" is C cup, not "call").
COMMANDS = alias_table(
    {
        "discard": ["change", "exchange", "捨て", "捨てる", "すて", "すてる", "交換", "こうかん", "チェンジ"],
        "keep": ["none", "nothing", "なし", "キープ", "交換しない", "そのまま交換しない"],
        "raise": ["declare", "highest", "open", "bet", "ハイエスト", "ハイエストおっぱい", "レイズ", "宣言"],
        "call": ["see", "match", "ふーん", "ふうん", "フーン", "コール"],
        "allin": ["shove", "オールイン", "おーるいん"],
        "drop": ["fold", "そんなにありません", "ドロップ", "降りる", "おりる", "降り", "フォールド"],
        "stand": ["stay", "hold", "check", "pass", "そのまま", "スタンド", "パス", "ステイ"],
        "doubt": ["ダウト", "だうと"],
    }
)

KINDS = alias_table(
    {
        "fake": ["にせ乳だ", "にせ乳", "偽乳", "ニセ乳", "にせちち", "にせ", "偽", "ニセ"],
        "not_enough": ["notenough", "short", "足りてない", "たりてない", "足りない", "不足"],
    }
)

COLOUR_NAMES = alias_table(
    {
        "red": ["赤", "あか", "アカ", "レッド"],
        "yellow": ["黄", "黄色", "きいろ", "キイロ", "イエロー"],
        "blue": ["青", "あお", "アオ", "ブルー"],
        "green": ["緑", "みどり", "ミドリ", "グリーン"],
        "black": ["黒", "くろ", "クロ", "ブラック"],
        "white": ["白", "しろ", "シロ", "ホワイト"],
    }
)

_CUP_WORDS = ["aaa", "aa", *"abcdefghijklmnopqrstuvwxyz"]
VOCABULARY = [*COMMANDS, *KINDS, *COLOUR_NAMES, *_CUP_WORDS]
#: "Dカップ", "cup D", "6 chips" read as "D", "D", "6"
FILLERS = PARTICLES | {"cup", "cups", "カップ", "chips", "chip", "チップ"}
PHRASES: dict[tuple[str, ...], str] = {("all", "in"): "allin", ("not", "enough"): "notenough"}
#: commands that take no words after them
SIMPLE: dict[str, Action] = {"keep": Discard(()), "call": Call(), "allin": AllIn(), "drop": Drop(), "stand": Stand()}


def parse(seat: int, text: str, state: BraffState) -> Action:
    words = split_words(text, VOCABULARY, FILLERS, PHRASES)
    if not words:
        raise _unknown(text, state, seat)
    command = COMMANDS.get(words[0])
    rest = words[1:] if command else words
    if command is None and len(words) > 1 and words[-1] in COMMANDS:  # Japanese: "赤と黒を交換"
        command, rest = COMMANDS[words[-1]], words[:-1]
    if command is None:
        command = _implied_command(words[0])
        if command is None:
            raise _unknown(text, state, seat)
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
        raise _unknown(text, state, seat)
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


def _unknown(text: str, state: BraffState, seat: int) -> IllegalAction:
    """Say what this player may type now, so the table can tell them."""
    legal: list[str] = []
    if seat in state.to_act():
        kinds = {type(a).__name__ for a in state.legal_actions(seat)}
        legal = [
            command
            for command, action in (
                ("discard", "Discard"),
                ("raise", "Raise"),
                ("call", "Call"),
                ("allin", "AllIn"),
                ("drop", "Drop"),
                ("stand", "Stand"),
                ("doubt", "Doubt"),
            )
            if action in kinds
        ]
    return IllegalAction("unknown_command", text=text, legal=legal)
