"""Chat text to Briscola bugiarda actions, in English and Japanese.

Accepted forms (a leading ``!`` is optional, full-width characters are fine):
``bid K`` / ``ビッド K`` / ``K`` (in the auction); ``solo`` / ``ソロ``; ``pass`` / ``パス``;
``trump coppe`` / ``切り札 カップ`` / ``hearts`` (when naming trumps);
``play A coppe`` / ``Ac`` / ``A of cups`` / ``出す カップのA`` / ``金貨の7を出す`` /
``ハートのエース``.
Suits are read in Italian, English (cups, coins, swords, clubs; or the French hearts,
diamonds, spades, clubs) and Japanese; katakana or hiragana and romaji (``biddo K``,
``soro``, ``pasu``, ``kirifuda koppe``, ``dasu kinka 7``) are fine.

[decided here] Briscola has no contest word: チャレンジ, コール and ブラフ get the
closest-command suggestion, not an action.
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
from mcbridge.games.briscola_bugiarda.actions import Bid, CallTrump, Pass, Play, Solo
from mcbridge.games.briscola_bugiarda.cards import card

if TYPE_CHECKING:
    from mcbridge.games.briscola_bugiarda.rules import BriscolaState

# No single-letter command aliases: single letters are ranks (a, k, q, j) or suits (c, d, s, b).
COMMANDS = alias_table(
    {
        "bid": ["ビッド", "biddo", "宣言", "sengen"],
        "solo": ["ソロ", "soro"],
        "pass": ["パス", "pasu", "no"],
        "trump": ["trumps", "briscola", "切り札", "きりふだ", "kirifuda", "ブリスコラ", "burisukora", "トランプ"],
        "play": ["lead", "throw", "出す", "だす", "dasu", "出", "プレイ", "purei"],
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
        "coppe": ["c", "cups", "cup", "hearts", "heart", "コッペ", "koppe", "カップ", "kappu", "聖杯", "杯", "ハート"],
        "denari": [
            "d", "coins", "coin", "diamonds", "diamond", "デナーリ", "金貨", "きんか", "kinka", "貨", "ダイヤ",
            "ダイヤモンド", "daiya",
        ],
        "spade": ["s", "swords", "sword", "spades", "スパーデ", "剣", "けん", "ken", "スペード", "supeedo"],
        "bastoni": [
            "b", "clubs", "club", "batons", "baton", "バストーニ", "棍棒", "こんぼう", "konbou", "棒",
            "クラブ", "kurabu",
        ],
    }
)

FILLERS = PARTICLES | {"of", "di", "card"}
VOCABULARY = [*COMMANDS, *RANK_NAMES, *SUIT_NAMES]


def parse(seat: int, text: str, state: BriscolaState) -> Action:
    check_help(text, state)
    words = split_words(text, VOCABULARY, FILLERS, split_ascii_up_to=2)
    command, rest = command_and_rest(words, COMMANDS)
    if not words:
        raise unknown_command(text, words, COMMANDS, _legal(state, seat))
    if command in ("solo", "pass"):
        if rest:
            raise unknown_command(text, rest, COMMANDS, _legal(state, seat))
        return Solo() if command == "solo" else Pass()
    unknown = [w for w in rest if w not in RANK_NAMES and w not in SUIT_NAMES]
    ranks = [RANK_NAMES[w] for w in rest if w in RANK_NAMES]
    suits = [SUIT_NAMES[w] for w in rest if w in SUIT_NAMES]
    if unknown or len(ranks) > 1 or len(suits) > 1 or not rest:
        if command is None:
            raise unknown_command(text, unknown or rest, COMMANDS, _legal(state, seat))
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


#: what a refusal lists as possible now, command by action kind
LEGAL = {"bid": "Bid", "solo": "Solo", "pass": "Pass", "trump": "CallTrump", "play": "Play"}


def _legal(state: BriscolaState, seat: int) -> list[str]:
    return legal_commands(state, seat, LEGAL)
