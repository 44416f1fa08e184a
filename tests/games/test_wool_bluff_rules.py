"""Wool Bluff per rules/wool_bluff.md: every worked case and every [decided] point."""

from __future__ import annotations

import json
from itertools import permutations
from typing import Any

import pytest
from test_wool_bluff_helpers import GAME, deal, dealt, discard, new_match, of_type, play, refused, restore, wool

from mcbridge.core import CHANCE, IllegalAction, Rng
from mcbridge.core.legal import expand
from mcbridge.games.wool_bluff import (
    COLOURS,
    Bid,
    Bluff,
    Deal,
    Reveal,
    Through,
    WoolBluffState,
    count_for,
)
from mcbridge.games.wool_bluff.actions import (
    BluffCalled,
    DiscardRequired,
    Eliminated,
    MatchOver,
    Penalised,
    Revealed,
    TamperReported,
    TurnStarted,
)

A, B, C, D = 0, 1, 2, 3


# -- worked cases ------------------------------------------------------------------------
WORKED_CASES = [
    pytest.param(  # red+white = 15 among 40 wool; red 10 by A, B calls: B +5
        [wool(red=4, white=1), wool(red=3), wool(red=3, white=1), wool(red=3)],
        Bid("red", 10),
        [(B, Bluff())],
        [0, 5, 0, 0],
        id="over: caller pays actual-count",
    ),
    pytest.param(  # red+white = 7: A +3
        [wool(red=2), wool(red=2, white=1), wool(red=1), wool(red=1)],
        Bid("red", 10),
        [(B, Bluff())],
        [3, 0, 0, 0],
        id="under: predictor pays count-actual",
    ),
    pytest.param(  # red+white = 10: B, C, D +1 each
        [wool(red=3, white=1), wool(red=2), wool(white=2), wool(red=2)],
        Bid("red", 10),
        [(B, Bluff())],
        [0, 1, 1, 1],
        id="exact: everyone but the predictor +1",
    ),
    pytest.param(  # white = 3; white 5 by A, C calls: A +4 (red does not count for white)
        [wool("red", white=1), wool("red", white=1), wool("red", white=1), wool("red")],
        Bid("white", 5),
        [(B, Through()), (C, Bluff())],
        [4, 0, 0, 0],
        id="white under: doubled",
    ),
    pytest.param(  # white = 5: B, C, D +2 each (the THROUGH-sayer B included)
        [wool("red", white=2), wool("red", white=1), wool("red", white=1), wool("red", white=1)],
        Bid("white", 5),
        [(B, Through()), (C, Bluff())],
        [0, 2, 2, 2],
        id="white exact: doubled",
    ),
]


@pytest.mark.parametrize(("hands", "bid", "responses", "torches"), WORKED_CASES)
def test_worked_case(hands: list[dict[str, int]], bid: Bid, responses: list, torches: list[int]) -> None:
    state = new_match(4)
    deal(state, hands, first=A)
    assert state.wool_in_play == 40
    play(state, (A, bid), *responses)
    assert state.to_act() == {CHANCE}
    events = state.apply(CHANCE, Reveal())
    (revealed,) = of_type(events, Revealed)
    assert revealed.actual == count_for(bid.colour, hands)
    assert state.torches == torches
    assert {e.seat: e.torches for e in of_type(events, Penalised)} == {s: t for s, t in enumerate(torches) if t}
    assert state.view(None)["torches"] == torches


