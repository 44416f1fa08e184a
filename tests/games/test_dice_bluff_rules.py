"""Dice Bluff rules: every worked case and [decided] point of rules/dice_bluff.md."""

from __future__ import annotations

from typing import Any

import pytest

from mcbridge.core import CHANCE, IllegalAction
from mcbridge.core.legal import expand
from mcbridge.games import load
from mcbridge.games.dice_bluff import (
    Bid,
    Challenge,
    DiceBluffState,
    FirstOpener,
    Reroll,
    Roll,
    SetAside,
    bid_key,
    legal_bids,
    resolve_rules,
)
from mcbridge.games.dice_bluff.actions import DiceLost, Eliminated, MatchOver, Revealed, RoundStarted

OPENSPIEL = {"dice_per_player": 1, "wild_face": 6, "exact": "challenger_only", "penalty": "one", "set_aside": False}


def start(options: dict[str, Any] | None, rolls: list[list[int]], opener: int = 0) -> DiceBluffState:
    game = load("dice_bluff", options or {})
    state = game.new_match([f"p{i}" for i in range(len(rolls))], seed=1)
    assert isinstance(state, DiceBluffState)
    state.apply(CHANCE, FirstOpener(opener))
    roll_all(state, rolls)
    return state


def roll_all(state: DiceBluffState, rolls: list[list[int]]) -> None:
    for seat in state.active_seats():
        state.apply(CHANCE, Roll(seat, tuple(rolls[seat])))
    assert state.phase == "bid"


def losses(events: list[Any]) -> dict[int, int]:
    return {e.seat: e.lost for e in events if isinstance(e, DiceLost)}


def bluff_rules(**overrides: Any) -> Any:
    options = {"ruleset": "bluff", "dice_per_player": 5, **overrides}
    return resolve_rules(load("dice_bluff", options).options)


# -- the bid ladder -----------------------------------------------------------------------
def test_spec_examples_after_nine_threes() -> None:
    rules = bluff_rules()
    legal = set(legal_bids(Bid(9, 3), 30, rules))
    assert {Bid(9, 4), Bid(10, 2), Bid(10, 3), Bid(5, 6)} <= legal
    assert Bid(4, 6) not in legal
    assert Bid(9, 2) not in legal and Bid(8, 5) not in legal


def test_spec_examples_after_two_stars() -> None:
    rules = bluff_rules()
    legal = set(legal_bids(Bid(2, 6), 30, rules))
    assert Bid(3, 6) in legal and Bid(4, 2) in legal
    assert Bid(3, 5) not in legal


@pytest.mark.parametrize("n", range(1, 13))
def test_bluff_number_to_star_needs_more_than_half(n: int) -> None:
    rules = bluff_rules()
    lowest_star = min(b.count for b in legal_bids(Bid(n, 5), 40, rules) if b.face == 6)
    assert lowest_star == n // 2 + 1


@pytest.mark.parametrize("m", range(1, 8))
def test_bluff_star_to_number_needs_double(m: int) -> None:
    rules = bluff_rules()
    lowest_number = min(b.count for b in legal_bids(Bid(m, 6), 40, rules) if b.face != 6)
    assert lowest_number == 2 * m


def test_one_total_order_matches_the_spec_formula() -> None:
    """key(number n, f) = (n, f); key(star m) = (2m - 0.5, 0): our integer keys order alike."""
    rules = bluff_rules()

    def spec_key(b: Bid) -> tuple[float, int]:
        return (2 * b.count - 0.5, 0) if b.face == 6 else (b.count, b.face)

    bids = [Bid(n, f) for n in range(1, 16) for f in range(1, 7)]
    ours = sorted(bids, key=lambda b: bid_key(b.count, b.face, rules))
    assert ours == sorted(bids, key=spec_key)


def test_opening_bid_may_be_a_star_bid_with_count_at_least_one() -> None:
    state = start({}, [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]])
    assert Bid(1, 6) in state.legal_actions(0)
    with pytest.raises(IllegalAction) as err:
        state.apply(0, Bid(0, 3))
    assert err.value.code == "bid_out_of_range"
    state.apply(0, Bid(1, 6))
    assert state.bid == Bid(1, 6)


