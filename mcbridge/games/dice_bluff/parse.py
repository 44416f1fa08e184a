"""Chat text to Dice Bluff actions, in English and Japanese.

Accepted forms (a leading ``!`` is optional; full-width, katakana/hiragana and romaji are
fine; the command word may come first or last):
``bid 9 3`` / ``9 3`` / ``9x3`` / ``9 3s`` (count first) and ``3が9個`` / ``3が9個以上`` (face
first, with が: the game's own announcement 「3が9個」); star bids ``bid 5 stars`` / ``5 ★`` /
``☆が5個`` / ``星が3個`` / ``スターが3個`` (``paco`` in Perudo); ``challenge`` / ``bluff`` /
``liar`` / ``dudo`` / ``call`` / ``チャレンジ`` / ``ブラフ`` / ``ダウト`` / ``コール``; set aside
before a raise with ``aside 3 3 star`` / ``keep 3 3`` / ``出す 3 3`` / ``3 3 出す``.

[decided here] every contest word (challenge, bluff, call, doubt, チャレンジ, コール, ブラフ,
ダウト) means CHALLENGE: it is the only way to contest a bid in this game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcbridge.core import Action, IllegalAction
from mcbridge.core.text import (
    PARTICLES,
    alias_table,
    check_help,
    command_and_rest,
    legal_commands,
    split_words,
    unknown_command,
)
from mcbridge.games.dice_bluff.actions import Bid, Challenge, SetAside, sorted_dice

if TYPE_CHECKING:
    from mcbridge.games.dice_bluff.rules import DiceBluffState

COMMANDS = alias_table(
    {
        "bid": ["b", "raise", "宣言", "sengen", "ビッド", "biddo", "レイズ", "reizu"],
        "challenge": [
            "c", "call", "bluff", "liar", "doubt", "dudo", "チャレンジ", "charenji", "ブラフ", "burafu",
            "ダウト", "dauto", "うそ", "嘘", "ドゥード", "コール", "kooru",
        ],
        "aside": ["setaside", "set", "keep", "reroll", "キープ", "kiipu", "出す", "dasu", "振り直し", "ふりなおし"],
    }
)

WILD_WORDS = frozenset(
    {"star", "stars", "wild", "wilds", "paco", "pacos", "星", "ほし", "hoshi", "すたー", "sutaa", "ぱこ", "pako"}
)
#: Words that carry no meaning in a bid or set-aside ("9 x 3", "nine 3s", "3の目が9個以上");
#: が is kept: it marks the face in "3が9個".
FILLERS = (PARTICLES - {"が"}) | {"x", "s", "of", "times", "目", "dice", "die", "さいころ", "サイコロ"}
PHRASES: dict[tuple[str, ...], str] = {("set", "aside"): "aside"}
VOCABULARY = [*COMMANDS, *WILD_WORDS, "が"]
_STAR_SIGNS = ("★", "☆")
_EXAMPLE_BID = "bid 9 3 / bid 5 stars / 3が9個"


def parse(seat: int, text: str, state: DiceBluffState) -> Action:
    check_help(text, state)
    spaced = text
    for sign in _STAR_SIGNS:
        spaced = spaced.replace(sign, " star ") if isinstance(spaced, str) else spaced
    words = split_words(spaced, VOCABULARY, FILLERS, PHRASES)
    command, rest = command_and_rest(words, COMMANDS)
    if command is None:
        if not any(w.isdigit() or w in WILD_WORDS for w in words):
            raise unknown_command(text, words, COMMANDS, _legal(state, seat))
        command = "bid"
    if command == "challenge":
        if rest:
            raise unknown_command(text, rest, COMMANDS, _legal(state, seat))
        return Challenge()
    wild_face = state.rules.wild_face
    face_first = "が" in rest  # Japanese: 3が9個 = "nine 3s"
    meaningful = [w for w in rest if w != "が"]
    unknown = [w for w in meaningful if not w.isdigit() and w not in WILD_WORDS]
    if command == "aside":
        faces = [wild_face if w in WILD_WORDS else int(w) for w in meaningful if w not in unknown]
        if unknown or not faces:
            raise IllegalAction("bad_aside_syntax", text=text, example="aside 3 3 star")
        return SetAside(sorted_dice(faces))
    numbers = [int(w) for w in meaningful if w.isdigit()]
    wilds = [w for w in meaningful if w in WILD_WORDS]
    if unknown or len(wilds) > 1 or len(numbers) != (1 if wilds else 2):
        raise IllegalAction("bad_bid_syntax", text=text, example=_EXAMPLE_BID)
    if wilds:
        return Bid(numbers[0], wild_face)
    face, count = numbers if face_first else reversed(numbers)
    return Bid(count, face)


#: what a refusal lists as possible now, command by action kind
LEGAL = {"bid": "Bid", "challenge": "Challenge", "aside": "SetAside"}


def _legal(state: DiceBluffState, seat: int) -> list[str]:
    return legal_commands(state, seat, LEGAL)
