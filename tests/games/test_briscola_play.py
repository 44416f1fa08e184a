"""Briscola bugiarda chat parsing (English and Japanese), texts, the bot and the CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mcbridge import games
from mcbridge.cli import main as cli_main
from mcbridge.core import CHANCE, IllegalAction, Rng
from mcbridge.core.policies import RandomPolicy
from mcbridge.games.briscola_bugiarda import (
    Bid,
    BriscolaBugiarda,
    BriscolaState,
    CallTrump,
    FirstDealer,
    Pass,
    Play,
    Solo,
)
from mcbridge.games.briscola_bugiarda.actions import EVENT_TYPES
from mcbridge.i18n import Locale

PACKAGE = Path(games.__file__).parent / "briscola_bugiarda"


@pytest.fixture
def game() -> BriscolaBugiarda:
    loaded = games.load("briscola_bugiarda")
    assert isinstance(loaded, BriscolaBugiarda)
    return loaded


@pytest.fixture
def auction(game: BriscolaBugiarda) -> BriscolaState:
    state = game.new_match(["a", "b", "c", "d", "e"], seed=2)
    assert isinstance(state, BriscolaState)
    state.apply(CHANCE, FirstDealer(4))
    state.apply(CHANCE, state.sample_chance(Rng(2)))
    return state


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("bid K", Bid("K")),
        ("!bid 3", Bid("3")),
        ("ビッド Ｋ", Bid("K")),
        ("J", Bid("J")),
        ("bid king", Bid("K")),
        ("solo", Solo()),
        ("ソロ", Solo()),
        ("pass", Pass()),
        ("パス", Pass()),
        ("trump coppe", CallTrump("coppe")),
        ("切り札 カップ", CallTrump("coppe")),
        ("briscola denari", CallTrump("denari")),
        ("hearts", CallTrump("coppe")),
        ("切り札は剣", CallTrump("spade")),
        ("play A coppe", Play("Ac")),
        ("Ac", Play("Ac")),
        ("3d", Play("3d")),
        ("!play ace of cups", Play("Ac")),
        ("出す カップのA", Play("Ac")),
        ("ハートのエース", Play("Ac")),
        ("金貨の7を出す", Play("7d")),
        ("play queen of clubs", Play("Qb")),
        ("Ks", Play("Ks")),
    ],
)
def test_chat_text_in_english_and_japanese(
    game: BriscolaBugiarda, auction: BriscolaState, text: str, action: object
) -> None:
    assert game.parse_action(0, text, auction) == action


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("hello", "unknown_command"),
        ("bid", "bad_bid_syntax"),
        ("bid K Q", "bad_bid_syntax"),
        ("trump A", "bad_trump_syntax"),
        ("play coppe", "bad_play_syntax"),
        ("solo now", "unknown_command"),
    ],
)
def test_bad_text_says_what_is_wrong(game: BriscolaBugiarda, auction: BriscolaState, text: str, code: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        game.parse_action(0, text, auction)
    assert refused.value.code == code


def test_an_unknown_command_lists_what_the_player_may_do_now(game: BriscolaBugiarda, auction: BriscolaState) -> None:
    with pytest.raises(IllegalAction) as refused:
        game.parse_action(0, "xyzzy", auction)
    assert refused.value.details["legal"] == ["bid", "solo", "pass"]
    assert "!bid <rank>" in Locale("en").refusal("briscola_bugiarda", refused.value)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_event_and_refusal_has_a_text(lang: str) -> None:
    own = Locale(lang).texts  # this language only, no English fallback
    for event in EVENT_TYPES:
        assert f"briscola_bugiarda.event.{event.__name__}" in own, event.__name__
    codes = set()
    for path in PACKAGE.glob("*.py"):
        codes |= set(re.findall(r'IllegalAction\(\s*f?"([a-z_{}]+)"', path.read_text(encoding="utf-8")))
    codes = {c for c in codes if "{" not in c} | {f"bad_{c}_syntax" for c in ("bid", "trump", "play")}
    for code in codes:
        assert f"briscola_bugiarda.error.{code}" in own or f"common.error.{code}" in own, code
    for key in ("name", "help", *(f"command.{c}" for c in ("bid", "solo", "pass", "trump", "play"))):
        assert f"briscola_bugiarda.{key}" in own, key
    for suit in ("coppe", "denari", "spade", "bastoni"):
        assert f"briscola_bugiarda.suit.{suit}" in own


def test_the_bot_beats_random_players(game: BriscolaBugiarda) -> None:
    bot, random = game.bot(), RandomPolicy()
    bot_chips = 0
    for seed in range(8):
        state = game.new_match(["a", "b", "c", "d", "e"], seed)
        assert isinstance(state, BriscolaState)
        rng = Rng(seed)
        bots = {seed % 5, (seed + 2) % 5}
        while not state.is_over:
            seat = min(state.to_act())
            if seat == CHANCE:
                state.apply(seat, state.sample_chance(rng))
                continue
            policy = bot if seat in bots else random
            state.apply(seat, policy.choose(state.view(seat), state.legal_actions(seat), rng))
        bot_chips += sum(state.chips[s] for s in bots)
    assert bot_chips > 0  # zero-sum: the random players paid for it


def test_the_bot_loads_points_on_its_partners_safe_trick(game: BriscolaBugiarda, auction: BriscolaState) -> None:
    bot = game.bot()
    view = auction.view(3)
    view.update(
        phase="play", declarer=0, role="partner", trump="coppe", solo=False, partner=None,
        trick=[[0, "Ac"], [1, "2d"], [2, "4d"]],
        hand=["Ad", "2s", "Kc"],
    )
    assert bot.choose(view, [Play(c) for c in view["hand"]], Rng(1)) == Play("Ad")
    view.update(role="defender", hand=["2c", "4s", "Ab"], trick=[[0, "Ad"], [1, "3d"]])
    # the declarer is winning 21 points: take it with the cheapest trump
    assert bot.choose(view, [Play(c) for c in view["hand"]], Rng(1)) == Play("2c")


def test_rules_cli_plays_a_readable_match(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["rules", "briscola_bugiarda", "--seed", "4", "--players", "5", "--bots"]) == 0
    out = capsys.readouterr().out
    assert "briscola_bugiarda." not in out  # every line found its text
    assert "wins the auction" in out or "bids solo" in out
    assert "#1 " in out and "chips" in out
    assert cli_main(["rules", "briscola_bugiarda", "--seed", "4", "--players", "5", "--bots", "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "briscola_bugiarda." not in out and "ディーラー" in out


def test_rules_cli_refuses_other_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["rules", "briscola_bugiarda", "--players", "4", "--bots"]) == 2
    assert "exactly 5 players" in capsys.readouterr().out
