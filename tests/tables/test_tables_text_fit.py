"""Every sign line and every chat line of random matches of every game, in both languages,
with 16-character names (the longest Minecraft allows): each sign line fits the 90 px of a
1.12 sign, each chat line the 256-character cap and the chat box (issue 19, items 3 and 4)."""

from __future__ import annotations

import functools
import tempfile
from pathlib import Path

import pytest
from text_fit_support import GAMES, LONG_NAMES, play

from mcbridge.tables.kit import Scene
from mcbridge.tables.table import Outbox
from mcbridge.textfit import CHAT_CAP, CHAT_LINE_PX, SIGN_LINE_PX, text_px

CASES = [(game, lang, seed) for game in GAMES for lang, seed in (("en", 3), ("ja", 8))]


@functools.cache
def match(game: str, lang: str, seed: int) -> tuple[list[str], list[str], list[str]]:
    """(every sign line of every scene, every public chat line, every private line) of one match."""
    signs: set[str] = set()
    chat: list[str] = []
    private: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for item in play(game, lang, seed, Path(tmp) / "journal.db"):
            if isinstance(item, Scene):
                signs.update(line for lines in item.signs.values() for line in lines)
            elif isinstance(item, Outbox):
                chat += item.chat
                private += [text for _, text in item.private]
    return sorted(signs), chat, private


@pytest.mark.parametrize(("game", "lang", "seed"), CASES)
def test_every_sign_line_fits_a_sign(game: str, lang: str, seed: int) -> None:
    signs, _, _ = match(game, lang, seed)
    assert any(name[:8] in line for line in signs for name in LONG_NAMES), "names reach the signs"
    too_wide = [line for line in signs if text_px(line) > SIGN_LINE_PX]
    assert not too_wide
    assert "…" not in signs, "a shortened text keeps at least its first character"


@pytest.mark.parametrize(("game", "lang", "seed"), CASES)
def test_every_chat_line_fits_the_cap_and_the_box(game: str, lang: str, seed: int) -> None:
    _, chat, private = match(game, lang, seed)
    assert len(chat) > 20 and private
    assert not [line for line in chat if len(line) > CHAT_CAP or text_px(line) > CHAT_LINE_PX]
    assert not [line for line in private if len(line) > CHAT_CAP]  # one reply a message, within the cap
    assert all(line.strip() for line in chat + private)


def test_the_reveal_comes_one_seat_a_line() -> None:
    """The Wool Bluff reveal with four 16-character names: no seat's hand is cut, and no line
    holds two seats' hands."""
    _, chat, _ = match("wool_bluff", "en", 3)
    hands = [line for line in chat if any(line.startswith(f"{name}:") for name in LONG_NAMES)]
    assert hands, "the reveal names every hand on a line of its own"
    for line in chat:
        assert sum(line.count(f"{name}:") for name in LONG_NAMES) <= 1, line
