"""Chat text to Briscola bugiarda actions, in English and Japanese.

Accepted forms (a leading ``!`` is optional, full-width characters are fine):
``bid K`` / ``ビッド K`` / ``K`` (in the auction); ``solo`` / ``ソロ``; ``pass`` / ``パス``;
``trump coppe`` / ``切り札 カップ`` / ``hearts`` (when naming trumps);
``play A coppe`` / ``Ac`` / ``A of cups`` / ``出す カップのA`` / ``金貨の7を出す`` /
``ハートのエース``.
Suits are read in Italian, English (cups, coins, swords, clubs; or the French hearts,
diamonds, spades, clubs) and Japanese.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcbridge.core import Action, IllegalAction
from mcbridge.core.text import PARTICLES, alias_table, split_words
from mcbridge.games.briscola_bugiarda.actions import Bid, CallTrump, Pass, Play, Solo
from mcbridge.games.briscola_bugiarda.cards import card

if TYPE_CHECKING:
    from mcbridge.games.briscola_bugiarda.rules import BriscolaState

# No single-letter command aliases: single letters are ranks (a, k, q, j) or suits (c, d, s, b).
COMMANDS = alias_table(
    {
        "bid": ["ビッド", "びっど", "宣言"],
        "solo": ["ソロ", "そろ"],
        "pass": ["パス", "ぱす", "no"],
        "trump": ["trumps", "briscola", "切り札", "きりふだ", "ブリスコラ", "トランプ"],
        "play": ["lead", "throw", "出す", "だす", "出", "プレイ"],
    }
)

RANK_NAMES = alias_table(
    {
        "A": ["ace", "asso", "エース", "えーす"],
        "3": ["three", "tre", "さん"],
        "K": ["king", "re", "キング", "王"],
        "Q": ["queen", "horse", "cavallo", "knight", "クイーン", "騎士", "馬"],
        "J": ["jack", "fante", "knave", "ジャック", "兵士"],
        "7": ["seven", "sette"],
        "6": ["six", "sei"],
        "5": ["five", "cinque"],
        "4": ["four", "quattro"],
        "2": ["two", "due"],
    }
)

SUIT_NAMES = alias_table(
    {
        "coppe": ["c", "cups", "cup", "hearts", "heart", "コッペ", "カップ", "聖杯", "杯", "ハート"],
        "denari": ["d", "coins", "coin", "diamonds", "diamond", "デナーリ", "金貨", "貨", "ダイヤ", "ダイヤモンド"],
        "spade": ["s", "swords", "sword", "spades", "スパーデ", "剣", "スペード"],
        "bastoni": ["b", "clubs", "club", "batons", "baton", "バストーニ", "棍棒", "棒", "クラブ"],
    }
)

FILLERS = PARTICLES | {"of", "di", "card"}
VOCABULARY = [*COMMANDS, *RANK_NAMES, *SUIT_NAMES]


def parse(seat: int, text: str, state: BriscolaState) -> Action:
    words = split_words(text, VOCABULARY, FILLERS, split_ascii_up_to=2)
    if not words:
        raise _unknown(text, state, seat)
    command = COMMANDS.get(words[0])
    rest = words[1:] if command else words
    if command is None and len(words) > 1 and words[-1] in COMMANDS:  # Japanese: "金貨の7を出す"
        command, rest = COMMANDS[words[-1]], words[:-1]
    if command in ("solo", "pass"):
        if rest:
            raise _unknown(text, state, seat)
        return Solo() if command == "solo" else Pass()
    unknown = [w for w in rest if w not in RANK_NAMES and w not in SUIT_NAMES]
    ranks = [RANK_NAMES[w] for w in rest if w in RANK_NAMES]
    suits = [SUIT_NAMES[w] for w in rest if w in SUIT_NAMES]
    if unknown or len(ranks) > 1 or len(suits) > 1 or not rest:
        if command is None:
            raise _unknown(text, state, seat)
        raise IllegalAction(f"bad_{command}_syntax", text=text)
    if command is None:
        command = "play" if ranks and suits else "trump" if suits else "bid"
    if command == "bid" and ranks and not suits:
        return Bid(ranks[0])
    if command == "trump" and suits and not ranks:
        return CallTrump(suits[0])
    if command == "play" and ranks and suits:
        return Play(card(ranks[0], suits[0]))
    raise IllegalAction(f"bad_{command}_syntax", text=text)


def _unknown(text: str, state: BriscolaState, seat: int) -> IllegalAction:
    """Say what this player may type now, so the table can tell them."""
    legal: list[str] = []
    if seat in state.to_act():
        kinds = {type(a).__name__ for a in state.legal_actions(seat)}
        names = (("bid", "Bid"), ("solo", "Solo"), ("pass", "Pass"), ("trump", "CallTrump"), ("play", "Play"))
        legal = [command for command, action in names if action in kinds]
    return IllegalAction("unknown_command", text=text, legal=legal)
