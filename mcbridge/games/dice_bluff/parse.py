"""Chat text to Dice Bluff actions, in English and Japanese.

Accepted forms (a leading ``!`` is optional, full-width characters are fine):
``bid 9 3`` / ``9 3`` / ``9x3`` / ``9 3s`` (count first) and ``3が9個`` (face first, with
が); star bids ``bid 5 stars`` / ``5 ★`` / ``☆が5個`` (``paco`` in Perudo); ``challenge`` /
``bluff`` / ``liar`` / ``dudo`` / ``チャレンジ`` / ``ブラフ`` / ``ダウト``; set aside before a
raise with ``aside 3 3 star`` / ``keep 3 3`` / ``出す 3 3``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcbridge.core import Action, IllegalAction
from mcbridge.core.text import alias_table, tokens
from mcbridge.games.dice_bluff.actions import Bid, Challenge, SetAside, sorted_dice

if TYPE_CHECKING:
    from mcbridge.games.dice_bluff.rules import DiceBluffState

COMMANDS = alias_table(
    {
        "bid": ["b", "raise", "宣言", "せんげん", "ビッド", "びっど", "レイズ"],
        "challenge": [
            "c", "call", "bluff", "liar", "doubt", "dudo",
            "チャレンジ", "ちゃれんじ", "ブラフ", "ぶらふ", "ダウト", "だうと", "うそ", "嘘", "ドゥード",
        ],
        "aside": ["setaside", "set", "keep", "reroll", "キープ", "出す", "だす", "振り直し", "ふりなおし"],
    }
)

WILD_WORDS = frozenset(
    {"star", "stars", "wild", "wilds", "paco", "pacos", "星", "ほし", "スター", "すたー", "パコ", "ぱこ"}
)
#: Words that carry no meaning in a bid or set-aside ("9 x 3", "nine 3s", "3が9個", "set aside").
FILLERS = frozenset({"x", "s", "of", "times", "aside", "が", "の", "を"})
_STAR_SIGNS = ("★", "☆")


def parse(seat: int, text: str, state: DiceBluffState) -> Action:
    spaced = text
    for sign in _STAR_SIGNS:
        spaced = spaced.replace(sign, " star ")
    words = tokens(spaced)
    if not words:
        raise _unknown(text, state, seat)
    command = COMMANDS.get(words[0])
    rest = words[1:] if command else words
    if command is None:
        if not any(w.isdigit() or w in WILD_WORDS for w in words):
            raise _unknown(text, state, seat)
        command = "bid"
    if command == "challenge":
        return Challenge()
    wild_face = state.rules.wild_face
    meaningful = [w for w in rest if w not in FILLERS]
    unknown = [w for w in meaningful if not w.isdigit() and w not in WILD_WORDS]
    if command == "aside":
        faces = [wild_face if w in WILD_WORDS else int(w) for w in meaningful if w not in unknown]
        if unknown or not faces:
            raise IllegalAction("bad_aside_syntax", text=text, example="aside 3 3 star")
        return SetAside(sorted_dice(faces))
    numbers = [int(w) for w in meaningful if w.isdigit()]
    wilds = [w for w in meaningful if w in WILD_WORDS]
    if unknown or len(wilds) > 1 or len(numbers) != (1 if wilds else 2):
        raise IllegalAction("bad_bid_syntax", text=text, example="bid 9 3 / bid 5 stars / 3が9個")
    if wilds:
        return Bid(numbers[0], wild_face)
    face_first = "が" in rest  # Japanese: 3が9個 = "nine 3s"
    face, count = numbers if face_first else reversed(numbers)
    return Bid(count, face)


def _unknown(text: str, state: DiceBluffState, seat: int) -> IllegalAction:
    """Say what this player may type now, so the table can tell them."""
    legal = state.legal_actions(seat)
    names = []
    if any(isinstance(a, Bid) for a in legal):
        names.append("bid")
    if Challenge() in legal:
        names.append("challenge")
    if any(isinstance(a, SetAside) for a in legal):
        names.append("aside")
    return IllegalAction("unknown_command", text=text, legal=names)
