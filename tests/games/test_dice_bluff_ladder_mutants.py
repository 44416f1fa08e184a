"""Dice Bluff's ladder helpers, for both rulesets: cases that kill mutants the second
mutation sample of `dice_bluff.ladder` found surviving (the rules count a challenge inline, so
`matching` is read only by the bot, and the Perudo opening rule only by `ladder_for`)."""

from __future__ import annotations

import pytest

from mcbridge.games import load
from mcbridge.games.dice_bluff.ladder import legal_bids, matching


def _rules(ruleset: str):  # type: ignore[no-untyped-def]
    return load("dice_bluff", {"ruleset": ruleset}).new_match(["a", "b"], 1).rules  # type: ignore[attr-defined]


BLUFF = _rules("bluff")  # the star is 6
PERUDO = _rules("perudo")  # the paco is 1
DICE = [1, 1, 3, 6, 6, 6]


@pytest.mark.parametrize(
    ("rules", "face", "palifico", "expected"),
    [
        (BLUFF, 3, False, 4),  # one 3 and three stars
        (BLUFF, 1, False, 5),  # two 1s and three stars
        (BLUFF, 6, False, 3),  # a star bid counts only stars
        (PERUDO, 3, False, 3),  # one 3 and two pacos
        (PERUDO, 6, False, 5),  # three 6s and two pacos
        (PERUDO, 1, False, 2),  # a paco bid counts only pacos
        (PERUDO, 3, True, 1),  # palifico: pacos are plain faces
        (PERUDO, 6, True, 3),
    ],
)
def test_matching_counts_the_face_plus_wilds_except_for_wild_bids_and_in_palifico(
    rules: object, face: int, palifico: bool, expected: int
) -> None:
    assert matching(DICE, face, rules, palifico) == expected  # type: ignore[arg-type]


def test_perudo_may_not_open_on_pacos_but_bluff_may_open_on_stars() -> None:
    assert {b.face for b in legal_bids(None, 10, PERUDO)} == {2, 3, 4, 5, 6}
    assert 6 in {b.face for b in legal_bids(None, 10, BLUFF)}
