"""Dice Bluff chat parsing (English and Japanese) and locale coverage."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcbridge.core import CHANCE, IllegalAction
from mcbridge.games import load
from mcbridge.games.dice_bluff import Bid, Challenge, DiceBluffState, FirstOpener, Roll, SetAside
from mcbridge.games.dice_bluff.actions import EVENT_TYPES, BidMade
from mcbridge.games.dice_bluff.parse import COMMANDS
from mcbridge.i18n import Locale, text_context


def bidding_state(ruleset: str = "bluff") -> DiceBluffState:
    game = load("dice_bluff", {"ruleset": ruleset})
    state = game.new_match(["a", "b"], seed=3)
    assert isinstance(state, DiceBluffState)
    state.apply(CHANCE, FirstOpener(0))
    state.apply(CHANCE, Roll(0, (2, 3, 3, 5, 6)))
    state.apply(CHANCE, Roll(1, (1, 1, 4, 4, 6)))
    return state


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("bid 9 3", Bid(9, 3)),
        ("!bid 9 3", Bid(9, 3)),
        ("9 3", Bid(9, 3)),
        ("9x3", Bid(9, 3)),
        ("raise 9 3s", Bid(9, 3)),
        ("bid 5 stars", Bid(5, 6)),
        ("5 ★", Bid(5, 6)),
        ("！宣言　９　３", Bid(9, 3)),
        ("3が9個", Bid(9, 3)),
        ("宣言 3が9個", Bid(9, 3)),
        ("☆が5個", Bid(5, 6)),
        ("☆5", Bid(5, 6)),
        ("星 2", Bid(2, 6)),
        ("challenge", Challenge()),
        ("liar", Challenge()),
        ("!bluff", Challenge()),
        ("チャレンジ", Challenge()),
        ("ダウト", Challenge()),
        ("aside 3 3", SetAside((3, 3))),
        ("set aside 3 star", SetAside((3, 6))),
        ("keep 5", SetAside((5,))),
        ("出す 3 3", SetAside((3, 3))),
    ],
)
def test_parse(text: str, action: object) -> None:
    state = bidding_state()
    assert state.game.parse_action(0, text, state) == action


def test_perudo_wild_words_mean_the_one() -> None:
    state = bidding_state("perudo")
    assert state.game.parse_action(0, "bid 3 pacos", state) == Bid(3, 1)
    assert state.game.parse_action(0, "パコ 3", state) == Bid(3, 1)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("bid 9", "bad_bid_syntax"),
        ("bid 9 3 4", "bad_bid_syntax"),
        ("bid nine threes", "bad_bid_syntax"),
        ("aside", "bad_aside_syntax"),
        ("hello", "unknown_command"),
    ],
)
def test_parse_errors(text: str, code: str) -> None:
    state = bidding_state()
    with pytest.raises(IllegalAction) as err:
        state.game.parse_action(0, text, state)
    assert err.value.code == code


def test_unknown_command_says_what_is_possible_now() -> None:
    state = bidding_state()
    with pytest.raises(IllegalAction) as err:
        state.game.parse_action(0, "hello", state)
    assert err.value.details["legal"] == ["bid", "aside"]
    state.apply(0, Bid(2, 3))
    with pytest.raises(IllegalAction) as err:
        state.game.parse_action(1, "hello", state)
    assert err.value.details["legal"] == ["bid", "challenge", "aside"]


def _codes_raised() -> set[str]:
    package = Path(__file__).resolve().parents[2] / "mcbridge" / "games" / "dice_bluff"
    source = "\n".join(p.read_text(encoding="utf-8") for p in package.glob("*.py"))
    return set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', source))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_event_error_and_command_has_text(lang: str) -> None:
    text = Locale(lang)
    own = set(text.texts)  # this language only, no English fallback
    missing = [f"dice_bluff.event.{e.__name__}" for e in EVENT_TYPES if f"dice_bluff.event.{e.__name__}" not in own]
    missing += [
        code for code in _codes_raised()
        if f"dice_bluff.error.{code}" not in own and f"common.error.{code}" not in own
    ]
    missing += [f"dice_bluff.command.{c}" for c in set(COMMANDS.values()) if f"dice_bluff.command.{c}" not in own]
    missing += [k for k in ("dice_bluff.name", "dice_bluff.help") if k not in own]
    for face in ("1", "2", "3", "4", "5", "6", "star", "paco"):
        if f"dice_bluff.face.{face}" not in own:
            missing.append(f"dice_bluff.face.{face}")
    assert not missing


def test_log_lines_read_well() -> None:
    state = bidding_state()
    text = Locale("en")
    names = state.players
    context = text_context(state)
    lines = [text.event("dice_bluff", e, names, **context) for e in state.apply(0, Bid(5, 6))]
    lines += [text.event("dice_bluff", e, names, **context) for e in state.apply(1, Challenge())]
    assert lines[0] == "a bids 5 × ★."
    assert lines[1] == "b challenges a’s 5 × ★!"
    assert lines[2] == "Cups up: 2 dice count for ★ (bid 5). Dice: a: 2 3 3 5 ★; b: 1 1 4 4 ★"  # the star face is ★
    assert lines[3] == "a loses 3 dice (the bid was too high); 2 left."
    assert Locale("ja").event("dice_bluff", BidMade(0, 9, "3"), names) == "a「3が9個」"
