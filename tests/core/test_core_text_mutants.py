"""Chat words at their edges (core/text.py): a line with no words or one word has no command
beside anything, and of two readings with as few words the one with the longest last word
wins, so the same line always reads the same way.

Written for the survivors of the core sample (bench/mutation.py core.text --sample 30 --seed 2).
"""

from __future__ import annotations

from mcbridge.core.text import alias_table, command_and_rest, split_words

TABLE = alias_table({"discard": ["捨て"], "bluff": ["ブラフ"]})


def test_no_words_or_one_word_that_is_no_command_is_no_command() -> None:
    assert command_and_rest([], TABLE) == (None, [])
    assert command_and_rest(["赤"], TABLE) == (None, ["赤"])
    assert command_and_rest(["ぶらふ"], TABLE) == ("bluff", [])


def test_of_two_readings_with_as_few_words_the_longest_last_word_wins() -> None:
    # "あかい" is あ+かい or あか+い: two words either way; the reading keeps the longer last word
    assert split_words("あかい", ["あか", "い", "あ", "かい"]) == ["あ", "かい"]
    # one word more than needed is never chosen, whichever order the vocabulary comes in
    assert split_words("あかい", ["あ", "か", "い", "かい"]) == ["あ", "かい"]
    assert split_words("あかいろ", ["あか", "いろ", "あ", "かいろ", "あかい", "ろ"]) == ["あ", "かいろ"]
