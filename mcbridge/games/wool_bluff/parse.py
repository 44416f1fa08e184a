"""Chat text to Wool Bluff actions, in English and Japanese.

Accepted forms (a leading ``!`` is optional, full-width characters are fine):
``bid red 12`` / ``red 12`` / ``予想 赤 12`` / ``赤12個``; ``through`` / ``pass`` / ``スルー``;
``bluff`` / ``ブラフ`` / ``ダウト``; ``discard red 2 blue`` / ``捨て 赤2 青``
(a colour without a number means one).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcbridge.core import Action, IllegalAction
from mcbridge.core.text import alias_table, tokens
from mcbridge.games.wool_bluff.actions import COLOURS, Bid, Bluff, Discard, Through, wool_pairs

if TYPE_CHECKING:
    from mcbridge.games.wool_bluff.rules import WoolBluffState

COMMANDS = alias_table(
    {
        "bid": ["b", "raise", "予想", "ビッド", "よそう", "宣言"],
        "through": ["t", "pass", "ok", "スルー", "するー", "パス", "ぱす"],
        "bluff": ["call", "doubt", "liar", "ブラフ", "ぶらふ", "ダウト", "だうと", "うそ", "嘘"],
        "discard": ["d", "drop", "捨て", "捨てる", "すて", "すてる", "ディスカード"],
    }
)

COLOUR_NAMES = alias_table(
    {
        "red": ["赤", "あか", "アカ", "赤色", "レッド"],
        "blue": ["青", "あお", "アオ", "青色", "ブルー"],
        "yellow": ["黄", "黄色", "きいろ", "キイロ", "き", "イエロー"],
        "green": ["緑", "みどり", "ミドリ", "緑色", "グリーン"],
        "black": ["黒", "くろ", "クロ", "黒色", "ブラック"],
        "white": ["白", "しろ", "シロ", "白色", "ホワイト"],
    }
)


def parse(seat: int, text: str, state: WoolBluffState) -> Action:
    words = tokens(text)
    if not words:
        raise _unknown(text, state, seat)
    command = COMMANDS.get(words[0])
    rest = words[1:] if command else words
    if command is None:
        if words[0] in COLOUR_NAMES or words[0].isdigit():
            command = "bid"
        else:
            raise _unknown(text, state, seat)
    if command == "through":
        return Through()
    if command == "bluff":
        return Bluff()
    if command == "bid":
        colours = [COLOUR_NAMES[w] for w in rest if w in COLOUR_NAMES]
        numbers = [int(w) for w in rest if w.isdigit()]
        unknown = [w for w in rest if w not in COLOUR_NAMES and not w.isdigit()]
        if len(colours) != 1 or len(numbers) != 1 or unknown:
            raise IllegalAction("bad_bid_syntax", text=text, colours=list(COLOURS), example="bid red 12")
        return Bid(colours[0], numbers[0])
    return _discard(text, rest)


def _discard(text: str, words: list[str]) -> Discard:
    counts = dict.fromkeys(COLOURS, 0)
    i = 0
    while i < len(words):
        colour = COLOUR_NAMES.get(words[i])
        if colour is None:
            raise IllegalAction("bad_discard_syntax", text=text, colours=list(COLOURS), example="discard red 2 blue")
        n = 1
        if i + 1 < len(words) and words[i + 1].isdigit():
            n = int(words[i + 1])
            i += 1
        counts[colour] += n
        i += 1
    if not any(counts.values()):
        raise IllegalAction("bad_discard_syntax", text=text, colours=list(COLOURS), example="discard red 2 blue")
    return Discard(wool_pairs(counts))


def _unknown(text: str, state: WoolBluffState, seat: int) -> IllegalAction:
    """Say what this player may type now, so the table can tell them."""
    legal: list[str] = []
    if seat in state.to_act():
        if state.phase == "bid":
            legal = ["bid"] if state.legal_actions(seat) != [Bluff()] else ["bluff"]
        elif state.phase == "respond":
            legal = ["through", "bluff"]
        elif state.phase == "discard":
            legal = ["discard"]
    return IllegalAction("unknown_command", text=text, legal=legal)
