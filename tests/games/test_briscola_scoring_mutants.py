"""Briscola bugiarda's chip table check (scoring.check_table) with shares other than the seed's.

Written for a survivor of the mutation sample (bench/mutation.py briscola_bugiarda.scoring):
`(players - 2) * shares["defender"]` read as `**`. With the seed's defender share of 1 the two
agree (3 * 1 == 3 ** 1), so only an operator's own shares tell them apart: rules/briscola_bugiarda.md
makes a deal zero-sum, declarer + partner winning what the three defenders lose.
"""

from __future__ import annotations

import pytest

from mcbridge import games
from mcbridge.core import OptionError
from mcbridge.games.briscola_bugiarda.scoring import settle


def test_doubled_stakes_load_and_a_deal_pays_double() -> None:
    shares = {"declarer": 4, "partner": 2, "defender": 2, "solo_declarer": 8}  # 4 + 2 == 3 x 2
    options = games.load("briscola_bugiarda", {"shares": shares}).options
    won, unit, delta = settle(75, 0, 2, 5, options)  # 71-80 wins u = 2
    assert (won, unit) == (True, 2)
    assert delta == [8, -4, 4, -4, -4]


def test_shares_that_are_not_zero_sum_are_refused_naming_the_rule() -> None:
    shares = {"declarer": 5, "partner": 4, "defender": 2, "solo_declarer": 8}  # 9 won, 6 lost
    with pytest.raises(OptionError, match=r"declarer \+ partner = 3 x defender \(zero-sum\)") as refused:
        games.load("briscola_bugiarda", {"shares": shares})
    assert refused.value.key == "shares"
