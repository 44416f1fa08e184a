"""An `ActionRange` as people read it in logs and test failures (core/legal.py): its repr is the
four fields that define it, never the caches it keeps (which grow as actions are handed out).

Written for the survivors of the core sample (bench/mutation.py core.legal --sample 30 --seed 2).
"""

from __future__ import annotations

from mcbridge.core.legal import ActionRange
from mcbridge.games.braff.actions import Raise


def test_a_range_reads_as_what_it_stands_for_whatever_it_has_handed_out() -> None:
    entry = ActionRange(Raise("c", 12), "stake", 480, 4)
    shown = "ActionRange(first=Raise(cup='C', stake=12), field='stake', last=480, step=4)"
    assert repr(entry) == shown
    assert list(entry)[:3] == [Raise("C", 12), Raise("C", 16), Raise("C", 20)]
    assert repr(entry) == shown
