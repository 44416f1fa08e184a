"""Chat-text normalisation and aliases (mcbridge.core.text), used by every game's parser."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbridge.core import IllegalAction
from mcbridge.core.text import (
    MAX_TEXT,
    alias_table,
    closest,
    command_and_rest,
    is_help,
    normalise,
    split_words,
    tokens,
    unknown_command,
)


@pytest.mark.parametrize(
    ("typed", "normal"),
    [
        ("！ブラフ", "ぶらふ"),  # full-width "!" from a Japanese IME; katakana folds to hiragana
        ("ﾌﾞﾗﾌ", "ぶらふ"),  # half-width katakana
        ("ＢＩＤ　ＲＥＤ　１２", "bid red 12"),  # full-width letters, digits and space
        ("  /Bid Red 12 ", "bid red 12"),
        ("!! bluff", "bluff"),
        ("#スルー", "するー"),
        ("", ""),
        ("!", ""),
    ],
)
def test_normalise_folds_width_case_kana_and_command_prefixes(typed: str, normal: str) -> None:
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
        ("スルー", ["するー"]),  # the long-vowel mark belongs to the word
        ("red-12", ["red", "12"]),  # a hyphen between words is a separator, not a sign
    ],
)
def test_tokens_split_words_and_numbers_and_drop_counters(typed: str, words: list[str]) -> None:
    assert tokens(typed) == words


@pytest.mark.parametrize("typed", ["bid -1 3", "+3", "raise 100.0", "−2", "－１", "1,5", "赤 12.5個", "bid red ᧚"])
def test_signed_and_decimal_numbers_are_refused_not_reinterpreted(typed: str) -> None:
    with pytest.raises(IllegalAction) as exc:
        tokens(typed)
    assert exc.value.code == "bad_number"
    assert exc.value.details["text"] == typed
    assert exc.value.details["number"]


@pytest.mark.parametrize("value", [None, 12, 1.5, b"bid", ["bid", "red"], {"text": "x"}])
def test_anything_but_a_string_is_refused_with_a_stable_code(value: object) -> None:
    with pytest.raises(IllegalAction) as exc:
        tokens(value)
    assert exc.value.code == "not_text"
    assert exc.value.details == {"got": type(value).__name__}


def test_text_longer_than_a_chat_line_is_refused() -> None:
    with pytest.raises(IllegalAction) as exc:
        split_words("あ" * (MAX_TEXT + 1), ["あい"])
    assert exc.value.code == "text_too_long"
    assert split_words("あい" * (MAX_TEXT // 2), ["あい"]) == ["あい"] * (MAX_TEXT // 2)


@given(st.text(max_size=MAX_TEXT))
def test_any_text_gives_words_or_a_stable_refusal(text: str) -> None:
    try:
        words = split_words(text, ["予想", "赤", "ぶらふ"])
    except IllegalAction as exc:
        assert exc.code == "bad_number"
    else:
        assert all(w and (w.isdecimal() or w.isalpha()) for w in words)
        assert all(int(w) >= 0 for w in words if w.isdigit())  # every number-looking word reads as one


def test_split_words_reads_japanese_without_spaces_and_drops_particles_and_counters() -> None:
    vocabulary = ["予想", "赤", "捨て"]
    assert split_words("予想赤12個以上", vocabulary) == ["予想", "赤", "12"]
    assert split_words("赤が12個", vocabulary) == ["赤", "12"]
    assert split_words("赤を2枚捨て", vocabulary) == ["赤", "2", "捨て"]
    assert split_words("bidred", vocabulary) == ["bidred"]  # an English typo stays as typed


def test_command_word_first_or_last() -> None:
    table = alias_table({"discard": ["捨て"]})
    assert command_and_rest(["捨て", "赤", "2"], table) == ("discard", ["赤", "2"])
    assert command_and_rest(["赤", "2", "捨て"], table) == ("discard", ["赤", "2"])
    assert command_and_rest(["赤", "2"], table) == (None, ["赤", "2"])


def test_unknown_words_get_the_closest_command() -> None:
    table = alias_table({"bluff": ["ブラフ"], "through": ["スルー"]})
    assert closest("bluf", table) == "bluff"
    assert closest(normalise("ブラプ"), table) == "bluff"
    assert closest("xyzzy", table) is None
    err = unknown_command("!bluf", ["bluf"], table, ["through", "bluff"])
    assert err.code == "unknown_command"
    assert err.details == {"text": "!bluf", "legal": ["through", "bluff"], "suggestion": "bluff", "typed": "en"}
    assert unknown_command("!ぶらぷ", ["ぶらぷ"], table, []).details["typed"] == "ja"
    assert "suggestion" not in unknown_command("!12", ["12"], table, []).details


@pytest.mark.parametrize("typed", ["!help", "!ＨＥＬＰ", "!ヘルプ", "!へるぷ", "!？", "?", "!help?", "!使い方"])
def test_help_in_every_form(typed: str) -> None:
    assert is_help(typed)


@pytest.mark.parametrize("typed", ["!bid red 12", "", "!", "helpme", 12])
def test_not_help(typed: object) -> None:
    assert not is_help(typed)


def test_alias_table_maps_every_name_and_the_canonical_one_normalised() -> None:
    table = alias_table({"bluff": ["ブラフ", "Doubt", "ＬＩＡＲ", "ぶらふ"], "through": ["pass"]})
    assert table == {
        "bluff": "bluff",
        "ぶらふ": "bluff",
        "doubt": "bluff",
        "liar": "bluff",
        "through": "through",
        "pass": "through",
    }


def test_alias_table_refuses_a_name_with_two_meanings() -> None:
    with pytest.raises(ValueError, match="'pass' means both 'through' and 'fold'"):
        alias_table({"through": ["pass"], "fold": ["pass"]})
    with pytest.raises(ValueError, match="means both"):
        alias_table({"through": ["スルー"], "fold": ["するー"]})  # the same word in two scripts
