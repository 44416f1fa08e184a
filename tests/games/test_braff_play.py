"""Braff chat parsing (English and Japanese), texts in both languages, the bot and the CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcbridge import games
from mcbridge.cli import main as cli_main
from mcbridge.core import CHANCE, IllegalAction, Rng
from mcbridge.core.policies import RandomPolicy
from mcbridge.games.braff import AllIn, Braff, BraffState, Call, Discard, Doubt, Drop, FirstDealer, Raise, Stand
from mcbridge.games.braff.actions import EVENT_TYPES
from mcbridge.i18n import Locale

PACKAGE = Path(games.__file__).parent / "braff"


@pytest.fixture
def game() -> Braff:
    loaded = games.load("braff")
    assert isinstance(loaded, Braff)
    return loaded


@pytest.fixture
def betting(game: Braff) -> BraffState:
    """Seat 1 to act after the dealer (seat 0) opened C for 3."""
    state = game.new_match(["ann", "bob", "cy"], seed=5)
    assert isinstance(state, BraffState)
    state.apply(CHANCE, FirstDealer(0))
    state.apply(CHANCE, state.sample_chance(Rng(5)))
    for seat in range(3):
        state.apply(seat, Discard(()))
    state.apply(0, Raise("C", 3))
    return state


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("discard red black", Discard(("red", "black"))),
        ("!discard red 2", Discard(("red", "red"))),
        ("捨て 赤 黒", Discard(("red", "black"))),
        ("捨て赤2枚", Discard(("red", "red"))),
        ("赤と黒を交換", Discard(("red", "black"))),
        ("keep", Discard(())),
        ("交換しない", Discard(())),
        ("discard 0", Discard(())),
        ("call", Call()),
        ("ふーん", Call()),
        ("！ふーん", Call()),
        ("all in", AllIn()),
        ("オールイン", AllIn()),
        ("drop", Drop()),
        ("そんなにありません", Drop()),
        ("stand", Stand()),
        ("そのまま", Stand()),
        ("raise D 6", Raise("D", 6)),
        ("ハイエストおっぱい Ｄカップ ６", Raise("D", 6)),
        ("ハイエストおっぱいD", Raise("D", 4)),  # the stake defaults to the least allowed
        ("raise cup E", Raise("E", 5)),
        ("G", Raise("G", 7)),
        ("fake", Doubt("fake")),
        ("にせ乳だ！", Doubt("fake")),
        ("doubt not enough", Doubt("not_enough")),
        ("足りてない！", Doubt("not_enough")),
        ("ダウト 足りてない", Doubt("not_enough")),
    ],
)
def test_chat_text_in_english_and_japanese(game: Braff, betting: BraffState, text: str, action: object) -> None:
    assert game.parse_action(1, text, betting) == action


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("hello", "unknown_command"),
        ("raise", "bad_raise_syntax"),
        ("raise D E", "bad_raise_syntax"),
        ("raise M", "not_on_meter"),
        ("discard purple", "bad_discard_syntax"),
        ("doubt", "bad_doubt_syntax"),
        ("call now", "unknown_command"),
    ],
)
def test_bad_text_says_what_is_wrong(game: Braff, betting: BraffState, text: str, code: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        game.parse_action(1, text, betting)
    assert refused.value.code == code


def test_an_unknown_command_lists_what_the_player_may_do_now(game: Braff, betting: BraffState) -> None:
    with pytest.raises(IllegalAction) as refused:
        game.parse_action(1, "xyzzy", betting)
    assert refused.value.details["legal"] == ["raise", "call", "drop"]
    text = Locale("en").refusal("braff", refused.value)
    assert "!raise <cup> (stake)" in text and "!call" in text


def error_codes(package: Path) -> set[str]:
    codes = set()
    for path in package.glob("*.py"):
        codes |= set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return codes


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_event_and_refusal_has_a_text(lang: str) -> None:
    locale = Locale(lang)
    own = Locale(lang).texts  # this language only, no English fallback
    for event in EVENT_TYPES:
        assert f"braff.event.{event.__name__}" in own, event.__name__
    for code in error_codes(PACKAGE) | {"not_enough_chips", "negative_amount"}:
        assert f"braff.error.{code}" in own or f"common.error.{code}" in own, code
    commands = ("discard", "keep", "raise", "call", "allin", "drop", "stand", "doubt")
    for key in ("name", "help", *(f"command.{c}" for c in commands)):
        assert f"braff.{key}" in own, key
    for character in games.load("braff").characters:
        assert locale.has(f"braff.character.{character}")


def play_match(game: Braff, seed: int, players: int, policies: dict[int, object]) -> BraffState:
    state = game.new_match([f"p{i}" for i in range(players)], seed)
    assert isinstance(state, BraffState)
    rng = Rng(seed)
    while not state.is_over:
        seat = min(state.to_act())
        if seat == CHANCE:
            state.apply(seat, state.sample_chance(rng))
            continue
        policy = policies[seat]
        state.apply(seat, policy.choose(state.view(seat), state.legal_actions(seat), rng))
    return state


def test_the_bot_beats_random_players(game: Braff) -> None:
    bot, random = game.bot(), RandomPolicy()
    bot_chips = other_chips = 0.0
    for seed in range(12):
        state = play_match(game, seed, 3, {0: bot, 1: random, 2: random})
        bot_chips += state.chips.stacks[0]
        other_chips += (state.chips.stacks[1] + state.chips.stacks[2]) / 2
    assert bot_chips > other_chips


def test_the_bot_says_not_enough_to_a_high_claim_and_fake_to_a_low_one(game: Braff, betting: BraffState) -> None:
    bot = game.bot()
    for seat in (1, 2):
        betting.apply(seat, Call())
    betting.apply(0, Stand())
    view = betting.view(0)
    view["highest"] = {"seat": 0, "cup": "L", "ordinal": 12}
    assert bot.choose(view, betting.legal_actions(0), Rng(1)) == Doubt("not_enough")
    view["highest"] = {"seat": 0, "cup": "A", "ordinal": 1}
    assert bot.choose(view, betting.legal_actions(0), Rng(1)) == Doubt("fake")


def test_rules_cli_plays_a_readable_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["rules", "braff", "--seed", "4", "--players", "4", "--bots"]) == 0
    out = capsys.readouterr().out
    assert "braff." not in out  # every line found its text
    assert "deals first." in out and "#1 " in out and "chips" in out
    assert cli_main(["rules", "braff", "--seed", "4", "--players", "3", "--bots", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "braff." not in out and "最初の親は" in out


def test_rules_cli_lists_the_placeholders(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["rules", "braff", "--placeholders"]) == 0
    out = capsys.readouterr().out
    assert "meter = " in out and "characters[1].base" in out and "max_laps" in out
