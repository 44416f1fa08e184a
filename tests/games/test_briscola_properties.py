"""Briscola bugiarda properties beyond the every-game contract suite (test_every_game_contract.py
already checks, at every step, zero-sum chips, the 40 cards, twins that move a card (the
called one first) between two other seats' hands, round trips and replay): the points of
every deal, and the explicit proof that the partner (or a hidden solo) stays hidden until
the called card is played.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from contract import POLICY_KINDS, walk
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import CHANCE, Action, Rng
from mcbridge.games.briscola_bugiarda import (
    DECK,
    Bid,
    BriscolaBugiarda,
    BriscolaState,
    CallTrump,
    FirstDealer,
    Pass,
    Play,
    Shuffle,
)

GAME = games.load("briscola_bugiarda")
assert isinstance(GAME, BriscolaBugiarda)
NAMES = ["ann", "bob", "cy", "dee", "eve"]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), kind=st.sampled_from(POLICY_KINDS))
def test_every_deal_has_120_points_and_is_zero_sum(seed: int, kind: str) -> None:
    deals: list[dict[str, Any]] = []

    def scored(state: BriscolaState) -> None:
        if state.last_deal is not None and (not deals or state.last_deal is not deals[-1]):
            deals.append(state.last_deal)

    for state in walk(GAME, 5, seed, kind):
        assert isinstance(state, BriscolaState)
        scored(state)
    scored(state)  # the last deal, scored by the match's last action
    assert len(deals) == 5
    for deal in deals:
        assert sum(deal["points_by_seat"]) == 120
        assert sum(deal["chips_change"]) == 0
        side = [deal["declarer"]] + ([deal["partner"]] if deal["partner"] is not None else [])
        assert deal["points"] == sum(deal["points_by_seat"][s] for s in side)
    assert [sum(d["chips_change"][s] for d in deals) for s in range(5)] == state.chips
    assert state.result()["over"]


# -- the explicit proof for the partner and the hidden solo ---------------------------------------
def rigged_deal(holder: int, other: int, spare: str) -> Shuffle:
    """Seat `holder` gets Ac (the card the declarer will call), seat `other` gets `spare`."""
    rest = [c for c in Rng(9).shuffled(DECK) if c not in ("Ac", spare)]
    hands: list[list[str]] = [[] for _ in range(5)]
    hands[holder].append("Ac")
    hands[other].append(spare)
    for hand in hands:
        while len(hand) < 8:
            hand.append(rest.pop())
    return Shuffle(tuple(c for hand in hands for c in hand))


def twins(holder: int, other: int, spare: str = "2d") -> tuple[BriscolaState, BriscolaState]:
    """Two matches that differ only in whether `holder` or `other` holds the called card Ac."""
    states = []
    for shuffle in (rigged_deal(holder, other, spare), rigged_deal(other, holder, spare)):
        state = GAME.new_match(NAMES, seed=3)
        assert isinstance(state, BriscolaState)
        state.apply(CHANCE, FirstDealer(4))
        state.apply(CHANCE, shuffle)
        states.append(state)
    return states[0], states[1]


def play_both(states: Sequence[BriscolaState], seat: int, action: Action) -> None:
    events = [s.apply(seat, action) for s in states]
    assert events[0] == events[1]  # the same public story, whoever holds the card


def check_hidden_until_played(first: BriscolaState, second: BriscolaState, swapped_seats: set[int]) -> None:
    """Declarer seat 0 bids A and calls coppe; everyone plays any card but Ac and 2d until
    only those are left. Every view except the two swapped seats' own must be identical
    at every step; the swapped seats' views differ only in their hand and role."""
    both = (first, second)
    play_both(both, 0, Bid("A"))
    for seat in (1, 2, 3, 4):
        play_both(both, seat, Pass())
    play_both(both, 0, CallTrump("coppe"))
    assert first.called_card == second.called_card == "Ac"
    assert first.partner() != second.partner()  # the facts really differ ...
    while True:
        for observer in [None, 0, 1, 2, 3, 4]:
            a, b = first.view(observer), second.view(observer)
            if observer in swapped_seats:
                for view in (a, b):
                    view.pop("hand")
                    view.pop("role")
            assert a == b, observer  # ... but nobody can see it
        (seat,) = first.to_act()
        choices = [c for c in first.hands[seat] if c not in ("Ac", "2d")]
        if not choices:
            break
        play_both(both, seat, Play(choices[0]))
    # once the called card is out, everyone knows
    holder = next(s for s, hand in enumerate(first.hands) if "Ac" in hand)
    first.apply(holder, Play("Ac"))
    public = first.view(None)
    assert public["called_card_played"] and (public["partner"] == holder or public["hidden_solo"])


def test_the_partner_is_hidden_from_every_view_until_the_called_card_is_played() -> None:
    first, second = twins(holder=2, other=3)
    assert (first.partner(), second.partner()) == (None, None)  # no trump named yet
    check_hidden_until_played(first, second, {2, 3})
    assert first.view(None)["partner"] == 2


def test_a_hidden_solo_is_hidden_from_every_view_until_the_called_card_is_played() -> None:
    first, second = twins(holder=0, other=3)  # the declarer holds the called card in `first`
    check_hidden_until_played(first, second, {0, 3})
    assert first.view(None)["hidden_solo"] is True and first.view(None)["partner"] is None