def test_tsukuda_edition_star_replaces_the_one() -> None:
    state = start({"wild_face": 1}, [[1, 1, 2, 3, 3], [1, 2, 2, 5, 6]])
    state.apply(0, Bid(4, 3))
    events = state.apply(1, Challenge())
    revealed = next(e for e in events if isinstance(e, Revealed))
    assert revealed.actual == 5  # two 3s + three 1-stars
    assert revealed.face == "3"


# -- challenges: the worked cases ------------------------------------------------------------
NINE_THREES = {
    7: [[3, 3, 3, 6, 1], [3, 6, 1, 2, 4], [3, 1, 2, 4, 5]],
    12: [[3, 3, 3, 6, 6], [3, 3, 6, 6, 1], [3, 6, 3, 2, 4]],
    9: [[3, 3, 3, 6, 6], [3, 6, 1, 2, 4], [3, 3, 2, 4, 5]],
}


@pytest.mark.parametrize(("actual", "expected"), [(7, {0: 2}), (12, {1: 3}), (9, {1: 1, 2: 1})])
def test_worked_case_nine_threes(actual: int, expected: dict[int, int]) -> None:
    state = start({}, NINE_THREES[actual])
    state.apply(0, Bid(9, 3))
    events = state.apply(1, Challenge())
    assert next(e for e in events if isinstance(e, Revealed)).actual == actual
    assert losses(events) == expected
    assert state.dice == [5 - expected.get(s, 0) for s in range(3)]


@pytest.mark.parametrize(("actual", "opener"), [(7, 0), (12, 1), (9, 1)])
def test_next_round_is_opened_by_the_loser_or_the_seat_after_the_bidder(actual: int, opener: int) -> None:
    state = start({}, NINE_THREES[actual])
    state.apply(0, Bid(9, 3))
    events = state.apply(1, Challenge())
    started = next(e for e in events if isinstance(e, RoundStarted))
    assert (started.round, started.seat) == (2, opener)
    assert state.phase == "roll" and state.opener == opener


def test_exact_hit_opener_is_seat_after_bidder_even_when_bidder_is_not_seat_zero() -> None:
    state = start({}, [[3, 3, 1, 1, 1], [2, 2, 2, 2, 2], [3, 4, 4, 4, 4]], opener=2)
    state.apply(2, Bid(3, 3))
    events = state.apply(0, Challenge())  # exactly three 3s
    assert losses(events) == {0: 1, 1: 1}
    assert state.opener == 0


def test_star_bid_counts_only_stars() -> None:
    state = start({}, [[6, 6, 3, 3, 3], [6, 1, 1, 1, 1]])
    state.apply(0, Bid(2, 6))
    events = state.apply(1, Challenge())
    revealed = next(e for e in events if isinstance(e, Revealed))
    assert (revealed.actual, revealed.face) == (3, "star")
    assert losses(events) == {1: 1}  # one more star than bid: the challenger pays the difference


def test_exact_challenger_only_option() -> None:
    state = start({"exact": "challenger_only"}, NINE_THREES[9])
    state.apply(0, Bid(9, 3))
    assert losses(state.apply(1, Challenge())) == {1: 1}


def test_penalty_is_capped_by_dice_held() -> None:
    state = start({"dice_per_player": 2}, [[1, 2], [4, 5]])
    state.apply(0, Bid(4, 3))
    events = state.apply(1, Challenge())
    assert losses(events) == {0: 2}  # the difference is 4, but seat 0 has only 2 dice
    assert state.is_over


def test_only_the_next_player_may_act_and_refusals_change_nothing() -> None:
    state = start({}, NINE_THREES[7])
    state.apply(0, Bid(9, 3))
    before = state.to_json()
    with pytest.raises(IllegalAction) as err:
        state.apply(2, Challenge())
    assert err.value.code == "not_your_turn"
    refusals = [
        (Bid(9, 2), "bid_too_low"),
        (Bid(4, 6), "bid_too_low"),
        (Bid(16, 3), "bid_out_of_range"),
        (Bid(9, 7), "bad_face"),
    ]
    for bad, code in refusals:
        with pytest.raises(IllegalAction) as err:
            state.apply(1, bad)
        assert err.value.code == code
    assert state.to_json() == before


