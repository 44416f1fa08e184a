"""Player-facing text (mcbridge.i18n): fallback to English, missing keys, events in en and ja."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcbridge.core import IllegalAction
from mcbridge.games.wool_bluff.actions import (
    EVENT_TYPES,
    BidMade,
    BluffCalled,
    DiscardRequired,
    Eliminated,
    Event,
    FirstPredictorChosen,
    MatchOver,
    Penalised,
    Revealed,
    TamperReported,
    ThroughSaid,
    TurnStarted,
    WoolDealt,
    WoolDiscarded,
)
from mcbridge.i18n import Locale, locale
from mcbridge.textfit import split_chat

PLAYERS = ["alice", "bob", "carol", "dave"]

#: one of every Wool Bluff event, so every template is rendered at least once
SAMPLE_EVENTS: list[Event] = [
    FirstPredictorChosen(2),
    TurnStarted(3, 1),
    WoolDealt(0, 10),
    DiscardRequired(1, 4),
    WoolDiscarded(1, 4),
    BidMade(0, "red", 12),
    ThroughSaid(3),
    BluffCalled(1, 0, "white", 5),
    Revealed("white", 5, 3, ((("red", 10),), (), (), ())),
    TamperReported(2, (("red", -1), ("blue", 1))),
    Penalised(0, 4, 9, "under"),
    Eliminated(0, 3),
    MatchOver((1, 2), (9, 0, 0, 3)),
]


@pytest.fixture
def locales(tmp_path: Path) -> Path:
    (tmp_path / "en").mkdir()
    (tmp_path / "ja").mkdir()
    (tmp_path / "en" / "g.yaml").write_text(
        "hello: 'Hello {name}'\nonly_en: 'English only'\nnested:\n  deep: 'Deep'\n", encoding="utf-8"
    )
    (tmp_path / "ja" / "g.yaml").write_text("hello: 'こんにちは {name}'\n", encoding="utf-8")
    return tmp_path


def test_a_key_missing_in_japanese_falls_back_to_english(locales: Path) -> None:
    ja = Locale("ja", locales)
    assert ja.t("g.hello", name="ann") == "こんにちは ann"
    assert ja.t("g.only_en") == "English only"
    assert ja.t("g.nested.deep") == "Deep"
    assert ja.has("g.only_en")


def test_a_key_missing_everywhere_shows_the_key_and_a_missing_field_stays_visible(locales: Path) -> None:
    en = Locale("en", locales)
    assert en.t("g.no.such.key") == "g.no.such.key"
    assert not en.has("g.no.such.key")
    assert en.t("g.hello") == "Hello {name}"  # no crash, the gap shows in the game


def test_an_unknown_language_is_refused_with_the_choices() -> None:
    with pytest.raises(ValueError, match="unknown language 'fr'; choose one of en, ja"):
        Locale("fr")


def test_events_render_with_player_names_and_colour_names_in_both_languages() -> None:
    en, ja = locale("en"), locale("ja")
    assert en.event("wool_bluff", BidMade(0, "red", 12), PLAYERS) == "alice: at least 12 red!"
    assert ja.event("wool_bluff", BidMade(0, "red", 12), PLAYERS) == "alice「赤が12個以上！」"
    bluff = BluffCalled(2, 0, "white", 5)
    assert en.event("wool_bluff", bluff, PLAYERS) == "carol calls BLUFF on alice’s 5 white!"
    assert ja.event("wool_bluff", bluff, PLAYERS) == "carolさんがaliceさんの「白が5個以上」にブラフ！"
    assert en.event("wool_bluff", Penalised(1, 5, 7, "over"), PLAYERS) == "bob +5 torch(es), 7 in all."


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_wool_bluff_event_has_its_own_text_and_renders_completely(lang: str) -> None:
    text = locale(lang)
    assert {type(e) for e in SAMPLE_EVENTS} == set(EVENT_TYPES)
    for event in SAMPLE_EVENTS:
        assert f"wool_bluff.event.{type(event).__name__}" in text.texts
        rendered = text.event("wool_bluff", event, PLAYERS)
        assert "{" not in rendered, rendered


def test_english_and_japanese_have_the_same_keys() -> None:
    en, ja = locale("en"), locale("ja")
    for namespace in ("common.", "wool_bluff."):
        en_keys = {k for k in en.texts if k.startswith(namespace) and not k.startswith("common.items.")}
        ja_keys = {k for k in ja.texts if k.startswith(namespace)}
        assert en_keys == ja_keys, en_keys ^ ja_keys


def test_refusals_use_the_game_text_then_the_common_text_then_a_generic_one() -> None:
    en, ja = locale("en"), locale("ja")
    low = IllegalAction("bid_out_of_range", count=3, min=5, max=40)
    assert en.refusal("wool_bluff", low) == "Your count must be from 5 to 40."
    assert ja.refusal("wool_bluff", low) == "個数は5から40までです。"
    assert en.refusal("wool_bluff", IllegalAction("match_over")) == "The match is over."
    assert en.refusal("wool_bluff", IllegalAction("weird_code")) == "That is not possible right now (weird_code)."
    unknown = IllegalAction("unknown_command", text="hello", legal=["through", "bluff"])
    assert en.refusal("wool_bluff", unknown) == (
        'Unknown command "hello". You can now: !through, !bluff. Type !help for more.'
    )
    assert "!スルー、!ブラフ" in ja.refusal("wool_bluff", unknown)


def test_an_unknown_word_is_answered_with_the_closest_command_in_the_player_language() -> None:
    unknown = IllegalAction("unknown_command", text="!bluf", legal=["through", "bluff"], suggestion="bluff")
    assert locale("en").refusal("wool_bluff", unknown) == (
        'Unknown command "!bluf". Did you mean !bluff? You can now: !through, !bluff. Type !help for more.'
    )
    assert "もしかして !ブラフ ？" in locale("ja").refusal("wool_bluff", unknown)
    typed_in_japanese = IllegalAction("unknown_command", text="!ぶらぷ", legal=[], suggestion="bluff", typed="ja")
    assert "Did you mean !ブラフ?" in locale("en").refusal("wool_bluff", typed_in_japanese)  # as the player writes


def test_player_text_quoted_back_is_cut_so_a_reply_stays_short() -> None:
    long = IllegalAction("unknown_command", text="x" * 200, legal=[])
    reply = locale("en").refusal("wool_bluff", long)
    assert "x" * 23 + "…" in reply and "x" * 25 not in reply
    assert "You can now: nothing" in reply


def test_a_refusal_in_the_wrong_phase_names_the_move_in_words_and_what_to_do_now() -> None:
    wrong = IllegalAction("wrong_phase", action="Through", phase="bid")
    assert locale("en").refusal("wool_bluff", wrong).startswith("You cannot say THROUGH now. Now: bid higher")
    assert locale("ja").refusal("wool_bluff", wrong).startswith("今はスルーはできません。今: 前の予想より多い")


def test_revealed_hands_read_one_part_per_seat_and_skip_the_eliminated() -> None:
    revealed = Revealed("red", 5, 3, ((("red", 2), ("white", 1)), (), (("blue", 4),), ()))
    assert locale("en").event("wool_bluff", revealed, PLAYERS).endswith("Hands: alice: 2 red, 1 white; carol: 4 blue")
    assert locale("ja").event("wool_bluff", revealed, PLAYERS).endswith("手札 alice: 赤2、白1 / carol: 青4")


def test_prize_items_are_named_as_the_game_names_them() -> None:
    en, ja = locale("en"), locale("ja")
    assert en.t("wool_bluff.prize_given", name="Ben", count=5, item="diamond") == "Ben receives 5 diamonds."
    assert en.t("wool_bluff.prize_given", name="Ben", count=1, item="minecraft:diamond") == "Ben receives 1 diamond."
    given = ja.t("wool_bluff.prize_given", name="Ben", count=5, item="diamond")
    assert given == "Benさんにダイヤモンドを5個贈りました。"
    assert en.item("oak_log", 2) == "oak log"  # an item without a text still reads as words


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize(
    ("game", "phases"),
    [
        ("wool_bluff", ["bid", "respond", "discard", "over"]),
        ("dice_bluff", ["bid", "reroll", "over"]),
        ("bribery", ["bet", "over"]),
        ("braff", ["discard", "open", "bet", "doubt", "over"]),
        ("briscola_bugiarda", ["auction", "trump", "play", "over"]),
    ],
)
def test_help_is_three_short_lines_goal_now_and_commands_per_phase(lang: str, game: str, phases: list[str]) -> None:
    text = locale(lang)
    seen = set()
    for phase in phases:
        lines = text.help(game, phase)
        assert len(lines) == 3 and all(line and "{" not in line for line in lines), lines
        assert all(len(split_chat(line)) <= 2 for line in lines), lines  # short: two chat lines at most
        seen.add(lines[1])
    assert len(seen) == len(phases)  # every phase says its own "now"


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_code_the_core_raises_has_a_common_text_in_this_language(lang: str) -> None:
    import re

    core = Path(__file__).resolve().parents[2] / "mcbridge" / "core"
    source = "\n".join(p.read_text(encoding="utf-8") for p in core.glob("*.py"))
    codes = set(re.findall(r'IllegalAction\(\s*"([a-z_]+)"', source))
    assert {"bad_number", "not_text", "text_too_long", "unknown_command"} <= codes
    own = locale(lang).texts
    assert not sorted(c for c in codes if f"common.error.{c}" not in own)