def test_worked_case_cumulative_torches_40_35_29_25() -> None:
    """Torches 0, 5, 6, 4 leave 40 - 15 = 25 wool in play: discards follow the running total."""
    state = new_match(4)
    in_play = []

    # turn 1: A bids red 10, B calls, 15 red+white: B +5
    deal(state, [wool(red=4, white=1), wool(red=3), wool(red=3, white=1), wool(red=3)], first=A)
    in_play.append(state.wool_in_play)
    play(state, (A, Bid("red", 10)), (B, Bluff()))
    state.apply(CHANCE, Reveal())
    assert state.torches == [0, 5, 0, 0]

    # turn 2: B predicts (seat after A), discards 5 first; C calls red 5 at 11: C +6
    events = deal(state, [wool(red=3), wool(red=2), wool(red=3), wool(red=3)])
    assert of_type(events, DiscardRequired) == [DiscardRequired(B, 5)]
    assert state.to_act() == {B}
    play(state, (B, discard(blue=5)))
    in_play.append(state.wool_in_play)
    play(state, (B, Bid("red", 5)), (C, Bluff()))
    state.apply(CHANCE, Reveal())
    assert state.torches == [0, 5, 6, 0]

    # turn 3: C predicts; B and C discard 5 and 6; D calls red 5 at 9: D +4
    deal(state, [wool(red=3), wool(red=2), wool(red=2), wool(red=2)])
    assert state.to_act() == {B, C}
    play(state, (C, discard(blue=6)), (B, discard(blue=5)))
    in_play.append(state.wool_in_play)
    play(state, (C, Bid("red", 5)), (D, Bluff()))
    state.apply(CHANCE, Reveal())
    assert state.torches == [0, 5, 6, 4]

    # turn 4: discards 5 + 6 + 4 = 15
    deal(state, [wool(), wool(), wool(), wool()])
    assert state.to_act() == {B, C, D}
    play(state, (D, discard(blue=4)), (B, discard(blue=5)), (C, discard(blue=6)))
    in_play.append(state.wool_in_play)
    assert in_play == [40, 35, 29, 25]
    assert state.view(None)["wool_in_play"] == 25


def test_count_for_adds_white_to_ordinary_colours_only() -> None:
    hands = [{"red": 3, "white": 2}, {"white": 1, "blue": 4}]
    assert count_for("red", hands) == 6
    assert count_for("blue", hands) == 7
    assert count_for("white", hands) == 3
    assert count_for("green", hands) == 3


# -- [decided] points ----------------------------------------------------------------------
def test_decided_colour_weights_default_and_components() -> None:
    assert COLOURS == ("red", "blue", "yellow", "green", "black", "white")
    options = GAME.options
    assert options["weights"] == {"red": 2, "blue": 2, "yellow": 2, "green": 2, "black": 2, "white": 1}
    assert (options["hand_size"], options["turns"], options["white_multiplier"]) == (10, 10, 2)
    assert (options["min_players"], options["max_players"]) == (2, 4)
    assert options["prize"] == {"item": "diamond", "winner": 5, "others": 1}
    assert options["tamper"] == "warn"


def dealt_colours(deals: int, **options: Any) -> dict[str, int]:
    """Colour totals over `deals` sampled hands (a fixed RNG, so the numbers never flake)."""
    rng = Rng(11)
    totals = dict.fromkeys(COLOURS, 0)
    for _ in range(deals):
        state = new_match(2, **options)
        state.apply(CHANCE, state.sample_chance(rng))
        action = state.sample_chance(rng)
        assert isinstance(action, Deal) and action.seat == 0 and action.total == 10
        for colour, n in action.wool:
            totals[colour] += n
    return totals


def test_decided_deals_draw_white_at_half_the_rate_of_each_ordinary_colour() -> None:
    totals = dealt_colours(300)  # 3000 wool: about 545 of each colour and 273 white
    ordinary = [totals[c] for c in COLOURS if c != "white"]
    assert 0.35 < totals["white"] / (sum(ordinary) / len(ordinary)) < 0.65
    assert all(n > 400 for n in ordinary)


def test_a_colour_weighted_zero_is_never_dealt() -> None:
    totals = dealt_colours(100, weights={"white": 0, "black": 0})
    assert totals["white"] == totals["black"] == 0
    assert sum(totals.values()) == 1000


def test_decided_seat_order_is_the_next_seat_round_the_table() -> None:
    state = new_match(4)
    deal(state, [wool(red=3)] * 4, first=C)
    assert state.to_act() == {C}
    play(state, (C, Bid("red", 4)))
    order = []
    while state.phase == "respond":
        (seat,) = state.to_act()
        order.append(seat)
        play(state, (seat, Through()))
    assert order == [D, A, B]
    assert state.to_act() == {D}  # everyone said THROUGH: the next seat must raise


def test_decided_responses_are_sequential_and_the_first_bluff_ends_them() -> None:
    state = new_match(4)
    deal(state, [wool(red=3)] * 4, first=A)
    play(state, (A, Bid("red", 4)))
    assert state.to_act() == {B}
    refused(state, C, Through(), "not_your_turn")
    refused(state, C, Bluff(), "not_your_turn")
    play(state, (B, Through()))
    events = play(state, (C, Bluff()))
    assert events == [BluffCalled(C, A, "red", 4)]
    assert state.to_act() == {CHANCE}  # D is never asked
    refused(state, D, Through(), "not_your_turn")
    state.apply(CHANCE, Reveal())
    assert state.torches == [0, 0, 8, 0]  # 12 red against 4: the caller C pays


