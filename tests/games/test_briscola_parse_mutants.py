"""Briscola bugiarda chat: a command with one suit too many, or with the words of another
command, is refused with that command's own example, never read as a card or a trump.

Written for survivors of the mutation sample (bench/mutation.py briscola_bugiarda.parse): two
suits allowed where one is (`len(suits) > 2`), which played "play A coppe denari" as the ace
of coppe, and `command >= "play"`, which played "trump A coppe" as a card ("trump" sorts
after "play").
"""

from __future__ import annotations

import pytest

from mcbridge import games
from mcbridge.core import CHANCE, IllegalAction, Rng, State
from mcbridge.games.briscola_bugiarda import CallTrump, FirstDealer, Play
from mcbridge.i18n import locale


def auction() -> State:
    state = games.load("briscola_bugiarda").new_match(["a", "b", "c", "d", "e"], seed=2)
    state.apply(CHANCE, FirstDealer(4))
    state.apply(CHANCE, state.sample_chance(Rng(2)))
    return state


@pytest.mark.parametrize(
    ("text", "code", "reply"),
    [
        ("play A coppe denari", "bad_play_syntax", "Play a card as: !play A coppe (or !Ac)"),
        ("出す カップの剣のA", "bad_play_syntax", "Play a card as: !play A coppe (or !Ac)"),
        ("trump coppe denari", "bad_trump_syntax", "Name trumps as: !trump coppe"),
        ("trump A coppe", "bad_trump_syntax", "Name trumps as: !trump coppe"),
        ("briscola 7 denari", "bad_trump_syntax", "Name trumps as: !trump coppe"),
    ],
)
def test_a_command_with_words_it_does_not_take_gets_its_own_example(text: str, code: str, reply: str) -> None:
    state = auction()
    with pytest.raises(IllegalAction) as refused:
        state.game.parse_action(0, text, state)
    assert (refused.value.code, refused.value.details) == (code, {"text": text})
    assert locale("en").refusal("briscola_bugiarda", refused.value, state.players) == reply


def test_the_same_commands_with_their_own_words_are_read() -> None:
    state = auction()
    assert state.game.parse_action(0, "play A coppe", state) == Play("Ac")
    assert state.game.parse_action(0, "trump denari", state) == CallTrump("denari")
