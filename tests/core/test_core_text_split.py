"""Japanese without spaces, two-word phrases and the commands a refusal lists (core/text.py).

Written to kill mutants bench/mutation.py found surviving in core/text.py.
"""

from __future__ import annotations

from mcbridge.core import CHANCE, Rng
from mcbridge.core.legal import expand
from mcbridge.core.text import legal_commands, split_words
from mcbridge.games import load


def test_a_run_of_kana_splits_into_the_fewest_known_words() -> None:
    vocabulary = ["あ", "い", "あい"]
    assert split_words("あいあ", vocabulary) == ["あい", "あ"]
    assert split_words("いあい", vocabulary) == ["い", "あい"]
    assert split_words("ぬあ", vocabulary) == ["ぬあ"]  # one unknown piece: kept whole, as typed
    assert split_words("赤12青3", ["赤", "青"]) == ["赤", "12", "青", "3"]


def test_short_ascii_tokens_split_only_up_to_the_limit() -> None:
    vocabulary = ["a", "c", "x"]
    assert split_words("ac", vocabulary, split_ascii_up_to=2) == ["a", "c"]
    assert split_words("ac", vocabulary, split_ascii_up_to=1) == ["ac"]
    assert split_words("acx", vocabulary, split_ascii_up_to=2) == ["acx"]
    assert split_words("ac", vocabulary) == ["ac"]


def test_two_word_phrases_join_and_fillers_drop_after_joining() -> None:
    phrases = {("all", "in"): "allin"}
    assert split_words("all in", ["all", "in"], phrases=phrases) == ["allin"]
    assert split_words("go all in now", ["all", "in"], phrases=phrases) == ["go", "allin", "now"]
    assert split_words("in all", ["all", "in"], phrases=phrases) == ["in", "all"]
    assert split_words("all", ["all"], phrases=phrases) == ["all"]
    assert split_words("赤を2", ["赤"]) == ["赤", "2"]


def test_legal_commands_are_those_whose_action_kind_the_seat_may_play_in_command_order() -> None:
    game = load("wool_bluff")
    state = game.new_match(["ann", "bob"], seed=1)
    rng = Rng(1)
    while CHANCE in state.to_act():
        state.apply(CHANCE, state.sample_chance(rng))
    commands = {"bluff": "Bluff", "bid": "Bid", "through": "Through"}
    (seat,) = state.to_act()
    assert legal_commands(state, seat, commands) == ["bid"]  # the opening bid: nothing to call yet
    assert legal_commands(state, 1 - seat, commands) == []
    state.apply(seat, next(a for a in expand(state.legal_actions(seat)) if type(a).__name__ == "Bid"))
    (other,) = state.to_act()
    assert set(legal_commands(state, other, commands)) == {"bluff", "through"}
    assert legal_commands(state, other, commands) == [c for c in commands if c != "bid"]