def test_decided_after_all_through_the_next_seat_must_raise() -> None:
    state = new_match(3)
    deal(state, [wool(red=3)] * 3, first=A)
    play(state, (A, Bid("red", 5)), (B, Through()), (C, Through()))
    assert state.to_act() == {B}
    legal = [a for a in expand(state.legal_actions(B)) if isinstance(a, Bid)]
    assert Bluff() not in state.legal_actions(B)
    assert len(legal) == len(list(expand(state.legal_actions(B))))
    assert min(a.count for a in legal) == 6
    assert {a.colour for a in legal} == set(COLOURS)  # no colour order: any colour, white too
    refused(state, B, Bluff(), "must_raise")
    refused(state, B, Bid("red", 5), "bid_out_of_range")
    play(state, (B, Bid("white", 6)))
    assert state.bid == {"colour": "white", "count": 6, "bidder": B}
    assert state.to_act() == {C}  # responses start after the new predictor


def test_decided_without_a_higher_bid_the_next_seat_may_only_call_bluff() -> None:
    state = new_match(3)
    deal(state, [wool(red=10), wool(red=8, white=2), wool(red=10)], first=A)
    play(state, (A, Bid("red", 30)), (B, Through()), (C, Through()))
    assert state.to_act() == {B}
    assert state.legal_actions(B) == [Bluff()]
    assert state.view(None)["can_raise"] is False
    refused(state, B, Bid("red", 31), "no_raise_possible")
    events = play(state, (B, Bluff()))
    assert events == [BluffCalled(B, A, "red", 30)]
    assert state.bid is not None and state.bid["caller"] == B
    state.apply(CHANCE, Reveal())
    assert state.torches == [0, 1, 1]  # exact: the caller B and C pay, not the bidder A


def test_decided_count_is_at_most_the_wool_in_play() -> None:
    state = new_match(2)
    deal(state, [wool(), wool()], first=A)
    assert state.wool_in_play == 20
    assert max(a.count for a in expand(state.legal_actions(A)) if isinstance(a, Bid)) == 20
    err = refused(state, A, Bid("red", 21), "bid_out_of_range")
    assert err.details == {"count": 21, "min": 1, "max": 20}
    play(state, (A, Bid("white", 20)))


def test_the_public_view_has_torches_wool_in_play_turn_bid_and_who_acts() -> None:
    state = new_match(3)
    deal(state, [wool(red=1), wool(red=2), wool(red=3)], first=B)
    play(state, (B, Bid("red", 4)))
    public = state.view(None)
    assert json.loads(json.dumps(public)) == public  # JSON-able as it is
    assert public["torches"] == [0, 0, 0]
    assert (public["wool_in_play"], public["turn"], public["predictor"]) == (30, 1, B)
    assert public["bid"] == {"colour": "red", "count": 4, "bidder": B}
    assert public["to_act"] == [C]
    assert "hand" not in public and "drawn" not in public
    own = state.view(C)
    assert own["seat"] == C and own["hand"] == wool(red=3)
    assert {k: v for k, v in own.items() if k not in ("seat", "hand", "drawn", "must_discard")} == public


def turn_with_discards() -> WoolBluffState:
    """Turn 3 of a 3-player match, dealt: A (1 torch) and B (5 torches) must discard."""
    state = new_match(3, seed=5)
    deal(state, [wool(red=3), wool(red=3), wool(red=3)], first=A)
    play(state, (A, Bid("red", 4)), (B, Bluff()))  # 9 red: B +5
    state.apply(CHANCE, Reveal())
    deal(state, [wool(red=3), wool(red=3), wool(red=3)])
    play(state, (B, discard(blue=5)), (B, Bid("red", 8)), (C, Through()), (A, Bluff()))
    state.apply(CHANCE, Reveal())  # 9 red against 8: A, the caller, +1
    assert state.torches == [1, 5, 0]
    deal(state, [wool(red=3, white=1), wool(red=2, yellow=3, white=1), wool(green=4, red=1)])
    assert state.discard_due == {A: 1, B: 5}
    return state


