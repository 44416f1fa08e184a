"""Chat-text normalisation and aliases (mcbridge.core.text), used by every game's parser."""

from __future__ import annotations

import pytest

from mcbridge.core.text import alias_table, normalise, tokens


@pytest.mark.parametrize(
    ("typed", "normal"),
    [
        ("！ブラフ", "ブラフ"),  # full-width "!" from a Japanese IME
        ("ﾌﾞﾗﾌ", "ブラフ"),  # half-width katakana
        ("ＢＩＤ　ＲＥＤ　１２", "bid red 12"),  # full-width letters, digits and space
        ("  /Bid Red 12 ", "bid red 12"),
        ("!! bluff", "bluff"),
        ("#スルー", "スルー"),
        ("", ""),
        ("!", ""),
    ],
)
def test_normalise_folds_width_case_and_command_prefixes(typed: str, normal: str) -> None:
    assert normalise(typed) == normal


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("赤１２個", ["赤", "12"]),  # digits split from the colour, counter dropped
        ("!予想 赤 12", ["予想", "赤", "12"]),
        ("捨て 赤2 青", ["捨て", "赤", "2", "青"]),
        ("red12", ["red", "12"]),
        ("bid red, 12!", ["bid", "red", "12"]),  # punctuation dropped
        ("3つ", ["3"]),
        ("12 個", ["12"]),  # a counter on its own is dropped too
        ("スルー", ["スルー"]),  # the long-vowel mark belongs to the word
    ],
)
def test_tokens_split_words_and_numbers_and_drop_counters(typed: str, words: list[str]) -> None:
    assert tokens(typed) == words


def test_alias_table_maps_every_name_and_the_canonical_one_normalised() -> None:
    table = alias_table({"bluff": ["ブラフ", "Doubt", "ＬＩＡＲ"], "through": ["pass"]})
    assert table == {
        "bluff": "bluff",
        "ブラフ": "bluff",
        "doubt": "bluff",
        "liar": "bluff",
        "through": "through",
        "pass": "through",
    }


def test_alias_table_refuses_a_name_with_two_meanings() -> None:
    with pytest.raises(ValueError, match="'pass' means both 'through' and 'fold'"):
        alias_table({"through": ["pass"], "fold": ["pass"]})
