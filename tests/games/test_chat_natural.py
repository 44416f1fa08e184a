"""What players naturally type, per game: the game's own announcement wording, particles and
counters (が, を, 個, 枚, つ, 以上), the command word first or last, full-width forms, kana and
kanji, romaji and synonyms. Then what every parser refuses, and how."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import CHANCE, Action, IllegalAction, Rng, State
from mcbridge.games.braff import AllIn, Call, Doubt, Drop, Stand
from mcbridge.games.braff import Discard as BraffDiscard
from mcbridge.games.braff import FirstDealer as BraffFirst
from mcbridge.games.braff import Raise as BraffRaise
from mcbridge.games.bribery import INFORMANT, Fold, Pass
from mcbridge.games.bribery import AllIn as BriberyAllIn
from mcbridge.games.bribery import Call as BriberyCall
from mcbridge.games.bribery import Raise as BriberyRaise
from mcbridge.games.briscola_bugiarda import Bid as BriscolaBid
from mcbridge.games.briscola_bugiarda import CallTrump, Play, Solo
from mcbridge.games.briscola_bugiarda import FirstDealer as BriscolaFirst
from mcbridge.games.briscola_bugiarda import Pass as BriscolaPass
from mcbridge.games.dice_bluff import Bid as DiceBid
from mcbridge.games.dice_bluff import Challenge, FirstOpener, Roll, SetAside
from mcbridge.games.wool_bluff import Bid, Bluff, Discard, Through
from mcbridge.i18n import LANGUAGES, locale


def wool_bidding() -> State:
    state = games.load("wool_bluff").new_match(["a", "b", "c"], seed=1)
    rng = Rng(1)
    while CHANCE in state.to_act():
        state.apply(CHANCE, state.sample_chance(rng))
    return state


def dice_bidding() -> State:
    state = games.load("dice_bluff").new_match(["a", "b"], seed=3)
    state.apply(CHANCE, FirstOpener(0))
    state.apply(CHANCE, Roll(0, (2, 3, 3, 5, 6)))
    state.apply(CHANCE, Roll(1, (1, 1, 4, 4, 6)))
    return state


def bribery_betting() -> State:
    state = games.load("bribery").new_match(["a", "b", "c"], seed=3)
    rng = Rng(3)
    while CHANCE in state.to_act():
        state.apply(CHANCE, state.sample_chance(rng))
    return state


def braff_betting() -> State:
    state = games.load("braff").new_match(["ann", "bob", "cy"], seed=5)
    state.apply(CHANCE, BraffFirst(0))
    state.apply(CHANCE, state.sample_chance(Rng(5)))
    for seat in range(3):
        state.apply(seat, BraffDiscard(()))
    state.apply(0, BraffRaise("C", 3))
    return state


def briscola_auction() -> State:
    state = games.load("briscola_bugiarda").new_match(["a", "b", "c", "d", "e"], seed=2)
    state.apply(CHANCE, BriscolaFirst(4))
    state.apply(CHANCE, state.sample_chance(Rng(2)))
    return state


def wool(**counts: int) -> Discard:
    return Discard(tuple((c, n) for c, n in counts.items()))


WOOL: list[tuple[str, Action]] = [
    ("!赤が12個", Bid("red", 12)),  # the original rules' wording
    ("!黄が 11 個以上！", Bid("yellow", 11)),  # the game's own announcement
    ("!予想 赤 12個以上", Bid("red", 12)),
    ("!予想赤12", Bid("red", 12)),
    ("!赤12個 予想", Bid("red", 12)),  # verb last
    ("!あか12", Bid("red", 12)),
    ("!アカ 12", Bid("red", 12)),
    ("!キイロ4つ", Bid("yellow", 4)),
    ("!aka 12", Bid("red", 12)),
    ("!yosou shiro 3", Bid("white", 3)),
    ("!ＢＩＤ　ＲＥＤ　１２", Bid("red", 12)),
    ("!at least 12 red", Bid("red", 12)),
    ("!12 or more blue", Bid("blue", 12)),
    ("!red-12", Bid("red", 12)),
    ("!スルー", Through()),
    ("!するー", Through()),
    ("!suru", Through()),
    ("!believe", Through()),
    ("!ブラフ", Bluff()),
    ("!ぶらふ", Bluff()),
    ("!burafu", Bluff()),
    ("!チャレンジ", Bluff()),
    ("!コール", Bluff()),
    ("!call", Bluff()),
    ("!ダウト", Bluff()),
    ("!赤2 青1 捨て", wool(red=2, blue=1)),
    ("!赤を2個と青を1個捨てる", wool(red=2, blue=1)),
    ("!捨て 赤2 青", wool(red=2, blue=1)),
    ("!discard 2 red 1 blue", wool(red=2, blue=1)),
    ("!sute aka 2", wool(red=2)),
]


@pytest.mark.parametrize(("text", "action"), WOOL)
def test_wool_bluff_reads_natural_chat(text: str, action: Action) -> None:
    state = wool_bidding()
    assert state.game.parse_action(0, text, state) == action


DICE: list[tuple[str, Action]] = [
    ("!3が9個", DiceBid(9, 3)),  # the game's own announcement
    ("!3が9個以上", DiceBid(9, 3)),
    ("!宣言 3が9個", DiceBid(9, 3)),
    ("!3が9個 宣言", DiceBid(9, 3)),
    ("!3の目が9個", DiceBid(9, 3)),
    ("!星が3個", DiceBid(3, 6)),
    ("!スターが3個", DiceBid(3, 6)),
    ("!☆が5個", DiceBid(5, 6)),
    ("!ほし 2", DiceBid(2, 6)),
    ("!hoshi 2", DiceBid(2, 6)),
    ("!９　３", DiceBid(9, 3)),
    ("!9x3", DiceBid(9, 3)),
    ("!sengen 9 3", DiceBid(9, 3)),
    ("!チャレンジ", Challenge()),
    ("!ちゃれんじ", Challenge()),
    ("!コール", Challenge()),
    ("!ブラフ", Challenge()),
    ("!burafu", Challenge()),
    ("!call", Challenge()),
    ("!3 3 出す", SetAside((3, 3))),
    ("!set aside 3 star", SetAside((3, 6))),
]


@pytest.mark.parametrize(("text", "action"), DICE)
def test_dice_bluff_reads_natural_chat(text: str, action: Action) -> None:
    state = dice_bidding()
    assert state.game.parse_action(0, text, state) == action


BRIBERY: list[tuple[str, Action]] = [
    ("!レイズ 500 400", BriberyRaise((400, 500))),
    ("!500 400 レイズ", BriberyRaise((400, 500))),
    ("!500と密告でレイズ", BriberyRaise((INFORMANT, 500))),
    ("!reizu 500", BriberyRaise((500,))),
    ("!ＣＡＬＬ　３００", BriberyCall((300,))),
    ("!こーる 300", BriberyCall((300,))),
    ("!kooru 300", BriberyCall((300,))),
    ("!pasu mikkoku", Pass("card_and_informant")),
    ("!ぱす", Pass("two_cards")),
    ("!fourudo", Fold()),
    ("!おりる", Fold()),
    ("!ooruin", BriberyAllIn()),
    ("!all in", BriberyAllIn()),
]


@pytest.mark.parametrize(("text", "action"), BRIBERY)
def test_bribery_reads_natural_chat(text: str, action: Action) -> None:
    state = bribery_betting()
    seat = min(state.to_act())
    assert state.game.parse_action(seat, text, state) == action


BRAFF: list[tuple[str, Action]] = [
    ("!赤と黒を交換", BraffDiscard(("red", "black"))),
    ("!赤2枚 捨て", BraffDiscard(("red", "red"))),
    ("!sute aka kuro", BraffDiscard(("red", "black"))),
    ("!アカ クロ", BraffDiscard(("red", "black"))),
    ("!kiipu", BraffDiscard(())),
    ("!ハイエスト Ｄカップ ６", BraffRaise("D", 6)),
    ("!Dカップ 6 ハイエスト", BraffRaise("D", 6)),
    ("!haiesuto D 6", BraffRaise("D", 6)),
    ("!コール", Call()),
    ("!フーン", Call()),
    ("!fuun", Call()),
    ("!ooruin", AllIn()),
    ("!doroppu", Drop()),
    ("!sonomama", Stand()),
    ("!ダウト にせ乳", Doubt("fake")),
    ("!nisechichi", Doubt("fake")),
    ("!タリテナイ", Doubt("not_enough")),
]


@pytest.mark.parametrize(("text", "action"), BRAFF)
def test_braff_reads_natural_chat(text: str, action: Action) -> None:
    state = braff_betting()
    assert state.game.parse_action(1, text, state) == action


BRISCOLA: list[tuple[str, Action]] = [
    ("!ビッド Ｋ", BriscolaBid("K")),
    ("!Kをビッド", BriscolaBid("K")),
    ("!biddo K", BriscolaBid("K")),
    ("!soro", Solo()),
    ("!ぱす", BriscolaPass()),
    ("!kirifuda koppe", CallTrump("coppe")),
    ("!切り札は金貨", CallTrump("denari")),
    ("!きんか", CallTrump("denari")),
    ("!金貨の7を出す", Play("7d")),
    ("!dasu kinka 7", Play("7d")),
    ("!ＡＣ", Play("Ac")),
    ("!カップのエース", Play("Ac")),
]


@pytest.mark.parametrize(("text", "action"), BRISCOLA)
def test_briscola_reads_natural_chat(text: str, action: Action) -> None:
    state = briscola_auction()
    assert state.game.parse_action(0, text, state) == action


# -- refusals, the same in every game ----------------------------------------------------------
STATES = {
    "wool_bluff": (wool_bidding, 0),
    "dice_bluff": (dice_bidding, 0),
    "bribery": (bribery_betting, None),
    "braff": (braff_betting, 1),
    "briscola_bugiarda": (briscola_auction, 0),
}
SIGNED_OR_DECIMAL = {
    "wool_bluff": ["bid -1 3", "bid red -1", "予想 赤 +12", "赤 12.5"],
    "dice_bluff": ["bid -1 3", "bid 9 −3", "3が9.0個"],
    "bribery": ["raise 100.0", "call -300", "raise 500 +400"],
    "braff": ["discard red -1", "raise D -6", "raise D 6.5"],
    "briscola_bugiarda": ["bid -3", "play 7.0 denari"],
}


def at_play(name: str) -> tuple[State, int]:
    build, seat = STATES[name]
    state = build()
    return state, seat if seat is not None else min(state.to_act())


@pytest.mark.parametrize(
    ("name", "text"), [(name, text) for name, texts in SIGNED_OR_DECIMAL.items() for text in texts]
)
def test_signed_and_decimal_numbers_are_refused_never_reinterpreted(name: str, text: str) -> None:
    state, seat = at_play(name)
    with pytest.raises(IllegalAction) as exc:
        state.game.parse_action(seat, text, state)
    assert exc.value.code == "bad_number"
    assert exc.value.details["text"] == text


@pytest.mark.parametrize("name", STATES)
@pytest.mark.parametrize("value", [None, 12, 3.5, b"bluff", ["bluff"]])
def test_parse_action_with_a_non_string_is_a_stable_refusal(name: str, value: Any) -> None:
    state, seat = at_play(name)
    with pytest.raises(IllegalAction) as exc:
        state.game.parse_action(seat, value, state)
    assert exc.value.code == "not_text"


@pytest.mark.parametrize(
    ("name", "typed", "suggestion"),
    [
        ("wool_bluff", "!bluf", "bluff"),
        ("wool_bluff", "!ぶらぷ", "bluff"),
        ("wool_bluff", "!thorugh", "through"),
        ("dice_bluff", "!challange", "challenge"),
        ("bribery", "!fodl", "fold"),
        ("braff", "!stnad", "stand"),
        ("briscola_bugiarda", "!sollo", "solo"),
    ],
)
def test_an_unknown_word_suggests_the_closest_command(name: str, typed: str, suggestion: str) -> None:
    state, seat = at_play(name)
    with pytest.raises(IllegalAction) as exc:
        state.game.parse_action(seat, typed, state)
    assert exc.value.code == "unknown_command"
    assert exc.value.details["suggestion"] == suggestion


@pytest.mark.parametrize("name", STATES)
@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=80))
def test_any_text_is_an_action_or_a_refusal(name: str, text: str) -> None:
    state, seat = at_play(name)
    try:
        state.game.parse_action(seat, text, state)
    except IllegalAction as exc:
        assert exc.code


@pytest.mark.parametrize("name", STATES)
@pytest.mark.parametrize("typed", ["!help", "!ＨＥＬＰ", "!ヘルプ", "!？", "?"])
def test_help_in_any_form_is_answered_with_the_help_for_this_phase(name: str, typed: str) -> None:
    state, seat = at_play(name)
    with pytest.raises(IllegalAction) as exc:
        state.game.parse_action(seat, typed, state)
    assert (exc.value.code, exc.value.details) == ("help_requested", {"phase": state.phase})
    for lang in LANGUAGES:
        reply = locale(lang).refusal(name, exc.value)
        assert reply.splitlines() == locale(lang).help(name, state.phase)
        assert all(len(line) <= 256 for line in reply.splitlines())
        assert locale(lang).t(f"{name}.guide.now.{state.phase}") in reply  # says what to do now


@pytest.mark.parametrize("name", STATES)
@settings(max_examples=40, deadline=None)
@given(text=st.text(min_size=1, max_size=256))
def test_no_reply_to_anything_typed_is_longer_than_the_chat_cap(name: str, text: str) -> None:
    state, seat = at_play(name)
    try:
        state.game.parse_action(seat, "!" + text[:255], state)
    except IllegalAction as exc:
        for lang in LANGUAGES:
            reply = locale(lang).refusal(name, exc, state.players)
            assert reply and all(len(line) <= 256 for line in reply.splitlines())


def test_a_single_letter_stays_a_cup_in_braff_not_help() -> None:
    state = braff_betting()
    assert state.game.parse_action(1, "!h", state) == BraffRaise("H", state.required_stake("H"))