def test_decided_simultaneous_discards_in_any_order_give_the_same_state() -> None:
    start = turn_with_discards()
    assert start.to_act() == {A, B}
    choices = {A: discard(blue=1), B: discard(yellow=3, red=2)}
    results = set()
    for order in permutations(choices):
        state = restore(start.to_json())
        for seat in order:
            assert seat in state.to_act()
            state.apply(seat, choices[seat])
        results.add(state.to_json())
    assert len(results) == 1
    state = restore(results.pop())
    assert state.phase == "bid" and state.to_act() == {state.predictor}
    assert state.hands[B] == {"blue": 4, "white": 1}
    assert state.wool_in_play == 30 - 6


def test_decided_discards_are_checked_against_the_wool_just_drawn() -> None:
    state = turn_with_discards()
    err = refused(state, B, discard(yellow=3), "discard_wrong_count")
    assert err.details == {"count": 3, "required": 5}
    err = refused(state, B, discard(green=5), "discard_not_held")
    assert err.details == {"colour": "green", "count": 5, "held": 0}
    refused(state, C, discard(green=1), "not_your_turn")  # C has no torches
    refused(state, A, Bid("red", 3), "wrong_phase")


def test_decided_discard_timeout_is_random_but_deterministic() -> None:
    state = turn_with_discards()
    for seat in (A, B):
        choice = state.timeout_action(seat)
        assert choice in state.legal_actions(seat)
        assert state.timeout_action(seat) == choice
        restored = restore(state.to_json())
        assert restored.timeout_action(seat) == choice  # a restarted table chooses the same
    # random: over different match seeds the same hand is discarded differently
    seen = set()
    for seed in range(12):
        data = state.to_json().replace('"seed": 5', f'"seed": {seed}')
        seen.add(restore(data).timeout_action(B))
    assert len(seen) > 1


def test_decided_elimination_at_hand_size_torches_and_then_no_wool_answers_or_penalties() -> None:
    state = new_match(4)
    deal(state, [wool(red=3)] * 4, first=A)
    # A bids red 1, B calls: 12 red, B +11 and out (penalties are not capped)
    play(state, (A, Bid("red", 1)), (B, Bluff()))
    events = state.apply(CHANCE, Reveal())
    assert Eliminated(B, 1) in events
    assert state.torches[B] == 11
    assert state.view(None)["active"] == [True, False, True, True]
    # turn 2: seat after A is B, who is out, so C predicts; B gets no wool
    assert of_type(events, TurnStarted) == [TurnStarted(2, C)]
    refused(state, CHANCE, dealt(B, wool()), "deal_out_of_order")
    deal(state, {A: wool(red=3), C: wool(red=3), D: wool(red=3)})
    assert state.hands[B] is None and state.wool_in_play == 30
    play(state, (C, Bid("red", 9)))
    assert state.to_act() == {D}
    play(state, (D, Through()), (A, Bluff()))  # B is skipped
    events = state.apply(CHANCE, Reveal())
    assert [e.seat for e in of_type(events, Penalised)] == [A, D]  # exact: B pays nothing
    assert state.torches == [1, 11, 0, 1]


def test_decided_nine_torches_stay_in_and_discard_nine() -> None:
    state = new_match(2)
    deal(state, [wool(), wool()], first=A)
    play(state, (A, Bid("red", 9)), (B, Bluff()))
    events = state.apply(CHANCE, Reveal())
    assert not of_type(events, Eliminated)
    assert state.torches == [9, 0]
    events = deal(state, [wool(red=1), wool()])
    assert of_type(events, DiscardRequired) == [DiscardRequired(A, 9)]
    play(state, (A, discard(blue=9)))
    assert state.hands[A] == {"red": 1} and state.wool_in_play == 11


def test_decided_next_turn_starts_after_the_challenged_bidder() -> None:
    state = new_match(4)
    deal(state, [wool(red=3)] * 4, first=A)
    play(state, (A, Bid("red", 2)), (B, Through()), (C, Through()), (D, Through()))
    play(state, (B, Bid("red", 3)), (C, Through()), (D, Bluff()))  # B's bid is challenged
    events = state.apply(CHANCE, Reveal())
    assert of_type(events, TurnStarted) == [TurnStarted(2, C)]
    assert state.view(None)["predictor"] == C


def test_decided_next_predictor_skips_a_seat_eliminated_in_this_reveal() -> None:
    state = new_match(3)
    deal(state, [wool(red=3), wool(red=3), wool(red=3)], first=C)
    play(state, (C, Bid("white", 5)), (A, Through()), (B, Through()))
    play(state, (A, Bid("white", 6)), (B, Bluff()))
    events = state.apply(CHANCE, Reveal())  # no white: A +12, out
    assert Eliminated(A, 1) in events
    assert of_type(events, TurnStarted) == [TurnStarted(2, B)]