def test_opening_cannot_challenge() -> None:
    state = start({}, NINE_THREES[7])
    assert Challenge() not in state.legal_actions(0)
    with pytest.raises(IllegalAction) as err:
        state.apply(0, Challenge())
    assert err.value.code == "nothing_to_challenge"


def test_top_of_the_ladder_leaves_only_challenge() -> None:
    state = start({"dice_per_player": 1}, [[6], [6]])
    state.apply(0, Bid(2, 6))  # two stars: the highest bid with two dice
    assert state.legal_actions(1) == [Challenge()]
    assert state.timeout_action(1) == Challenge()


# -- set aside and re-roll ----------------------------------------------------------------------
def test_set_aside_then_reroll_then_must_raise() -> None:
    state = start({}, [[3, 3, 1, 2, 4], [5, 5, 5, 2, 1], [2, 2, 2, 2, 2]])
    state.apply(0, Bid(3, 3))
    state.apply(1, SetAside((5, 5)))
    assert state.aside[1] == [5, 5] and state.hidden[1] == [1, 2, 5]
    assert state.to_act() == {CHANCE}
    state.apply(CHANCE, Reroll(1, (6, 6, 6)))
    assert state.hidden[1] == [6, 6, 6]
    assert state.to_act() == {1}
    legal = state.legal_actions(1)
    assert Challenge() not in legal and not any(isinstance(a, SetAside) for a in legal)
    with pytest.raises(IllegalAction) as err:
        state.apply(1, Challenge())
    assert err.value.code == "must_raise_after_set_aside"
    with pytest.raises(IllegalAction) as err:
        state.apply(1, SetAside((6,)))
    assert err.value.code == "already_set_aside"
    state.apply(1, Bid(5, 5))
    view = state.view(None)
    assert view["aside"][1] == [5, 5]  # set-aside dice stay public
    assert "hidden" not in view


def test_set_aside_dice_count_at_showdown_and_more_can_be_added_later() -> None:
    state = start({}, [[5, 1, 1, 1, 1], [5, 5, 2, 2, 2]])
    state.apply(0, Bid(1, 5))
    state.apply(1, SetAside((5,)))
    state.apply(CHANCE, Reroll(1, (2, 2, 5, 5)))
    state.apply(1, Bid(2, 5))
    state.apply(0, Bid(3, 5))
    state.apply(1, SetAside((5, 5)))  # a later turn of the same round: more dice
    assert state.aside[1] == [5, 5, 5]
    state.apply(CHANCE, Reroll(1, (5, 3)))
    state.apply(1, Bid(6, 5))
    events = state.apply(0, Challenge())
    assert next(e for e in events if isinstance(e, Revealed)).actual == 5  # 1 + 3 aside + 1 hidden
    assert losses(events) == {1: 1}


def test_setting_aside_every_hidden_die_skips_the_reroll() -> None:
    state = start({}, [[4, 4, 4, 4, 4], [1, 1, 1, 1, 1]])
    state.apply(0, SetAside((4, 4, 4, 4, 4)))
    assert state.phase == "bid" and state.must_raise and state.hidden[0] == []
    state.apply(0, Bid(5, 4))
    assert state.to_act() == {1}


def test_set_aside_refusals() -> None:
    state = start({}, [[4, 4, 1, 2, 3], [1, 1, 1, 1, 1]])
    refusals = [
        (SetAside((5,)), "dice_not_held"),
        (SetAside((4, 4, 4)), "dice_not_held"),
        (SetAside(()), "set_aside_nothing"),
    ]
    for bad, code in refusals:
        with pytest.raises(IllegalAction) as err:
            state.apply(0, bad)
        assert err.value.code == code
    perudo = start({"ruleset": "perudo"}, [[4, 4, 1, 2, 3], [1, 1, 1, 1, 1]])
    with pytest.raises(IllegalAction) as err:
        perudo.apply(0, SetAside((4,)))
    assert err.value.code == "set_aside_not_allowed"


