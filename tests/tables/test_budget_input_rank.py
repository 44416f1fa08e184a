"""The write budget's second rank of input (mcbridge.tables.write_budget, issue 12 item 7).

`WriteBudget.order(count, urgent, soon)` says in which order the tables write: the urgent
(clicked, rebuilding) first by index; then the tables with other input (`soon`), by index
from a place among them that moves with the cycle (the sorted list rotated by
`cycle % len(soon)`), so that when the input allowance runs out it is not always the same
table whose answer goes a tick late; then the tables waiting for the bulk allowance, the
longest waiting first; then the rest by index. Asserted:

* the rules above under any count, urgent and soon sets, waiting tables and cycle, with every
  index exactly once, indices out of range ignored, and nothing about the budget changed;
* the rotation is fair: over `len(soon)` consecutive cycles with the same tables in `soon`,
  each of them is first (and in every other place among them) exactly once;
* `input_room()` holds while the input commands spent stay under the allowance, turns False
  exactly when they reach it, and `start()` gives it back; the bulk allowance is separate.
"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.tables.write_budget import INPUT_WRITES, WriteBudget


@st.composite
def situations(draw: st.DrawFn) -> tuple[int, set[int], set[int], dict[int, int], int]:
    count = draw(st.integers(1, 12))
    tables = st.integers(0, count - 1)
    stray = st.one_of(st.integers(-3, -1), st.integers(count, count + 3))  # not a table: ignored
    urgent = draw(st.sets(st.one_of(tables, stray), max_size=count))
    soon = draw(st.sets(st.one_of(tables, stray), max_size=count))
    waiting = draw(st.dictionaries(tables, st.integers(0, 50), max_size=count))
    cycle = draw(st.integers(0, 10_000))
    return count, urgent, soon, waiting, cycle


@settings(max_examples=200, deadline=None)
@given(situations())
def test_order_is_urgent_then_soon_rotated_then_longest_waiting_then_the_rest(
        situation: tuple[int, set[int], set[int], dict[int, int], int]) -> None:
    count, urgent, soon, waiting, cycle = situation
    budget = WriteBudget(bulk_writes=10, max_wait=3, input_writes=20)
    budget.start(cycle)
    budget.waiting = dict(waiting)
    order = budget.order(count, frozenset(urgent), list(soon))
    assert sorted(order) == list(range(count))  # every table exactly once

    tables = set(range(count))
    first = sorted(urgent & tables)
    second = (soon & tables) - urgent
    placed = set(first) | second
    third = {i for i in waiting if i not in placed}
    rest = tables - placed - third
    cut = [len(first), len(first) + len(second), len(first) + len(second) + len(third)]
    assert order[: cut[0]] == first
    assert set(order[cut[0] : cut[1]]) == second
    ring = sorted(second)
    if ring:
        shift = cycle % len(ring)
        assert order[cut[0] : cut[1]] == ring[shift:] + ring[:shift]  # from the cycle's place, round
    assert set(order[cut[1] : cut[2]]) == third
    since = [(waiting[i], i) for i in order[cut[1] : cut[2]]]
    assert since == sorted(since)  # the longest waiting first, ties by index
    assert order[cut[2] :] == sorted(rest)

    assert budget.waiting == waiting and budget.spent == 0 and budget.input_spent == 0  # order only asks
    assert budget.order(count, urgent, soon) == order  # the same inputs, the same order


def test_the_soon_tables_start_where_the_cycle_points() -> None:
    budget = WriteBudget()
    budget.start(13)  # four soon tables (0, 2, 3, 4): 13 % 4 == 1, the second of them first
    assert budget.order(5, {1}, {0, 1, 2, 3, 4}) == [1, 2, 3, 4, 0]
    budget.waiting = {2: 7, 4: 5}
    assert budget.order(5, set(), {0, 3}) == [3, 0, 4, 2, 1]  # 13 % 2 == 1


def soon_order(budget: WriteBudget, count: int, urgent: set[int], soon: set[int]) -> list[int]:
    return [i for i in budget.order(count, urgent, soon) if i in soon and i not in urgent]


@settings(max_examples=200, deadline=None)
@given(data=st.data(), count=st.integers(1, 12), start=st.integers(0, 1000))
def test_each_soon_table_takes_every_place_among_them_once_in_as_many_cycles(
        data: st.DataObject, count: int, start: int) -> None:
    soon = data.draw(st.sets(st.integers(0, count - 1), min_size=1))
    others = sorted(set(range(count)) - soon)
    urgent = data.draw(st.sets(st.sampled_from(others), max_size=2)) if others else set()
    budget = WriteBudget()
    places: dict[int, Counter[int]] = {i: Counter() for i in soon}
    for cycle in range(start, start + len(soon)):
        budget.start(cycle)
        for place, table in enumerate(soon_order(budget, count, urgent, soon)):
            places[table][place] += 1
    for table in soon:
        assert places[table] == Counter(range(len(soon))), (table, places[table])


@settings(max_examples=200, deadline=None)
@given(allowance=st.integers(0, 60), spends=st.lists(st.integers(0, 25), max_size=12), cycle=st.integers(0, 99))
def test_input_room_lasts_until_the_spent_commands_reach_the_allowance(
        allowance: int, spends: list[int], cycle: int) -> None:
    budget = WriteBudget(bulk_writes=5, max_wait=2, input_writes=allowance)
    budget.start(cycle)
    total = 0
    for commands in spends:
        assert budget.input_room() == (total < allowance)
        budget.spend_input(commands)
        total += commands
        assert budget.input_spent == total
    assert budget.input_room() == (total < allowance)
    budget.start(cycle + 1)
    assert budget.input_spent == 0 and budget.input_room() == (allowance > 0)


def test_input_room_turns_false_exactly_at_the_allowance_and_start_gives_it_back() -> None:
    budget = WriteBudget(bulk_writes=120, max_wait=8, input_writes=10)
    budget.start(0)
    budget.spend_input(9)
    assert budget.input_room()  # one command short
    budget.spend_input(1)
    assert not budget.input_room()  # reached: the next table with input is carried over
    budget.spend(500, urgent=False)  # bulk spending is counted apart
    budget.start(1)
    assert budget.input_room() and budget.spent == 0 and budget.input_spent == 0
    budget.spend(500, urgent=False)
    assert budget.input_room()  # the bulk allowance spent leaves the input allowance whole
    budget.spend_input(25)
    assert not budget.input_room()
    assert budget.admit(3, urgent=False) is False  # bulk allowance gone: table 3 waits
    assert WriteBudget().input_writes == INPUT_WRITES
    assert not WriteBudget(input_writes=0).input_room()
