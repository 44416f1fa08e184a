"""Chip stacks, pots, all-in and side pots (mcbridge.core.chips), shared by the betting games."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbridge.core import IllegalAction
from mcbridge.core.chips import ChipStacks, SidePot, side_pots, split_evenly


def pots_as_tuples(pots: list[SidePot]) -> list[tuple[int, set[int]]]:
    return [(p.amount, set(p.eligible)) for p in pots]


def test_one_pot_when_nobody_is_all_in() -> None:
    assert pots_as_tuples(side_pots([20, 20, 20], live=[0, 1, 2])) == [(60, {0, 1, 2})]


def test_several_all_in_levels_cut_one_layer_each() -> None:
    # seat 0 all in for 50, seat 1 all in for 100, seats 2 and 3 went on to 200
    pots = side_pots([50, 100, 200, 200], live=[0, 1, 2, 3])
    assert pots_as_tuples(pots) == [(200, {0, 1, 2, 3}), (150, {1, 2, 3}), (200, {2, 3})]


def test_folded_chips_stay_in_the_layers_they_reached_but_win_nothing() -> None:
    # seat 3 folded after paying 30; seat 1 is all in for 60
    pots = side_pots([100, 60, 100, 30], live=[0, 1, 2])
    assert pots_as_tuples(pots) == [(210, {0, 1, 2}), (80, {0, 2})]
    # a folder who paid between two live levels feeds both layers
    pots = side_pots([100, 60, 100, 80], live=[0, 1, 2])
    assert pots_as_tuples(pots) == [(240, {0, 1, 2}), (100, {0, 2})]


def test_chips_above_every_live_level_join_the_top_pot() -> None:
    # seat 1 raised to 100 and then folded; the live seats only reached 40
    assert pots_as_tuples(side_pots([40, 100, 40], live=[0, 2])) == [(180, {0, 2})]


def test_antes_of_folded_seats_go_to_the_live_seats_when_nobody_live_paid() -> None:
    assert pots_as_tuples(side_pots([0, 0, 5], live=[0, 1])) == [(5, {0, 1})]
    assert side_pots([0, 0, 0], live=[0, 1, 2]) == []


def test_a_live_seat_that_paid_nothing_is_not_eligible_once_others_paid() -> None:
    # seat 2 was all in with an empty stack: it cannot win chips it never matched
    assert pots_as_tuples(side_pots([10, 10, 0], live=[0, 1, 2])) == [(20, {0, 1})]


def test_odd_chips_are_left_for_the_game_to_place() -> None:
    chips = ChipStacks([0, 0, 0], [40, 40, 20])
    pot = SidePot(100, frozenset({0, 1, 2}))
    remainder = chips.award(pot, [2, 0, 1])
    assert chips.stacks == [33, 33, 33]
    assert remainder == 1
    assert split_evenly(100, [2, 0, 1]) == ({2: 33, 0: 33, 1: 33}, 1)
    assert split_evenly(10, [4]) == ({4: 10}, 0)


def test_a_betting_round_with_all_in_and_side_pots_conserves_chips() -> None:
    chips = ChipStacks([100, 50, 300, 80])
    total = chips.total()
    chips.put_in(0, 100)  # all in
    chips.put_in(1, 50)  # all in
    chips.put_in(2, 150)
    chips.put_in(3, 40)  # then folds
    assert chips.is_all_in(0) and chips.is_all_in(1)
    assert not chips.is_all_in(2) and not chips.is_all_in(3)
    assert chips.pot_total == 340
    assert chips.total() == total
    pots = chips.pots(live=[0, 1, 2])
    assert pots_as_tuples(pots) == [(190, {0, 1, 2}), (100, {0, 2}), (50, {2})]
    # seat 1 has the best hand, then seat 0, then seat 2
    ranking = [1, 0, 2]
    for pot in pots:
        best = min(pot.eligible, key=ranking.index)
        assert chips.award(pot, [best]) == 0
    chips.clear_pot()
    assert chips.stacks == [100, 190, 200, 40]
    assert chips.total() == total


def test_put_in_refuses_more_than_the_stack_and_negative_amounts_without_change() -> None:
    chips = ChipStacks([30, 30])
    chips.put_in(0, 10)
    before = chips.to_json()
    with pytest.raises(IllegalAction) as exc:
        chips.put_in(0, 21)
    assert exc.value.code == "not_enough_chips"
    assert exc.value.details == {"have": 20, "need": 21}
    with pytest.raises(IllegalAction) as exc:
        chips.put_in(1, -1)
    assert exc.value.code == "negative_amount"
    assert chips.to_json() == before


def test_an_empty_stack_is_all_in_only_with_chips_in_the_pot() -> None:
    # a seat that has nothing left and put nothing in is out of chips, not all in
    chips = ChipStacks([0, 0, 10])
    assert chips.pot_total == 0
    assert not chips.is_all_in(0) and not chips.is_all_in(1) and not chips.is_all_in(2)
    chips.put_in(1, 0)  # putting in nothing changes nothing
    assert not chips.is_all_in(1) and chips.to_json() == {"stacks": [0, 0, 10], "contributions": [0, 0, 0]}
    assert chips.put_in(2, 10) == 10  # the exact stack: all in
    assert chips.is_all_in(2) and chips.stacks[2] == 0 and chips.pot_total == 10
    assert not chips.is_all_in(0)
    chips.clear_pot()
    assert not chips.is_all_in(2)  # a new round: the empty stack has no chips in this pot


def test_a_stack_with_one_chip_left_is_not_all_in() -> None:
    chips = ChipStacks([10, 10])
    chips.put_in(0, 9)
    assert not chips.is_all_in(0) and chips.stacks == [1, 10]
    with pytest.raises(IllegalAction) as exc:
        chips.put_in(0, 2)
    assert exc.value.details == {"have": 1, "need": 2}
    chips.put_in(0, 1)
    assert chips.is_all_in(0) and chips.total() == 20


def test_empty_and_single_seat_pots() -> None:
    assert side_pots([], live=[]) == []
    assert side_pots([0, 0], live=[]) == []
    assert pots_as_tuples(side_pots([7], live=[0])) == [(7, {0})]
    assert pots_as_tuples(side_pots([7, 0], live=[1])) == [(7, {1})]  # only the folded seat paid
    assert split_evenly(0, [0, 1]) == ({0: 0, 1: 0}, 0)
    assert split_evenly(1, [1, 0]) == ({1: 0, 0: 0}, 1)


def test_awarding_a_pot_to_one_winner_leaves_no_remainder_and_clearing_conserves_chips() -> None:
    chips = ChipStacks([10, 10, 10])
    for seat in range(3):
        chips.put_in(seat, 10)
    (pot,) = chips.pots(live=[0, 1, 2])
    assert pot.amount == 30 and chips.award(pot, [1]) == 0
    chips.clear_pot()
    assert chips.stacks == [0, 30, 0] and chips.total() == 30 and chips.pot_total == 0


def test_no_contributions_means_an_empty_pot_but_saved_data_needs_one_per_stack() -> None:
    assert ChipStacks([5, 5]).contributions == [0, 0]
    with pytest.raises(ValueError, match="one contribution per stack"):
        ChipStacks.from_json({"stacks": [5, 5], "contributions": []})


def test_stacks_round_trip_through_json() -> None:
    chips = ChipStacks([5, 0, 7], [1, 9, 0])
    again = ChipStacks.from_json(chips.to_json())
    assert again.to_json() == {"stacks": [5, 0, 7], "contributions": [1, 9, 0]}

    assert again == chips


def test_a_side_pot_cannot_change_once_cut() -> None:
    """Pots are shared between the award step and the journal's result; frozen keeps them honest."""
    pot = side_pots([5, 5], [0, 1])[0]
    with pytest.raises(AttributeError):
        pot.amount = 0  # type: ignore[misc]
    assert {pot} == {SidePot(10, frozenset({0, 1}))}

