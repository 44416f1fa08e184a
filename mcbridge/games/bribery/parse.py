"""Chat text to Bribery actions, in English and Japanese.

Accepted forms (a leading ``!`` is optional, full-width characters are fine):
``pass`` / ``pass informant`` / ``パス`` / ``パス 密告``; ``fold`` / ``フォールド`` / ``降りる``;
``raise 500 400`` / ``bet 300 informant`` / ``レイズ 500 密告``; ``call 300`` / ``コール 300``;
``allin`` / ``all in`` / ``オールイン``. Cards are named by value (100..500); an informant is
``informant``, ``i``, ``0`` or ``密告``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcbridge.core import Action, IllegalAction
from mcbridge.core.text import alias_table, tokens
from mcbridge.games.bribery.actions import INFORMANT, AllIn, Call, Fold, Pass, Raise, sorted_cards

if TYPE_CHECKING:
    from mcbridge.games.bribery.rules import BriberyState

COMMANDS = alias_table(
    {
        "pass": ["p", "パス", "ぱす"],
        "fold": ["f", "drop", "フォールド", "ふぉーるど", "フォルト", "降りる", "おりる", "降り"],
        "raise": ["r", "bet", "b", "レイズ", "れいず", "ベット", "べっと"],
        "call": ["c", "コール", "こーる"],
        "allin": ["all", "オールイン", "おーるいん"],
    }
)
INFORMANT_WORDS = frozenset({"i", "informant", "informants", "密告", "みっこく", "ミッコク", "おまけ", "bonus"})
TWO_CARD_WORDS = frozenset({"2", "two", "cards", "card", "山札", "やまふだ"})


def parse(seat: int, text: str, state: BriberyState) -> Action:
    words = tokens(text)
    command = COMMANDS.get(words[0]) if words else None
    if command is None:
        raise _unknown(text, state, seat)
    rest = words[1:]
    if command == "fold":
        return Fold()
    if command == "allin":
        return AllIn()
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


def _unknown(text: str, state: BriberyState, seat: int) -> IllegalAction:
    """Say what this player may type now, so the table can tell them."""
    kinds = {type(a).__name__.lower() for a in state.legal_actions(seat)}
    legal = [c for c in ("pass", "fold", "raise", "call", "allin") if c in kinds]
    return IllegalAction("unknown_command", text=text, legal=legal)
