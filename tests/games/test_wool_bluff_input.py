"""Wool Bluff input: refused actions leave the state unchanged; chat text in English and Japanese."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from test_wool_bluff_helpers import GAME, deal, dealt, discard, new_match, play, refused, wool

from mcbridge.core import CHANCE, Action, IllegalAction
from mcbridge.games import CHANCE as GAMES_CHANCE
from mcbridge.games import IllegalAction as GamesIllegalAction
from mcbridge.games.wool_bluff import Bid, Bluff, Deal, Discard, FirstPredictor, Reveal, Through, WoolBluffState

A, B, C = 0, 1, 2


def bidding() -> WoolBluffState:
    """3 players, 30 wool; A bid red 5, everyone said THROUGH, so B must raise."""
    state = new_match(3)
    deal(state, [wool(red=3), wool(red=3), wool(red=3)], first=A)
    play(state, (A, Bid("red", 5)), (B, Through()), (C, Through()))
    return state


def responding() -> WoolBluffState:
    state = new_match(3)
    deal(state, [wool(), wool(), wool()], first=A)
    play(state, (A, Bid("red", 5)))
    return state


def test_the_contract_names_are_importable_from_mcbridge_games() -> None:
    assert GAMES_CHANCE == CHANCE == -1
    assert GamesIllegalAction is IllegalAction


@pytest.mark.parametrize(
    ("seat", "action", "code", "details"),
    [
        (C, Bid("red", 6), "not_your_turn", {"seat": C, "to_act": [B]}),
        (CHANCE, Reveal(), "not_your_turn", {"seat": CHANCE, "to_act": [B]}),
        (B, Through(), "wrong_phase", {"action": "Through", "phase": "bid"}),
        (B, discard(red=1), "wrong_phase", {"action": "Discard", "phase": "bid"}),
        (B, Bluff(), "must_raise", {"min": 6, "max": 30}),
        (B, Bid("red", 5), "bid_out_of_range", {"count": 5, "min": 6, "max": 30}),
        (B, Bid("white", 31), "bid_out_of_range", {"count": 31, "min": 6, "max": 30}),
        (B, Bid("red", 6.0), "bid_out_of_range", {"count": 6.0, "min": 6, "max": 30}),  # type: ignore[arg-type]
        (B, Bid("purple", 6), "unknown_colour", {"colour": "purple"}),
    ],
)
def test_refused_bids_name_a_stable_code_and_change_nothing(
    seat: int, action: Action, code: str, details: dict[str, object]
) -> None:
    err = refused(bidding(), seat, action, code)
    assert details.items() <= err.details.items()


def test_a_first_bid_of_zero_is_too_low() -> None:
    state = new_match(2)
    deal(state, [wool(), wool()], first=A)
    err = refused(state, A, Bid("red", 0), "bid_out_of_range")
    assert err.details == {"count": 0, "min": 1, "max": 20}
    refused(state, A, Bid("red", True), "bid_out_of_range")  # a JSON true is not the count 1


def test_refused_responses_and_chance_actions_change_nothing() -> None:
    state = responding()
    refused(state, B, Bid("red", 6), "wrong_phase")  # responders answer, they do not bid
    refused(state, A, Through(), "not_your_turn")  # the bidder does not answer
    fresh = new_match(3)
    refused(fresh, A, Bid("red", 1), "not_your_turn")
    refused(fresh, CHANCE, FirstPredictor(3), "no_such_seat")
    refused(fresh, CHANCE, dealt(0, wool()), "wrong_phase")
    fresh.apply(CHANCE, FirstPredictor(1))
    refused(fresh, CHANCE, dealt(1, wool()), "deal_out_of_order")
    err = refused(fresh, CHANCE, dealt(0, wool(size=9)), "deal_wrong_size")
    assert err.details == {"count": 9, "hand_size": 10}
    refused(fresh, CHANCE, Reveal(), "wrong_phase")


def test_an_action_of_another_game_is_refused() -> None:
    @dataclass(frozen=True)
    class Fold(Action):
        pass

    refused(bidding(), B, Fold(), "unknown_action")


def test_wool_actions_take_a_colour_to_count_mapping_as_the_issue_writes_them() -> None:
    # the field is typed as canonical pairs; a mapping is accepted and canonicalised
    assert Deal(2, {"white": 1, "red": 9}) == Deal(2, (("red", 9), ("white", 1)))  # type: ignore[arg-type]
    assert Discard({"blue": 1, "red": 0}).wool == (("blue", 1),)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown wool colour 'purple'"):
        Discard({"purple": 1})  # type: ignore[arg-type]


def test_actions_round_trip_through_json_and_bad_json_actions_are_refused() -> None:
    for action in (
        Bid("white", 7),
        Through(),
        Bluff(),
        discard(red=2, blue=1),
        dealt(2, wool(red=3)),
        FirstPredictor(1),
        Reveal(((1, (("red", -1),)),)),
    ):
        assert GAME.action_from_json(action.to_json()) == action
    with pytest.raises(IllegalAction) as exc:
        GAME.action_from_json({"type": "Fold"})
    assert exc.value.code == "unknown_action"
    for bad in (
        {"type": "Bid", "colour": "red"},
        {"type": "Discard", "wool": [["purple", 1]]},
        {"type": "Discard", "wool": [["red", -2]]},
    ):
        with pytest.raises(IllegalAction) as exc:
            GAME.action_from_json(bad)
        assert exc.value.code == "bad_action_fields"


# -- chat text -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("bid red 12", Bid("red", 12)),
        ("red 12", Bid("red", 12)),
        ("!bid White 3", Bid("white", 3)),
        ("12 blue", Bid("blue", 12)),
        ("!予想 赤 12", Bid("red", 12)),
        ("赤１２個", Bid("red", 12)),
        ("！予想　白３", Bid("white", 3)),
        ("きいろ 4つ", Bid("yellow", 4)),
        ("through", Through()),
        ("pass", Through()),
        ("スルー", Through()),
        ("!スルー", Through()),
        ("bluff", Bluff()),
        ("ブラフ", Bluff()),
        ("！ブラフ", Bluff()),
        ("ダウト", Bluff()),
        ("doubt", Bluff()),
        ("捨て 赤2 青", discard(red=2, blue=1)),
        ("discard red 2 blue", discard(red=2, blue=1)),
        ("!discard black 1 black 2", discard(black=3)),
    ],
)
def test_parse_english_and_japanese(text: str, action: Action) -> None:
    assert GAME.parse_action(B, text, bidding()) == action


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("bid red", "bad_bid_syntax"),
        ("bid red blue 3", "bad_bid_syntax"),
        ("red 3 4", "bad_bid_syntax"),
        ("予想 紫 3", "bad_bid_syntax"),
        ("捨て 紫", "bad_discard_syntax"),
        ("discard", "bad_discard_syntax"),
        ("discard red 3 4", "bad_discard_syntax"),
        ("discard 3", "bad_discard_syntax"),
    ],
)
def test_parse_explains_malformed_commands(text: str, code: str) -> None:
    with pytest.raises(IllegalAction) as exc:
        GAME.parse_action(B, text, bidding())
    assert exc.value.code == code
    assert exc.value.details["text"] == text
    assert "example" in exc.value.details


def test_garbage_says_what_this_seat_may_type_now() -> None:
    def legal(seat: int, state: WoolBluffState, text: str = "hello there") -> list[str]:
        with pytest.raises(IllegalAction) as exc:
            GAME.parse_action(seat, text, state)
        assert exc.value.code == "unknown_command"
        assert exc.value.details["text"] == text
        return list(exc.value.details["legal"])

    assert legal(B, bidding()) == ["bid"]
    assert legal(C, bidding()) == []  # not C's turn
    assert legal(B, responding()) == ["through", "bluff"]
    assert legal(B, responding(), "") == ["through", "bluff"]
    assert legal(B, responding(), "!!!") == ["through", "bluff"]

    state = new_match(2)
    deal(state, [wool(), wool()], first=A)
    play(state, (A, Bid("red", 20)), (B, Through()))
    assert legal(B, state, "ほげ") == ["bluff"]

    state = new_match(2)
    deal(state, [wool(), wool()], first=A)
    play(state, (A, Bid("red", 19)), (B, Bluff()))
    state.apply(CHANCE, Reveal())  # no red: A +19 and out, so the match is over
    assert state.is_over
    assert legal(A, state) == []


def test_garbage_during_a_discard_suggests_the_discard() -> None:
    state = new_match(2)
    deal(state, [wool(), wool()], first=A)
    play(state, (A, Bid("red", 1)), (B, Bluff()))  # 0 red: A +1
    state.apply(CHANCE, Reveal())
    deal(state, [wool(), wool()])
    assert state.to_act() == {A}
    with pytest.raises(IllegalAction) as exc:
        GAME.parse_action(A, "what", state)
    assert exc.value.details["legal"] == ["discard"]
    action = GAME.parse_action(A, "捨て 青", state)
    assert state.apply(A, action)
