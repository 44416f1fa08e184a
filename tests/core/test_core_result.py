"""Standings, the typed result and the view header: the shapes tables and the CLI read.

Written to kill mutants bench/mutation.py found surviving in core/result.py.
"""

from __future__ import annotations

from mcbridge.core.result import Result, Standing, ViewHeader, ranked


def test_competition_ranks_skip_the_shared_places_and_list_tied_seats_in_order() -> None:
    # smaller key is better: seats 1 and 2 share first, seat 3 is third, seat 0 fourth
    assert ranked([9, 1, 1, 5]) == [(1, 1), (1, 2), (3, 3), (4, 0)]
    assert ranked([2, 2, 2]) == [(1, 0), (1, 1), (1, 2)]
    assert ranked([(0, 3), (0, 1), (0, 3)]) == [(1, 1), (2, 0), (2, 2)]
    assert ranked([]) == []


def _standing(seat: int, rank: int, winner: bool) -> Standing:
    row = {"rank": rank, "seat": seat, "name": f"p{seat}", "torches": 3 - rank, "winner": winner}
    return Standing(rank, seat, f"p{seat}", 3 - rank, winner, False, row)


def test_a_result_reads_as_the_json_mapping_it_serialises_to() -> None:
    standings = (_standing(2, 1, True), _standing(0, 1, True), _standing(1, 3, False))
    result = Result(True, standings, "torches", "higher", {"rounds": 4})
    expected = {
        "over": True,
        "rounds": 4,
        "standings": [s.row for s in standings],
        "score_name": "torches",
        "better": "higher",
    }
    assert result.to_json() == expected
    assert dict(result) == expected
    assert list(result) == ["over", "rounds", "standings", "score_name", "better"]
    assert len(result) == 5
    assert result["standings"][0]["seat"] == 2
    assert result.winners == (2, 0)
    assert standings[1].to_json() == standings[1].row and standings[1].to_json() is not standings[1].row


def test_the_view_header_serialises_every_field_as_json_lists() -> None:
    header = ViewHeader("braff", "betting", ("ann", "bob"), (1,), (40, 60), "chips", "higher", 7, "turn")
    assert header.to_json() == {
        "game": "braff",
        "phase": "betting",
        "players": ["ann", "bob"],
        "to_act": [1],
        "scores": [40, 60],
        "score_name": "chips",
        "better": "higher",
        "seq": 7,
        "deadline": "turn",
    }


def test_a_standing_cannot_be_changed_once_made() -> None:
    """Standings are shared by the journal, the web feed and the stats recorder: none may edit
    what the others read."""
    import dataclasses

    import pytest

    standing = _standing(0, 1, True)
    with pytest.raises(dataclasses.FrozenInstanceError):
        standing.rank = 2  # type: ignore[misc]
    assert standing.rank == 1
