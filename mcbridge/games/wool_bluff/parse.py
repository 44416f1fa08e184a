"""Chat text to Wool Bluff actions, in English and Japanese.

Accepted forms (a leading ``!`` is optional; full-width, katakana/hiragana and romaji are
fine; the command word may come first or last):
``bid red 12`` / ``red 12`` / ``12 red`` / ``予想 赤 12`` / ``予想 赤 12個以上`` / ``予想赤12`` /
``赤が12個`` (the game's own announcement, 「赤が 12 個以上！」) / ``aka 12``;
``through`` / ``pass`` / ``believe`` / ``スルー`` / ``suru``;
``bluff`` / ``call`` / ``challenge`` / ``ブラフ`` / ``ダウト`` / ``チャレンジ`` / ``コール`` /
``burafu``; ``discard red 2 blue`` / ``捨て 赤2 青`` / ``赤2 青1 捨て`` / ``赤を2個と青を1個捨てる``
(a colour without a number means one; in the discard phase the verb may be left out).

[decided here] チャレンジ, コール, call and challenge all mean BLUFF in this game: there is no
other challenge, and "call" is what poker players type to contest a bid.
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
    split_words,
    unknown_command,
)
from mcbridge.games.wool_bluff.actions import COLOURS, Bid, Bluff, Discard, Through, wool_pairs

if TYPE_CHECKING:
    from mcbridge.games.wool_bluff.rules import WoolBluffState

COMMANDS = alias_table(
    {
        "bid": ["b", "raise", "predict", "予想", "よそう", "yosou", "yoso", "ビッド", "宣言", "せんげん", "sengen"],
        "through": ["t", "pass", "ok", "believe", "スルー", "suru", "suruu", "パス", "pasu", "信じる", "しんじる"],
        "bluff": [
            "call", "doubt", "liar", "challenge", "ブラフ", "burafu", "ダウト", "dauto", "うそ", "嘘",
            "チャレンジ", "charenji", "コール", "kooru",
        ],
        "discard": ["d", "drop", "捨て", "捨てる", "sute", "suteru", "ディスカード"],
    }
)

COLOUR_NAMES = alias_table({**COLOUR_ALIASES, "yellow": [*COLOUR_ALIASES["yellow"], "ki", "き"]})

#: "at least 12 red", "赤が12個以上", "2 wool": words around a bid that change nothing
FILLERS = PARTICLES | {"at", "least", "or", "more", "of", "x", "wool", "羊毛", "ようもう"}
VOCABULARY = [*COMMANDS, *COLOUR_NAMES]
_EXAMPLE_BID = "bid red 12 / 赤が12個"
_EXAMPLE_DISCARD = "discard red 2 blue 1 / 捨て 赤2 青1"


def parse(seat: int, text: str, state: WoolBluffState) -> Action:
    check_help(text, state)
    words = split_words(text, VOCABULARY, FILLERS)
    command, rest = command_and_rest(words, COMMANDS)
    if command is None and words and (words[0] in COLOUR_NAMES or words[0].isdigit()):
        command = "discard" if state.phase == "discard" else "bid"
    if command is None:
        raise unknown_command(text, words, COMMANDS, _legal(state, seat))
    if command in ("through", "bluff"):
        if rest:
            raise unknown_command(text, rest, COMMANDS, _legal(state, seat))
        return Through() if command == "through" else Bluff()
    if command == "bid":
        colours = [COLOUR_NAMES[w] for w in rest if w in COLOUR_NAMES]
        numbers = [int(w) for w in rest if w.isdigit()]
        if len(colours) != 1 or len(numbers) != 1 or len(rest) != 2:
            raise IllegalAction("bad_bid_syntax", text=text, colours=list(COLOURS), example=_EXAMPLE_BID)
        return Bid(colours[0], numbers[0])
    return _discard(text, rest)


def _discard(text: str, words: list[str]) -> Discard:
    """Colour then count ("red 2 blue", count 1 when left out) or count then colour ("2 red")."""
    counts = dict.fromkeys(COLOURS, 0)
    number_first = bool(words) and words[0].isdigit()
    i = 0
    while i < len(words):
        if number_first:
            count, colour_word, step = words[i], (words[i + 1] if i + 1 < len(words) else ""), 2
        else:
            has_count = i + 1 < len(words) and words[i + 1].isdigit()
            colour_word, count, step = words[i], (words[i + 1] if has_count else "1"), (2 if has_count else 1)
        colour = COLOUR_NAMES.get(colour_word)
        if colour is None or not count.isdigit():
            raise IllegalAction("bad_discard_syntax", text=text, colours=list(COLOURS), example=_EXAMPLE_DISCARD)
        counts[colour] += int(count)
        i += step
    if not any(counts.values()):
        raise IllegalAction("bad_discard_syntax", text=text, colours=list(COLOURS), example=_EXAMPLE_DISCARD)
    return Discard(wool_pairs(counts))


def _legal(state: WoolBluffState, seat: int) -> list[str]:
    """What this player may type now, so the table can tell them."""
    if seat not in state.to_act():
        return []
    if state.phase == "bid":
        return ["bid"] if state.legal_actions(seat) != [Bluff()] else ["bluff"]
    if state.phase == "respond":
        return ["through", "bluff"]
    if state.phase == "discard":
        return ["discard"]
    return []
