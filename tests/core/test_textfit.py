"""Sign lines and chat lines that fit (mcbridge.textfit): 1.12 font widths, ellipsis, chat cap."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbridge.games.wool_bluff.actions import Revealed
from mcbridge.i18n import LANGUAGES, locale
from mcbridge.textfit import (
    CHAT_CAP,
    CHAT_LINE_PX,
    ELLIPSIS,
    SIGN_LINE_PX,
    fit_sign,
    fit_sign_line,
    split_chat,
    text_px,
)

LONG_NAMES = ["Alexander_Smith1", "WWWWWWWWWWWWWWWW", "mmmmmmmmmmmmmmmm", "yuki_tanaka_2026"]


@pytest.mark.parametrize(
    ("text", "px"),
    [("i", 2), ("l", 3), ("t", 4), (" ", 4), ("a", 6), ("W", 6), ("@", 7), ("赤", 9), ("ブ", 9), ("★", 9), ("", 0)],
)
def test_widths_follow_the_1_12_font(text: str, px: int) -> None:
    assert text_px(text) == px


def test_a_line_that_fits_is_kept_and_a_long_one_gets_an_ellipsis() -> None:
    assert fit_sign_line("Seat 1") == "Seat 1"
    assert fit_sign_line("WWWWWWWWWWWWWWWW") == "WWWWWWWWWWWWW" + ELLIPSIS  # 13 x 6 px + 9 px = 87 px
    assert fit_sign_line("羊毛ブラフの大会場へようこそ") == "羊毛ブラフの大会場" + ELLIPSIS  # by width, not by count
    assert fit_sign_line("iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii").endswith("i" + ELLIPSIS)
    assert fit_sign_line("Turn 10/10", px=4) == "T"  # never cut to nothing


@given(st.text(min_size=1, max_size=40))
def test_a_fitted_line_fits_and_keeps_the_start(text: str) -> None:
    fitted = fit_sign_line(text)
    assert fitted
    assert text_px(fitted) <= SIGN_LINE_PX or len(fitted) == 1
    assert text.startswith(fitted.removesuffix(ELLIPSIS).rstrip())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("name", LONG_NAMES)
def test_every_wool_bluff_sign_fits_with_16_character_names_and_2_digit_numbers(lang: str, name: str) -> None:
    text = locale(lang)
    keys = sorted({k.rsplit(".", 1)[0] for k in text.texts if k.startswith("wool_bluff.sign.") and k[-1].isdigit()})
    assert len(keys) > 15
    fields = dict(
        arena="羊毛ブラフ大会場アリーナ" if lang == "ja" else "The Grand Wool Arena", turn=10, turns=10,
        phase=text.t("wool_bluff.phase.respond"), predictor=name, count=99, colour=text.t("wool_bluff.colour.yellow"),
        bidder=name, caller=name, a=name, b=name, c=name, wool=99, seated=16, seats=16, seat=16, name=name,
        torches=99, note=text.t("wool_bluff.sign.out"), what=text.t("wool_bluff.sign.you_answer"), n=10, k=10,
    )
    short = {k: (v if isinstance(v, int) else str(v)[:2]) for k, v in fields.items()}
    short |= {k: fields[k] for k in ("phase", "colour", "note", "what")}  # the game's own words, whole
    for key in keys:
        lines = text.lines(key, **fields)
        assert all(text_px(line) <= SIGN_LINE_PX for line in lines), (key, lines)
        # the sign's own words and 2-digit numbers fit without an ellipsis: only long names are cut
        raw = [text.t(f"{key}.{i}", **short) for i in range(4) if text.has(f"{key}.{i}")]
        assert all(text_px(line) <= SIGN_LINE_PX for line in raw), (key, raw)


def test_locale_sign_lines_are_fitted() -> None:
    lines = locale("en").lines("wool_bluff.sign.seat", seat=1, name="WWWWWWWWWWWWWWWW", torches=12, note="")
    assert lines == ("Seat 1", "WWWWWWWWWWWWW" + ELLIPSIS, "torches 12", "")
    assert fit_sign(["a", "WWWWWWWWWWWWWWWW"]) == ("a", "WWWWWWWWWWWWW" + ELLIPSIS)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reveal_with_four_16_character_names_becomes_short_lines_one_seat_each(lang: str) -> None:
    hands = tuple((("red", 2), ("blue", 1), ("yellow", 3), ("green", 1), ("black", 12), ("white", 1)) for _ in range(4))
    message = locale(lang).event("wool_bluff", Revealed("yellow", 11, 12, hands), LONG_NAMES)
    lines = split_chat(message)
    assert all(len(line) <= CHAT_CAP and text_px(line) <= CHAT_LINE_PX for line in lines), lines
    assert " ".join(lines).replace(" ", "") == message.replace(" ", "").replace("/", "")  # nothing lost
    starts = [next(i for i, line in enumerate(lines) if line.startswith(name)) for name in LONG_NAMES[1:]]
    assert starts == sorted(starts) and len(set(starts)) == 3  # every other seat starts its own line


def test_short_messages_stay_whole_and_separators_inside_a_sentence_do_not_split() -> None:
    assert split_chat("Ben left seat 2; the seat is kept for them.") == ["Ben left seat 2; the seat is kept for them."]
    assert split_chat("") == []
    assert split_chat("a\nb") == ["a", "b"]


@given(st.text(max_size=2000))
def test_no_chat_line_is_over_the_cap_or_empty(text: str) -> None:
    lines = split_chat(text)
    assert all(line and len(line) <= CHAT_CAP and line == line.strip() for line in lines)
    assert all(text_px(line) <= CHAT_LINE_PX or len(line) == 1 for line in lines)