# -- elimination and ranking ---------------------------------------------------------------------
def test_elimination_order_ranks_and_same_round_shares_a_rank() -> None:
    state = start({"dice_per_player": 1}, [[3], [2], [4]])
    state.apply(0, Bid(1, 3))
    events = state.apply(1, Challenge())  # exact: seats 1 and 2 lose their only die
    assert {e.seat for e in events if isinstance(e, Eliminated)} == {1, 2}
    assert isinstance(events[-1], MatchOver) and events[-1].winners == (0,)
    rows = state.result()["standings"]
    assert [(r["seat"], r["rank"], r["winner"]) for r in rows] == [(0, 1, True), (1, 2, False), (2, 2, False)]


def test_eliminated_players_are_skipped_for_rolls_turns_and_opening() -> None:
    state = start({"dice_per_player": 1}, [[3], [2], [4]], opener=1)
    state.apply(1, Bid(2, 5))
    state.apply(2, Challenge())  # no 5s, no stars: seat 1 is out and would have opened
    assert state.dice == [1, 0, 1]
    assert state.opener == 2  # the next seat still in
    state.apply(CHANCE, Roll(0, (1,)))
    state.apply(CHANCE, Roll(2, (1,)))
    state.apply(2, Bid(1, 1))
    assert state.to_act() == {0}


# -- the golden OpenSpiel case --------------------------------------------------------------------
def test_openspiel_liars_dice_playthrough() -> None:
    """OpenSpiel liars_dice: dice 2 and 5; bids 1-2, 1-5, 2-3; Liar -> player 0 loses."""
    state = start(OPENSPIEL, [[2], [5]])
    state.apply(0, Bid(1, 2))
    state.apply(1, Bid(1, 5))
    state.apply(0, Bid(2, 3))
    events = state.apply(1, Challenge())
    assert next(e for e in events if isinstance(e, Revealed)).actual == 0
    assert losses(events) == {0: 1}
    assert state.is_over
    assert [r["seat"] for r in state.result()["standings"] if r["winner"]] == [1]


