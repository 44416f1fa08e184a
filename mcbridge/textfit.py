"""Text that fits where players read it: sign lines and chat lines, measured in pixels.

Minecraft 1.12 draws signs and chat with its bitmap font: ASCII glyphs have their own
widths (most letters 5 px plus 1 px spacing; `i`, `l`, `.`, `!` narrower; `@`, `~` wider),
and characters outside the ASCII page (kana, kanji, ★, …) come from the unicode font, about
9 px each. A sign line is 90 px wide and the client silently drops what does not fit; a
chat message is capped at 256 characters and the chat box is 320 px wide (about 55 narrow
characters), wrapping longer messages wherever it likes.

So: `fit_sign_line` shortens a line with an ellipsis (never to nothing), and `split_chat`
cuts a long message into lines at the places a reader would (between seats, after a
sentence, after a comma, at a space) so no message is over the cap.
[decided here] Widths are measured conservatively (an unknown non-ASCII character counts
as 9 px), so a fitted line may be a little shorter than the client could show, never longer.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable

SIGN_LINE_PX = 90
CHAT_CAP = 256
CHAT_LINE_PX = 320
ELLIPSIS = "…"
WIDE_PX = 9
_DEFAULT_PX = 6
#: advance (glyph + 1 px spacing) of the ASCII glyphs that are not 6 px wide
_ASCII_PX = {
    **dict.fromkeys("!',.:;i|", 2),
    **dict.fromkeys("`l", 3),
    **dict.fromkeys(" It[]", 4),
    **dict.fromkeys("\"()*<>fk{}", 5),
    **dict.fromkeys("@~", 7),
}
#: non-ASCII glyphs the controller itself writes that are not wide: the comma's look-alike
#: (`sanitize.SIGN_COMMA`) on signs
_NARROW_PX = {"\u201a": 2}
#: where a chat line may end, best first: between parts (seats), after a sentence, after a
#: comma or colon, at a space
_BREAKS: tuple[tuple[str, ...], ...] = (
    ("; ", " / ", " | "),
    (". ", "! ", "? ", "。", "！", "？"),
    (", ", "、", ": ", "）"),
    (" ",),
)


def char_px(char: str) -> int:
    """Pixels one character takes in the 1.12 font, spacing included."""
    if char.isascii():
        return _ASCII_PX.get(char, _DEFAULT_PX) if char.isprintable() else 0
    if unicodedata.combining(char):
        return 0
    return _NARROW_PX.get(char, WIDE_PX)


#: `char_px` of every ASCII code as a byte, for `bytes.translate`: an ASCII text's width is
#: then a sum over its translated bytes, a loop in C (most sign and chat text is ASCII)
_ASCII_WIDTHS = bytes(char_px(chr(code)) if code < 128 else 0 for code in range(256))
#: `char_px` of the non-ASCII characters met so far (kana, kanji, ★): the same few again and
#: again. Bounded, since players choose what they type: past the bound, measured each time.
_SEEN_PX: dict[str, int] = {}
_SEEN_MAX = 16384


def text_px(text: str) -> int:
    """Pixels `text` takes in the 1.12 font: the sum of its characters' `char_px`.

    [decided here] Measured without a Python loop per character: a render measures every
    line of every sign it builds, and the per-character loop was most of a render's cost."""
    if text.isascii():
        return sum(text.encode("ascii").translate(_ASCII_WIDTHS))
    try:
        return sum(map(_SEEN_PX.__getitem__, text))
    except KeyError:
        if len(_SEEN_PX) < _SEEN_MAX:
            _SEEN_PX.update((c, char_px(c)) for c in set(text) if c not in _SEEN_PX)
        return sum(map(char_px, text))


#: [decided here] Distinct (line, width) pairs the renders ask to fit, measured with the four
#: hand-table kits at 50 tables of random play (English, one process): about 10k; the bound
#: holds that working set with room, a few MB at most.
FIT_CACHE = 32768


@functools.lru_cache(maxsize=FIT_CACHE)  # every sign of every table, again after each action: the same lines
def fit_sign_line(text: str, px: int = SIGN_LINE_PX) -> str:
    """`text` if it fits `px`, else its longest start that fits with "…" after it
    ("Alexander_Smith1" -> "Alexander_Sm…"). Never empty when `text` is not: at worst the
    first character alone."""
    if text_px(text) <= px:
        return text
    budget = px - text_px(ELLIPSIS)
    used = 0
    end = 0
    for end, char in enumerate(text):  # noqa: B007 - `end` is the first character that does not fit
        if used + char_px(char) > budget:
            break
        used += char_px(char)
    kept = text[:end].rstrip()
    return kept + ELLIPSIS if kept else text[:1]


def fit_sign(lines: Iterable[str], px: int = SIGN_LINE_PX) -> tuple[str, ...]:
    return tuple(fit_sign_line(line, px) for line in lines)


def split_chat(text: str, line_px: int = CHAT_LINE_PX, cap: int = CHAT_CAP) -> list[str]:
    """One chat message as lines that each fit the chat box (`line_px`) and the cap.

    A message that does not fit is first cut into its parts (a reveal: one part per seat,
    at "; " or " / "), each on its own line so a reader finds every seat at a line start;
    a part too long for one line is wrapped at the best break a reader would expect. No line is empty; nothing
    is lost but the spaces at the cuts. Newlines in `text` start a new line.
    """
    lines: list[str] = []
    for paragraph in text.splitlines():
        paragraph = " ".join(paragraph.split())
        if _fits(paragraph, line_px, cap):
            lines += [paragraph] if paragraph else []
            continue
        for part in _parts(paragraph, _BREAKS[0]):  # [decided here] one part (seat) a line, never two
            lines += [part] if _fits(part, line_px, cap) else _wrap(part, line_px, cap)
    return lines


def _fits(text: str, line_px: int, cap: int) -> bool:
    return text_px(text) <= line_px and len(text) <= cap


def _parts(text: str, marks: tuple[str, ...]) -> list[str]:
    """`text` cut after every mark ("a; b / c" -> ["a;", "b /", "c"])."""
    parts, start = [], 0
    for i in range(len(text)):
        for mark in marks:
            if text.startswith(mark, i) and i + len(mark) > start:
                parts.append(text[start : i + len(mark)].strip())
                start = i + len(mark)
                break
    parts.append(text[start:].strip())
    return [p.removesuffix("/").removesuffix("|").rstrip() for p in parts if p.strip("/| ")]


def _wrap(text: str, line_px: int, cap: int) -> list[str]:
    out = []
    while not _fits(text, line_px, cap):
        cut = _best_cut(text, line_px, cap)
        out.append(text[:cut].rstrip())
        text = text[cut:].lstrip()
    return [*out, text] if text else out


def _best_cut(text: str, line_px: int, cap: int) -> int:
    """Where to end the next line: the latest break of the best kind that keeps the line
    at least 60 % full; else as much as fits (a long word or a Japanese sentence)."""
    limit = 0
    used = 0
    for limit, char in enumerate(text[:cap]):  # noqa: B007
        if used + char_px(char) > line_px:
            break
        used += char_px(char)
    else:
        limit = min(len(text), cap)
    limit = max(limit, 1)
    for marks in _BREAKS[1:]:
        cut = max((i + len(m) for m in marks if (i := text.rfind(m, 0, limit)) >= 0), default=0)
        if cut >= limit * 0.6:
            return cut
    return limit
