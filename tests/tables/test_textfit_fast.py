"""The fast paths of sign text say exactly what the slow ones said.

`textfit.text_px` measures without a Python loop per character (a byte table for ASCII, a
bounded per-character memo otherwise), and `Locale.t` formats from templates parsed once
instead of through `string.Formatter` on every call. Both are on every render's path, so
both are checked against the plain definitions they replace: the sum of `char_px`, and
`Formatter().vformat` with the missing-field rule ("{name}" stays in the text).
"""

from __future__ import annotations

import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge import i18n, textfit
from mcbridge.i18n import _Lenient, locale
from mcbridge.textfit import char_px, fit_sign_line, text_px

#: ASCII (printable and control), kana, kanji, combining marks, symbols, astral characters
CHARS = st.one_of(
    st.characters(max_codepoint=127),
    st.sampled_from("ぁあアン羊毛★☆…é\u0301\u0300\u200b\U0001f600"),
    st.characters(),
)


@settings(max_examples=300)
@given(st.text(CHARS, max_size=40))
def test_text_px_is_the_sum_of_char_px(text: str) -> None:
    assert text_px(text) == sum(char_px(c) for c in text)


@settings(max_examples=100)
@given(st.text(CHARS, max_size=40))
def test_text_px_is_the_same_once_its_memo_is_full(text: str) -> None:
    saved, saved_max = dict(textfit._SEEN_PX), textfit._SEEN_MAX
    try:
        textfit._SEEN_PX.clear()
        textfit._SEEN_MAX = 0  # nothing more is remembered: measured each time
        assert text_px(text) == sum(char_px(c) for c in text)
        assert not textfit._SEEN_PX
    finally:
        textfit._SEEN_PX.clear()
        textfit._SEEN_PX.update(saved)
        textfit._SEEN_MAX = saved_max


def test_widths_of_known_glyphs() -> None:
    assert text_px("Wii!") == 6 + 2 + 2 + 2
    assert text_px("\x07a") == 6  # a control character takes no room
    assert text_px("羊毛") == 18 and text_px("e\u0301") == 6  # a combining accent takes none
    assert fit_sign_line("Alexander_Smith1_long_name", 60) == fit_sign_line("Alexander_Smith1_long_name", 60)


def formatter(template: str, fields: dict[str, Any]) -> str:
    return string.Formatter().vformat(template, (), _Lenient(fields))


def outcome(make: Any) -> tuple[str, Any]:
    try:
        return "ok", make()
    except Exception as exc:  # the very error the formatter raises, by type
        return "error", type(exc)


PIECE = st.one_of(
    st.text(st.sampled_from("ab :{}!-"), max_size=4),
    st.sampled_from(["{name}", "{n:+d}", "{n:>4}", "{name!r}", "{missing}", "{missing:+d}", "{0}", "{}",
                     "{a.b}", "{a[0]}", "{n:{w}}", "{{", "}}", "{name!x}", "{名前}", "{", "}"]),
)


@settings(max_examples=400)
@given(st.lists(PIECE, max_size=6), st.sampled_from([{}, {"name": "Aki", "n": 3, "w": 5, "名前": "ちえ"}]))
def test_a_compiled_template_formats_as_the_formatter(pieces: list[str], fields: dict[str, Any]) -> None:
    template = "".join(pieces)
    text = i18n.Locale.__new__(i18n.Locale)
    text.lang, text.texts, text.fallback = "en", {"k": template}, {}
    assert outcome(lambda: text.t("k", **fields)) == outcome(lambda: formatter(template, dict(fields)))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_shipped_text_formats_as_before(lang: str) -> None:
    """Every locale text, with every field it names given and with none given."""
    texts = locale(lang)
    for key, template in texts.texts.items():
        names = [name for _, name, _, _ in string.Formatter().parse(template) if name]
        given_fields = {name: 7 for name in names}
        for fields in (given_fields, {}):
            assert outcome(lambda f=fields, k=key: texts.t(k, **f)) == outcome(
                lambda f=fields, t=template: formatter(t, dict(f))
            ), key