def three_turn_ranking_match() -> WoolBluffState:
    """H=3: B out in turn 1 (11 torches); C (4) and D (3) both out in turn 3; A wins."""
    state = new_match(4, hand_size=3, white_multiplier=3)
    deal(state, [{"red": 3}] * 4, first=A)
    play(state, (A, Bid("red", 1)), (B, Bluff()))
    state.apply(CHANCE, Reveal())
    assert state.eliminated_turn == [None, 1, None, None] and state.predictor == C
    deal(state, {A: {"red": 3}, C: {"red": 3}, D: {"red": 3}})
    play(state, (C, Bid("red", 8)), (D, Through()), (A, Through()))
    play(state, (D, Bid("red", 9)), (A, Through()), (C, Through()))
    assert state.legal_actions(A) == [Bluff()]
    play(state, (A, Bluff()))
    state.apply(CHANCE, Reveal())
    assert state.torches == [1, 11, 1, 0]
    deal(state, {A: {"white": 1, "red": 2}, C: {"red": 3}, D: {"white": 1, "red": 2}})
    play(state, (A, discard(red=1)), (C, discard(red=1)))
    play(state, (A, Bid("white", 2)), (C, Through()), (D, Bluff()))
    events = state.apply(CHANCE, Reveal())
    assert state.torches == [1, 11, 4, 3]
    assert of_type(events, Eliminated) == [Eliminated(C, 3), Eliminated(D, 3)]
    return state


def test_decided_ranking_active_first_then_later_elimination_then_fewer_torches() -> None:
    state = three_turn_ranking_match()
    assert state.is_over  # only A is still active
    rows = state.result()["standings"]
    assert [(r["rank"], r["seat"], r["torches"], r["eliminated_turn"]) for r in rows] == [
        (1, A, 1, None),
        (2, D, 3, 3),
        (3, C, 4, 3),
        (4, B, 11, 1),
    ]
    assert [r["winner"] for r in rows] == [True, False, False, False]
    assert [r["prize"] for r in rows] == [{"item": "diamond", "count": n} for n in (5, 1, 1, 1)]
    assert [r["name"] for r in rows] == ["A", "D", "C", "B"]


def test_decided_equal_best_torches_are_co_winners_with_the_winners_prize() -> None:
    state = new_match(4, turns=1)
    deal(state, [wool(red=4, white=1), wool(red=3), wool(red=3, white=1), wool(red=3)], first=A)
    play(state, (A, Bid("red", 10)), (B, Bluff()))
    events = state.apply(CHANCE, Reveal())
    assert events[-1] == MatchOver((A, C, D), (0, 5, 0, 0))
    result = state.result()
    assert result["over"] is True
    rows = result["standings"]
    assert [(r["rank"], r["seat"], r["winner"], r["prize"]["count"]) for r in rows] == [
        (1, A, True, 5),
        (1, C, True, 5),
        (1, D, True, 5),
        (4, B, False, 1),
    ]


def test_decided_the_match_ends_after_the_turn_limit() -> None:
    state = new_match(2, turns=2)
    deal(state, [wool(red=1), wool(red=1)], first=A)
    play(state, (A, Bid("red", 2)), (B, Bluff()))
    events = state.apply(CHANCE, Reveal())  # exact: the caller B +1
    assert not state.is_over and of_type(events, TurnStarted) == [TurnStarted(2, B)]
    deal(state, [wool(red=1), wool(red=1)])
    play(state, (B, discard(blue=1)), (B, Bid("red", 2)), (A, Bluff()))
    events = state.apply(CHANCE, Reveal())  # exact again: A +1
    assert state.is_over and state.turn == 2 and state.torches == [1, 1]
    assert isinstance(events[-1], MatchOver)
    assert state.to_act() == frozenset()
    assert state.legal_actions(A) == []
    refused(state, A, Bid("red", 3), "match_over")
    refused(state, CHANCE, dealt(A, wool()), "match_over")


def test_decided_the_match_ends_when_at_most_one_player_is_active() -> None:
    state = new_match(2)
    deal(state, [wool(), wool()], first=A)
    play(state, (A, Bid("white", 5)), (B, Bluff()))
    events = state.apply(CHANCE, Reveal())  # no white: A +10, out
    assert state.is_over and state.turn == 1
    assert events[-2:] == [Eliminated(A, 1), MatchOver((B,), (10, 0))]


