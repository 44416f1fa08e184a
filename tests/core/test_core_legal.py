"""ActionRange: one legal-list entry for a run of amounts, and the helpers that let any
caller treat a list with ranges as the full list."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbridge.core import Action, Rng
from mcbridge.core.legal import ActionRange, contains, count, expand, pick_concrete


@dataclass(frozen=True)
class Bet(Action):
    cup: str
    stake: int


@dataclass(frozen=True)
class Fold(Action):
    pass


@given(lo=st.integers(0, 50), span=st.integers(0, 40), step=st.integers(1, 7))
def test_a_range_is_exactly_the_actions_it_expands_to(lo: int, span: int, step: int) -> None:
    entry = ActionRange(Bet("C", lo), "stake", lo + span, step)
    actions = list(entry)
    assert actions == [Bet("C", v) for v in range(lo, lo + span + 1, step)]
    assert len(entry) == len(actions)
    assert [entry.at(i) for i in range(len(entry))] == actions
    for value in range(lo - 3, lo + span + 4):
        assert (Bet("C", value) in entry) == (Bet("C", value) in actions)
    assert Bet("D", lo) not in entry and Fold() not in entry
    with pytest.raises(IndexError):
        entry.at(len(entry))


def test_empty_or_backwards_ranges_are_refused() -> None:
    with pytest.raises(ValueError):
        ActionRange(Bet("C", 5), "stake", 4)
    with pytest.raises(ValueError):
        ActionRange(Bet("C", 5), "stake", 9, step=0)


def test_in_a_legal_list_a_range_stands_for_each_of_its_actions() -> None:
    legal: list[Action] = [Fold(), ActionRange(Bet("A", 2), "stake", 9, step=7)]
    assert Bet("A", 9) in legal and Bet("A", 2) in legal and Fold() in legal
    assert Bet("A", 3) not in legal and Bet("B", 2) not in legal
    assert ActionRange(Bet("A", 2), "stake", 9, step=7) == legal[1] != ActionRange(Bet("A", 2), "stake", 9)
    with pytest.raises(TypeError):
        hash(legal[1])


def test_list_helpers_see_through_ranges() -> None:
    legal: list[Action] = [Fold(), ActionRange(Bet("A", 1), "stake", 3), ActionRange(Bet("B", 2), "stake", 3)]
    assert count(legal) == 1 + 3 + 2
    assert list(expand(legal)) == [Fold(), Bet("A", 1), Bet("A", 2), Bet("A", 3), Bet("B", 2), Bet("B", 3)]
    assert contains(legal, Bet("B", 3)) and not contains(legal, Bet("B", 1)) and contains(legal, Fold())
    assert legal[1].to_json() == {
        "type": "ActionRange",
        "first": {"type": "Bet", "cup": "A", "stake": 1},
        "field": "stake",
        "last": 3,
        "step": 1,
    }


def test_picking_from_a_list_with_ranges_is_uniform_over_concrete_actions() -> None:
    legal: list[Action] = [Fold(), ActionRange(Bet("A", 1), "stake", 3)]
    rng = Rng(5)
    seen = Counter(rng.pick(legal) for _ in range(4000))
    assert set(seen) == {Fold(), Bet("A", 1), Bet("A", 2), Bet("A", 3)}
    assert all(800 <= n <= 1200 for n in seen.values()), seen


def test_without_ranges_picking_draws_exactly_like_before() -> None:
    items: list[Action] = [Fold(), Bet("A", 1), Bet("A", 2)]
    a, b = Rng(11), Rng(11)
    assert [a.pick(items) for _ in range(50)] == [items[b.randrange(3)] for _ in range(50)]
    assert pick_concrete(items, Rng(3)) == Rng(3).pick(items)


@given(lo=st.integers(0, 50), size=st.integers(3, 12), step=st.integers(1, 7))
def test_a_range_of_a_stepped_run_hands_back_those_very_actions(lo: int, size: int, step: int) -> None:
    run = [Bet("C", lo + i * step) for i in range(size)]
    entry = ActionRange.of(run, "stake")
    assert (entry.lowest, entry.last, entry.step, len(entry)) == (lo, run[-1].stake, step, size)
    assert all(entry.at(i) is action for i, action in enumerate(run))
    with pytest.raises(ValueError, match="not an evenly stepped run"):
        ActionRange.of([*run[:-1], Bet("C", run[-1].stake + 1)], "stake")
