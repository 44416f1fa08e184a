"""The journal with many matches in one file: which one resume picks, and what it keeps (issue 20, item 3).

Resume trusts `Journal.unfinished` to hand back the arena's newest unfinished match with the
options, booths, players and seed it started with; these tests pin that on a real SQLite file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from mcbridge.tables.journal import Journal

BIG_SEED = (1 << 127) + 12345  # does not fit SQLite's integers


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(tmp_path / "journal.sqlite")
    yield j
    j.close()


def test_resume_gets_the_newest_unfinished_match_of_its_own_arena(journal: Journal) -> None:
    old = journal.start_match("north", "wool_bluff", {"rounds": 3}, ["a", "b"], 1)
    done = journal.start_match("north", "wool_bluff", {"rounds": 4}, ["a", "b"], 2)
    journal.finish(done, {"winner": 0})
    other = journal.start_match("south", "dice_bluff", {"dice": 5}, ["c", "d"], 3)
    newest = journal.start_match("north", "wool_bluff", {"rounds": 5}, ["e", "f"], 4)
    finished_last = journal.start_match("north", "wool_bluff", {"rounds": 6}, ["g", "h"], 5)
    journal.finish(finished_last, {"winner": 1})

    north = journal.unfinished("north")
    assert north is not None and north.id == newest and north.id != old
    assert north.options == {"rounds": 5} and north.players == ["e", "f"] and north.seed == 4
    south = journal.unfinished("south")
    assert south is not None and south.id == other and south.game == "dice_bluff"
    assert journal.unfinished("east") is None
    assert journal.count("north") == 4 and journal.count("north", finished=True) == 2
    assert journal.count("south", finished=True) == 0


def test_an_arena_whose_matches_all_finished_has_nothing_to_resume(journal: Journal) -> None:
    for seed in range(3):
        journal.finish(journal.start_match("north", "braff", {}, ["a", "b"], seed), {"winner": seed % 2})
    assert journal.unfinished("north") is None
    assert [m.result for m in journal.matches()] == [{"winner": 0}, {"winner": 1}, {"winner": 0}]
    assert all(m.finished is not None and m.finished >= m.started for m in journal.matches())


def test_options_booths_and_a_big_seed_come_back_as_stored(journal: Journal) -> None:
    options = {"ante": 1, "booths": [4, 1, 7], "rounds": 2, "ruleset": "perudo"}
    match = journal.start_match("hall", "dice_bluff", options, ["ä", "b", "c"], BIG_SEED)
    saved = journal.match(match)
    assert saved.options == options
    assert saved.rules_options() == {"ante": 1, "rounds": 2, "ruleset": "perudo"}  # booths belong to the table
    assert saved.players == ["ä", "b", "c"] and saved.seed == BIG_SEED
    assert saved.finished is None and saved.result is None


def test_actions_come_back_per_match_in_sequence_order_when_matches_interleave(journal: Journal) -> None:
    first = journal.start_match("north", "wool_bluff", {}, ["a", "b"], 1)
    second = journal.start_match("south", "wool_bluff", {}, ["c", "d"], 2)
    journal.append(first, 0, 0, {"kind": "claim", "n": 1})
    journal.append(second, 0, 1, {"kind": "pass"})
    journal.append(first, 2, 0, {"kind": "call"})
    journal.append(first, 1, 1, {"kind": "claim", "n": 2})
    assert journal.match(first).actions == [(0, {"kind": "claim", "n": 1}), (1, {"kind": "claim", "n": 2}),
                                            (0, {"kind": "call"})]
    assert len(journal.match(first).times) == 3
    assert journal.match(second).actions == [(1, {"kind": "pass"})]
    with pytest.raises(KeyError):
        journal.match(99)


def test_a_reopened_file_keeps_every_match(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite"
    j = Journal(path)
    kept = j.start_match("north", "bribery", {"booths": [2, 0]}, ["a", "b"], 9)
    j.append(kept, 0, 1, {"kind": "bribe"})
    j.finish(j.start_match("north", "bribery", {}, ["a", "b"], 8), {"winner": 0})
    j.close()
    again = Journal(path)
    try:
        saved = again.unfinished("north")
        assert saved is not None and saved.id == kept and saved.options == {"booths": [2, 0]}
        assert saved.actions == [(1, {"kind": "bribe"})]
        assert (path.stat().st_mode & 0o777) == 0o600
    finally:
        again.close()


def test_a_journal_in_new_directories_or_a_relative_path_is_private_to_the_operator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Journals hold every hidden hand: the file is 0600 wherever it is, its new directories 0700."""
    nested = tmp_path / "state" / "mcbridge" / "journal.sqlite"
    Journal(nested).close()
    assert (nested.stat().st_mode & 0o777) == 0o600 and (nested.parent.stat().st_mode & 0o777) == 0o700
    monkeypatch.chdir(tmp_path)
    Journal("relative.sqlite").close()
    assert ((tmp_path / "relative.sqlite").stat().st_mode & 0o777) == 0o600
