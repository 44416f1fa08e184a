"""Bribery chat parsing (English and Japanese) and locale coverage."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcbridge.core import CHANCE, IllegalAction, Rng
from mcbridge.games import load
from mcbridge.games.bribery import INFORMANT, AllIn, Bribery, BriberyState, Call, Fold, Pass, Raise
from mcbridge.games.bribery.actions import EVENT_TYPES, CardsShown, InfluencerWon, Passed, RoundStarted
from mcbridge.games.bribery.parse import COMMANDS
from mcbridge.i18n import Locale


def betting_state() -> BriberyState:
    game = load("bribery")
    state = game.new_match(["a", "b", "c"], seed=3)
    assert isinstance(state, BriberyState)
    rng = Rng(3)
    while CHANCE in state.to_act():
        state.apply(CHANCE, state.sample_chance(rng))
    return state


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("pass", Pass("two_cards")),
        ("!pass 2 cards", Pass("two_cards")),
        ("pass informant", Pass("card_and_informant")),
        ("パス", Pass("two_cards")),
        ("パス 密告", Pass("card_and_informant")),
        ("fold", Fold()),
        ("フォールド", Fold()),
        ("降りる", Fold()),
        ("raise 500 400", Raise((400, 500))),
        ("bet 300 informant", Raise((INFORMANT, 300))),
        ("！レイズ　５００　密告", Raise((INFORMANT, 500))),
        ("ベット 100", Raise((100,))),
        ("call 300 i", Call((INFORMANT, 300))),
        ("コール 200", Call((200,))),
        ("allin", AllIn()),
        ("all in", AllIn()),
        ("オールイン", AllIn()),
    ],
)
def test_parse(text: str, action: object) -> None:
    state = betting_state()
    assert state.game.parse_action(state.turn or 0, text, state) == action


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("raise 250", "bad_cards_syntax"),
        ("raise", "name_cards"),
        ("call", "name_cards"),
        ("pass maybe", "bad_pass_syntax"),
        ("hello", "unknown_command"),
        ("", "unknown_command"),
    ],
)
def test_parse_errors(text: str, code: str) -> None:
    state = betting_state()
    with pytest.raises(IllegalAction) as err:
        state.game.parse_action(state.turn or 0, text, state)
    assert err.value.code == code


def test_unknown_command_says_what_is_possible_now() -> None:
    state = betting_state()
    with pytest.raises(IllegalAction) as err:
        state.game.parse_action(state.turn or 0, "hello", state)
    assert err.value.details["legal"] == ["pass", "fold", "raise", "allin"]


def _codes_raised() -> set[str]:
    package = Path(__file__).resolve().parents[2] / "mcbridge" / "games" / "bribery"
    source = "\n".join(p.read_text(encoding="utf-8") for p in package.glob("*.py"))
    return set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', source))


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_event_error_command_and_card_has_text(lang: str) -> None:
    text = Locale(lang)
    own = set(text.texts)  # this language only, no English fallback
    wanted = {f"bribery.event.{e.__name__}" for e in EVENT_TYPES}
    wanted |= {f"bribery.command.{c}" for c in set(COMMANDS.values())}
    game = load("bribery")
    assert isinstance(game, Bribery)
    wanted |= {f"bribery.card.{card}" for card in game.influencers}
    wanted |= {"bribery.name", "bribery.help", "bribery.mode.high", "bribery.mode.low"}
    wanted |= {f"bribery.refill.{r}" for r in ("two_cards", "card_and_informant")}
    wanted |= {f"bribery.reason.{r}" for r in ("nobody_bet", "no_luck", "all_in_tie")}
    missing = sorted(wanted - own)
    missing += [c for c in _codes_raised() if f"bribery.error.{c}" not in own and f"common.error.{c}" not in own]
    assert not missing


def test_log_lines_read_well() -> None:
    names = ["a", "b", "c"]
    en, ja = Locale("en"), Locale("ja")
    started = RoundStarted(2, 1, "eldest_daughter", 2, 2)
    assert en.event("bribery", started, names) == (
        "Round 2: Eldest Daughter (2 VP) is up for grabs (2 card(s) at stake); b starts."
    )
    assert en.event("bribery", Passed(0, "card_and_informant"), names) == "a passes and takes 1 card and 1 informant."
    assert en.event("bribery", InfluencerWon(2, "third_daughter", 3), names) == "c wins Third Daughter (3 VP)!"
    assert ja.event("bribery", InfluencerWon(2, "third_daughter", 3), names) == "cさんが「三女」（3VP）を獲得！"
    assert "= 300" in en.event("bribery", CardsShown(0, (300,), 1, 300), names)
    shown = CardsShown(1, (300, 400), 2, 700)
    assert en.event("bribery", shown, names) == "b shows luck 300 + 400 = 700 and 2 informant(s)."
    assert ja.event("bribery", shown, names) == "bさん: 幸運 300 + 400 = 700、密告2枚。"