def test_openspiel_action_order_equals_ours_with_one_die_each() -> None:
    """OpenSpiel numbers bids count-major (id = (count-1)*6 + face-1, face 6 wild): with two
    dice in play that order is exactly our ladder, star bids included."""
    rules = resolve_rules(load("dice_bluff", OPENSPIEL).options)
    ours = legal_bids(None, 2, rules)
    openspiel = [Bid(a // 6 + 1, a % 6 + 1) for a in range(12)]
    assert ours == openspiel


def test_openspiel_exact_hit_costs_the_challenger() -> None:
    state = start(OPENSPIEL, [[3], [6]])
    state.apply(0, Bid(2, 3))
    assert losses(state.apply(1, Challenge())) == {1: 1}


# -- the Perudo ruleset -------------------------------------------------------------------------------
def perudo_rules() -> Any:
    return resolve_rules(load("dice_bluff", {"ruleset": "perudo"}).options)


def test_perudo_ruleset_defaults() -> None:
    rules = perudo_rules()
    assert (rules.wild_face, rules.exact, rules.penalty, rules.set_aside, rules.palifico) == (
        1, "challenger_only", "one", False, True
    )
    explicit = resolve_rules(load("dice_bluff", {"ruleset": "perudo", "penalty": "difference"}).options)
    assert explicit.penalty == "difference"


@pytest.mark.parametrize(("n", "bluff_min", "perudo_min"), [(8, 5, 4), (9, 5, 5), (2, 2, 1), (5, 3, 3)])
def test_perudo_to_wilds_is_half_rounded_up(n: int, bluff_min: int, perudo_min: int) -> None:
    lowest_star = min(b.count for b in legal_bids(Bid(n, 5), 40, bluff_rules()) if b.face == 6)
    lowest_paco = min(b.count for b in legal_bids(Bid(n, 5), 40, perudo_rules()) if b.face == 1)
    assert (lowest_star, lowest_paco) == (bluff_min, perudo_min)


@pytest.mark.parametrize("m", range(1, 7))
def test_perudo_from_wilds_needs_double_plus_one(m: int) -> None:
    lowest = min(b.count for b in legal_bids(Bid(m, 1), 40, perudo_rules()) if b.face != 1)
    assert lowest == 2 * m + 1


def test_perudo_no_paco_opening_and_loser_pays_one() -> None:
    state = start({"ruleset": "perudo"}, [[1, 1, 1, 1, 1], [2, 3, 4, 5, 6]])
    assert not any(isinstance(a, Bid) and a.face == 1 for a in expand(state.legal_actions(0)))
    with pytest.raises(IllegalAction) as err:
        state.apply(0, Bid(2, 1))
    assert err.value.code == "no_wild_opening"
    state.apply(0, Bid(9, 6))  # five pacos + one 6 = 6: short by 3, but Perudo costs one
    assert losses(state.apply(1, Challenge())) == {0: 1}


def test_perudo_exact_costs_the_challenger_one() -> None:
    state = start({"ruleset": "perudo"}, [[1, 2, 3, 4, 5], [2, 2, 3, 4, 5]])
    state.apply(0, Bid(4, 2))  # two 2s + one 2 + one paco = 4
    assert losses(state.apply(1, Challenge())) == {1: 1}
    assert state.opener == 1


def drop_seat0_to_one_die() -> DiceBluffState:
    state = start({"ruleset": "perudo", "dice_per_player": 2}, [[2, 3], [4, 5], [4, 5]])
    state.apply(0, Bid(3, 6))
    state.apply(1, Challenge())  # no 6s and no pacos: seat 0 pays one and drops to 1 die
    return state


def test_palifico_round_when_a_player_first_drops_to_one_die() -> None:
    state = drop_seat0_to_one_die()
    assert state.dice == [1, 2, 2]
    assert state.palifico_round and state.opener == 0
    roll_all(state, [[1], [1, 4], [5, 5]])
    legal = state.legal_actions(0)
    assert Bid(1, 1) in legal  # pacos may open a palifico round
    state.apply(0, Bid(2, 4))
    assert {a.face for a in expand(state.legal_actions(1)) if isinstance(a, Bid)} == {4}  # face fixed
    with pytest.raises(IllegalAction) as err:
        state.apply(1, Bid(3, 5))
    assert err.value.code == "palifico_face_fixed"
    state.apply(1, Bid(3, 4))
    events = state.apply(2, Challenge())
    assert next(e for e in events if isinstance(e, Revealed)).actual == 1  # pacos are not wild
    assert losses(events) == {1: 1}


def test_palifico_is_recorded_per_player_and_not_repeated() -> None:
    state = drop_seat0_to_one_die()
    roll_all(state, [[3], [2, 2], [2, 2]])
    state.apply(0, Bid(1, 2))
    state.apply(1, Challenge())  # four 2s: the challenger pays one and drops to 1: palifico
    assert state.palifico_round and state.opener == 1 and state.palifico_used == [True, True, False]
    roll_all(state, [[3], [4], [4, 5]])
    state.apply(1, Bid(1, 4))
    state.apply(2, Bid(2, 4))
    state.apply(0, Challenge())  # exact: the challenger pays one and is out
    assert state.dice == [0, 1, 2] and not state.palifico_round  # nobody newly at one die


# -- timeouts ---------------------------------------------------------------------------------------
def test_timeout_opens_on_the_face_held_most_and_then_makes_the_smallest_raise() -> None:
    state = start({}, [[4, 4, 6, 1, 2], [1, 2, 3, 5, 5]])
    assert state.timeout_action(0) == Bid(1, 4)
    state.apply(0, Bid(9, 5))
    assert state.timeout_action(1) == Bid(5, 6)  # five stars sits just above nine 5s
    with pytest.raises(IllegalAction):
        state.timeout_action(0)


def test_options_are_checked() -> None:
    from mcbridge.core import OptionError

    with pytest.raises(OptionError):
        load("dice_bluff", {"wild_face": 3})
    with pytest.raises(OptionError):
        load("dice_bluff", {"ruleset": "dudo"})
    with pytest.raises(OptionError):
        load("dice_bluff", {"min_players": 5, "max_players": 3})
