"""Briscola bugiarda's chip table check (scoring.check_table) with shares other than the seed's.

Written for survivors of the mutation samples (bench/mutation.py briscola_bugiarda.scoring):
`(players - 2) * shares["defender"]` read as `**`, and `declarer + partner` as `declarer ^ partner`.
The seed's shares (2, 1, 1, 4) make each pair agree (3 * 1 == 3 ** 1, 2 ^ 1 == 2 + 1), so only an
operator's own shares tell them apart: rules/briscola_bugiarda.md makes a deal zero-sum, declarer +
partner winning what the three defenders lose. And `range(TOTAL_POINTS >> 1)`, which looked for
missing rows of the chip table only below P = 60.
"""

from __future__ import annotations

import pytest

from mcbridge import games
from mcbridge.core import OptionError
from mcbridge.games.briscola_bugiarda.scoring import settle


@pytest.mark.parametrize(
    ("shares", "delta"),
    [
        ({"declarer": 4, "partner": 2, "defender": 2, "solo_declarer": 8}, [8, -4, 4, -4, -4]),  # doubled
        ({"declarer": 3, "partner": 3, "defender": 2, "solo_declarer": 8}, [6, -4, 6, -4, -4]),  # an even split
    ],
    ids=["doubled", "even split"],
)
def test_other_zero_sum_shares_load_and_a_deal_pays_by_them(shares: dict[str, int], delta: list[int]) -> None:
    options = games.load("briscola_bugiarda", {"shares": shares}).options
    assert settle(75, 0, 2, 5, options) == (True, 2, delta)  # 71-80 wins u = 2


def test_shares_that_are_not_zero_sum_are_refused_naming_the_rule() -> None:
    shares = {"declarer": 5, "partner": 4, "defender": 2, "solo_declarer": 8}  # 9 won, 6 lost
    with pytest.raises(OptionError, match=r"declarer \+ partner = 3 x defender \(zero-sum\)") as refused:
        games.load("briscola_bugiarda", {"shares": shares})
    assert refused.value.key == "shares"


@pytest.mark.parametrize("gap", [(61, 70), (111, 119), (120, 120)])
def test_a_chip_table_with_no_row_for_a_winning_score_is_refused(gap: tuple[int, int]) -> None:
    units = [row for row in games.load("briscola_bugiarda").options["units"] if (row["from"], row["to"]) != gap]
    with pytest.raises(OptionError, match=f"no row for P={gap[0]}") as refused:
        games.load("briscola_bugiarda", {"units": units})
    assert refused.value.key == "units"


def test_a_solo_share_that_is_not_zero_sum_is_refused_with_the_rule_for_five() -> None:
    shares = {"declarer": 2, "partner": 1, "defender": 1, "solo_declarer": 5}  # four defenders lose 4
    with pytest.raises(OptionError) as refused:
        games.load("briscola_bugiarda", {"shares": shares})
    assert (refused.value.key, refused.value.allowed) == ("shares", "solo_declarer = 4 x defender (zero-sum)")