# -- fair play: tampered walls ---------------------------------------------------------------
def tampered_reveal(tamper: str) -> tuple[WoolBluffState, list]:
    state = new_match(4, turns=1, tamper=tamper)
    deal(state, [wool(red=4, white=1), wool(red=3), wool(red=3, white=1), wool(red=3)], first=A)
    play(state, (A, Bid("red", 10)), (B, Bluff()))
    # C's wall shows one red fewer and one yellow more than C was dealt
    report = ((C, (("red", -1), ("yellow", 1))),)
    return state, state.apply(CHANCE, Reveal(tampered=report))


def test_tamper_warn_reports_the_seat_and_difference_and_judges_on_the_dealt_hands() -> None:
    state, events = tampered_reveal("warn")
    (revealed,) = of_type(events, Revealed)
    assert revealed.actual == 15  # the dealt hands, not the wall
    assert of_type(events, TamperReported) == [TamperReported(C, (("red", -1), ("yellow", 1)))]
    assert not of_type(events, Eliminated)
    assert state.torches == [0, 5, 0, 0]
    assert state.view(None)["last_reveal"]["tampered"] == [[C, {"red": -1, "yellow": 1}]]
    rows = {r["seat"]: r for r in state.result()["standings"]}
    assert rows[C]["winner"] and rows[C]["prize"]["count"] == 5


def test_tamper_forfeit_eliminates_the_seat_without_a_prize() -> None:
    state, events = tampered_reveal("forfeit")
    assert Eliminated(C, 1, forfeit=True) in events
    assert state.torches == [0, 5, 0, 0]
    assert events[-1] == MatchOver((A, D), (0, 5, 0, 0))
    rows = state.result()["standings"]
    assert [(r["seat"], r["winner"], r["forfeited"], r["prize"]["count"]) for r in rows] == [
        (A, True, False, 5),
        (D, True, False, 5),
        (B, False, False, 1),
        (C, False, True, 0),
    ]


@pytest.mark.parametrize(
    "report",
    [
        ((7, (("red", 1),)),),  # no such seat
        ((C, (("red", 1),)), (C, (("blue", 1),))),  # the same seat twice
        ((C, (("purple", 1),)),),  # no such colour
    ],
)
def test_a_malformed_tamper_report_is_refused_without_change(report: tuple) -> None:
    state = new_match(4)
    deal(state, [wool()] * 4, first=A)
    play(state, (A, Bid("red", 1)), (B, Bluff()))
    refused(state, CHANCE, Reveal(tampered=report), "bad_tamper_report")


# -- timeouts ----------------------------------------------------------------------------------
def test_timeout_of_a_silent_first_predictor_bids_one_of_the_colour_held_most() -> None:
    state = new_match(3)
    deal(state, [wool(red=2, yellow=5, white=3), wool(), wool()], first=A)
    assert state.timeout_action(A) == Bid("yellow", 1)
    state = new_match(2)
    deal(state, [wool(red=5), wool()], first=A)  # red 5, blue 5: the first colour wins ties
    assert state.timeout_action(A) == Bid("red", 1)


def test_timeout_of_a_silent_raiser_is_the_smallest_raise_in_the_standing_colour() -> None:
    state = new_match(3)
    deal(state, [wool()] * 3, first=A)
    play(state, (A, Bid("green", 4)))
    assert state.timeout_action(B) == Through()  # a silent responder says THROUGH
    play(state, (B, Through()), (C, Through()))
    assert state.timeout_action(B) == Bid("green", 5)
    state.apply(B, state.timeout_action(B))
    assert state.bid == {"colour": "green", "count": 5, "bidder": B}


def test_timeout_with_no_raise_possible_is_bluff() -> None:
    state = new_match(2)
    deal(state, [wool(), wool()], first=A)
    play(state, (A, Bid("blue", 20)), (B, Through()))
    assert state.timeout_action(B) == Bluff()


def test_timeout_is_only_for_seats_that_must_act() -> None:
    state = new_match(2)
    deal(state, [wool(), wool()], first=A)
    for seat in (B, CHANCE):
        with pytest.raises(IllegalAction) as exc:
            state.timeout_action(seat)
        assert exc.value.code == "not_your_turn"
    assert set(GAME.options["timeouts"]) == {"bid", "respond", "discard", "reveal"}
