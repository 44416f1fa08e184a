"""Chat text to Bribery actions, in English and Japanese.

Accepted forms (a leading ``!`` is optional, full-width characters are fine):
``pass`` / ``pass informant`` / ``パス`` / ``パス 密告``; ``fold`` / ``フォールド`` / ``降りる``;
``raise 500 400`` / ``bet 300 informant`` / ``レイズ 500 密告``; ``call 300`` / ``コール 300``;
``allin`` / ``all in`` / ``オールイン``. Cards are named by value (100..500); an informant is
``informant``, ``i``, ``0`` or ``密告``; counters (``500を2枚``) and particles are dropped, the
command word may come first or last (``500 400 レイズ``), romaji works (``reizu 500``,
``kooru 300``, ``pasu mikkoku``, ``fourudo``, ``ooruin``). Signed or decimal numbers
(``raise 100.0``) are refused, never read as cards.

[decided here] コール and call mean CALL (match the highest count), as in poker; チャレンジ
and ブラフ mean nothing in Bribery and get the closest-command suggestion.
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
from mcbridge.games.bribery.actions import INFORMANT, AllIn, Call, Fold, Pass, Raise, sorted_cards

if TYPE_CHECKING:
    from mcbridge.games.bribery.rules import BriberyState

COMMANDS = alias_table(
    {
        "pass": ["p", "パス", "pasu"],
        "fold": ["f", "drop", "フォールド", "fourudo", "forudo", "フォルト", "降りる", "おりる", "oriru", "降り"],
        "raise": ["r", "bet", "b", "レイズ", "reizu", "ベット", "betto"],
        "call": ["c", "コール", "kooru"],
        "allin": ["all", "オールイン", "ooruin"],
    }
)
INFORMANT_WORDS = frozenset({"i", "informant", "informants", "密告", "みっこく", "mikkoku", "おまけ", "bonus"})
TWO_CARD_WORDS = frozenset({"2", "two", "cards", "card", "山札", "やまふだ", "カード"})
FILLERS = PARTICLES | {"with", "and", "chips", "カード", "札"}
PHRASES: dict[tuple[str, ...], str] = {("all", "in"): "allin"}
VOCABULARY = [*COMMANDS, *INFORMANT_WORDS, *TWO_CARD_WORDS]


def parse(seat: int, text: str, state: BriberyState) -> Action:
    check_help(text, state)
    words = split_words(text, VOCABULARY, FILLERS, PHRASES)
    command, rest = command_and_rest(words, COMMANDS)
    if command is None:
        raise unknown_command(text, words, COMMANDS, _legal(state, seat))
    if command in ("fold", "allin"):
        if rest:
            raise unknown_command(text, rest, COMMANDS, _legal(state, seat))
        return Fold() if command == "fold" else AllIn()
    if command == "pass":
        if any(w in INFORMANT_WORDS for w in rest):
            return Pass("card_and_informant")
        if all(w in TWO_CARD_WORDS for w in rest):
            return Pass("two_cards")
        raise IllegalAction("bad_pass_syntax", text=text, example="pass / pass informant")
    values = set(state.game.options["luck_values"])
    cards: list[int] = []
    for word in rest:
        if word in INFORMANT_WORDS or word == "0":
            cards.append(INFORMANT)
        elif word.isdigit() and int(word) in values:
            cards.append(int(word))
        else:
            raise IllegalAction("bad_cards_syntax", text=text, word=word, example=f"{command} 300 informant")
    if not cards:
        need = max(1, state.highest - len(state.played[seat]) + (1 if command == "raise" else 0))
        raise IllegalAction("name_cards", need=need, example=f"{command} 300 informant")
    return Raise(sorted_cards(cards)) if command == "raise" else Call(sorted_cards(cards))


#: what a refusal lists as possible now, command by action kind
LEGAL = {"pass": "Pass", "fold": "Fold", "raise": "Raise", "call": "Call", "allin": "AllIn"}


def _legal(state: BriberyState, seat: int) -> list[str]:
    return legal_commands(state, seat, LEGAL)