def test_stacks_are_equal_only_with_the_same_stacks_and_contributions() -> None:
    """Resume compares restored chips with the journal's; equality must look at both lists."""
    assert ChipStacks([5, 7], [1, 0]) == ChipStacks([5, 7], [1, 0])
    assert ChipStacks([5, 7], [1, 0]) != ChipStacks([7, 5], [1, 0])
    assert ChipStacks([5, 7], [1, 0]) != ChipStacks([5, 7], [0, 1])
    assert ChipStacks([5, 7]) != {"stacks": [5, 7], "contributions": [0, 0]}


@st.composite
def betting_rounds(draw: st.DrawFn) -> tuple[list[int], list[int]]:
    n = draw(st.integers(2, 8))
    # few distinct amounts so that equal all-in levels and ties happen often
    contributions = draw(st.lists(st.sampled_from([0, 1, 5, 20, 33, 50, 100, 101]), min_size=n, max_size=n))
    live = draw(st.lists(st.integers(0, n - 1), min_size=1, unique=True))
    return contributions, sorted(live)


@given(betting_rounds())
def test_side_pots_sum_to_the_contributions_and_only_live_payers_can_win(
    case: tuple[list[int], list[int]],
) -> None:
    contributions, live = case
    pots = side_pots(contributions, live)
    assert sum(p.amount for p in pots) == sum(contributions)
    assert all(p.amount > 0 and p.eligible and p.eligible <= set(live) for p in pots)
    top = max(contributions[s] for s in live)
    overflow = sum(max(0, c - top) for c in contributions)
    for seat in live:
        can_win = sum(p.amount for p in pots if seat in p.eligible)
        if top == 0:
            assert can_win == sum(contributions)  # nobody live paid: the antes are shared
        elif contributions[seat] == 0:
            assert can_win == 0
        else:
            # no seat wins more than it matched from each other seat (plus the folded overflow
            # above the top live level, which goes to the top pot)
            matched = sum(min(c, contributions[seat]) for c in contributions)
            assert can_win == matched + (overflow if contributions[seat] == top else 0)
    # a seat that put in more is eligible for every pot a seat that put in less is
    for a in live:
        for b in live:
            if contributions[a] >= contributions[b]:
                assert all(a in p.eligible for p in pots if b in p.eligible)


def test_one_chip_in_the_pot_from_an_empty_stack_is_all_in() -> None:
    chips = ChipStacks([1, 5])
    chips.put_in(0, 1)
    assert chips.is_all_in(0) and not chips.is_all_in(1)


def test_saved_data_with_more_contributions_than_stacks_is_refused() -> None:
    with pytest.raises(ValueError, match="one contribution per stack"):
        ChipStacks.from_json({"stacks": [5], "contributions": [0, 0]})
