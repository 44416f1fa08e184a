"""`ActionRange` as its callers meet it (core/legal.py): its repr is the four fields that define
it, never the caches it keeps; asking whether an action is in it never changes what it hands out
later; a run it is built from must be one kind of action on one step; a list of one-action ranges
picks like any list; and a deep-stack range is not kept whole in memory.

Written for the survivors of the core sample (bench/mutation.py core.legal --sample 30 --seed 2;
each test names its mutant).
"""

from __future__ import annotations

import json
import tracemalloc

import pytest

from mcbridge.core import Rng
from mcbridge.core.legal import MAX_KEPT, ActionRange
from mcbridge.games.braff.actions import Drop, Raise
from mcbridge.games.dice_bluff.actions import Bid


def test_a_range_reads_as_what_it_stands_for_whatever_it_has_handed_out() -> None:
    entry = ActionRange(Raise("c", 12), "stake", 480, 4)
    shown = "ActionRange(first=Raise(cup='C', stake=12), field='stake', last=480, step=4)"
    assert repr(entry) == shown
    assert list(entry)[:3] == [Raise("C", 12), Raise("C", 16), Raise("C", 20)]
    assert repr(entry) == shown


def test_asking_whether_a_raise_is_legal_leaves_the_range_handing_out_whole_chips() -> None:
    """legal.py:143 `// step` -> `/ step` (main's tests kill it through an off-step value; this
    is the on-step case): the membership test built the action at index 2.0, kept it, and
    `at(2)` then handed out a raise of 20.0 chips (its JSON "20.0")."""
    entry = ActionRange(Raise("C", 12), "stake", 480, 4)
    assert Raise("C", 20) in entry  # a player typed it: the table checks it first
    picked = entry.at(2)
    assert isinstance(picked, Raise) and type(picked.stake) is int
    assert json.dumps(picked.to_json()) == '{"type": "Raise", "cup": "C", "stake": 20}'
    assert [json.dumps(a.to_json()["stake"]) for a in list(entry)[:4]] == ["12", "16", "20", "24"]


def test_a_run_of_bids_on_two_faces_is_not_one_range_of_counts() -> None:
    """legal.py:96 `name != field` -> `name < field`: only fields named before `field` were
    compared, so the face (after "count") was ignored and three bids on three faces became one
    range that hands out bids on the first face only."""
    with pytest.raises(ValueError, match="not an evenly stepped run of count"):
        ActionRange.of([Bid(3, 4), Bid(4, 5), Bid(5, 6)], "count")
    same_face = [Bid(3, 4), Bid(4, 4), Bid(5, 4)]
    assert list(ActionRange.of(same_face, "count")) == same_face


def test_a_list_of_one_action_ranges_picks_those_actions() -> None:
    """legal.py:185 `entry.at(0)` -> `at(1)` / `at(-1)`: with only one-action ranges, the drawn
    index is the entry, and the pick must be its one action, not an IndexError."""
    legal = [Drop(), ActionRange(Raise("C", 40), "stake", 40), ActionRange(Raise("D", 40), "stake", 40)]
    rng = Rng(9)
    assert {rng.pick(legal) for _ in range(60)} == {Drop(), Raise("C", 40), Raise("D", 40)}


def test_a_range_hands_out_the_same_actions_but_never_keeps_a_deep_stack_whole() -> None:
    """legal.py:122 `len(self._made) < MAX_KEPT` -> `is` kept nothing (a new object at every
    call) and -> `is not` kept everything (`len()` above 256 is a fresh int: never the same
    object as MAX_KEPT): a deep stack's every raise in memory."""
    entry = ActionRange(Raise("C", 1), "stake", 30_000)
    assert all(entry.at(i) is entry.at(i) for i in range(0, MAX_KEPT, 97))
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assert sum(1 for _ in entry) == 30_000
        kept = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # measured: MAX_KEPT actions keep 0.14 MB; all 30 000 kept 4.7 MB
    assert kept < 1_500_000, kept
