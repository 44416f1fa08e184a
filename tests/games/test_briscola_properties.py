"""Briscola bugiarda properties over random matches (hypothesis), and the proof that the
partner (or a hidden solo) stays hidden until the called card is played.

Hidden information is checked with twins: the same match with one card swapped between
two other seats' hands must look exactly the same to the observer. When the swapped card
is the called card, the twin has a different partner, so equal views prove that nothing
shown to anyone depends on who the partner is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import CHANCE, Action, Event, Rng
from mcbridge.core.policies import RandomPolicy
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
POLICIES = {"random": RandomPolicy(), "bot": GAME.bot()}
MAX_ACTIONS = 2000

Step = Callable[[BriscolaState, int, Action, list[Event], Rng], None]


def play(seed: int, policy: str, on_step: Step, laps: int = 1) -> tuple[BriscolaState, list[tuple[int, Action]]]:
    game = GAME if laps == 1 else games.load("briscola_bugiarda", {"laps": laps})
    state = game.new_match(NAMES, seed)
    assert isinstance(state, BriscolaState)
    rng = Rng(seed)
    journal: list[tuple[int, Action]] = []
    while not state.is_over:
        assert len(journal) < MAX_ACTIONS, "the match did not end"
        seat = min(state.to_act())
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = POLICIES[policy].choose(state.view(seat), state.legal_actions(seat), rng)
        events = state.apply(seat, action)
        journal.append((seat, action))
        on_step(state, seat, action, events, rng)
    return state, journal


matches = given(seed=st.integers(0, 2**32 - 1), policy=st.sampled_from(sorted(POLICIES)))
moderate = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@moderate
@matches
def test_every_deal_has_120_points_and_is_zero_sum(seed: int, policy: str) -> None:
    deals: list[dict[str, Any]] = []

    def check(state: BriscolaState, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
        assert sum(state.chips) == 0  # starting_chips is 0
        if any(type(e).__name__ == "DealScored" for e in events):
            assert state.last_deal is not None
            deals.append(state.last_deal)
        for waiting in state.to_act() - {CHANCE}:
            assert state.timeout_action(waiting) in state.legal_actions(waiting)
        in_hands = sum(len(h) for h in state.hands)
        played = len(state.trick) + 5 * len(state.tricks)
        assert in_hands + played in (0, 40)

    state, _ = play(seed, policy, check)
    assert len(deals) == 5
    for deal in deals:
        assert sum(deal["points_by_seat"]) == 120
        assert sum(deal["chips_change"]) == 0
        side = [deal["declarer"]] + ([deal["partner"]] if deal["partner"] is not None else [])
        assert deal["points"] == sum(deal["points_by_seat"][s] for s in side)
    assert [sum(d["chips_change"][s] for d in deals) for s in range(5)] == state.chips
    assert state.result()["over"]


@moderate
@matches
def test_replay_and_json_round_trips(seed: int, policy: str) -> None:
    def check(state: BriscolaState, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
        assert GAME.from_json(state.to_json()) == state
        assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action
        json.dumps([e.to_json() for e in events])

    state, journal = play(seed, policy, check)
    replayed = GAME.new_match(NAMES, seed)
    for seat, action in journal:
        replayed.apply(seat, action)
    assert replayed == state
    assert GAME.from_json(state.to_json()) == state


def swapped(state: BriscolaState, a: int, b: int, card_a: str, card_b: str) -> BriscolaState:
    """The match with `card_a` (seat a) and `card_b` (seat b) exchanged between the hands."""
    data = json.loads(state.to_json())["state"]
    hand_a, hand_b = data["hands"][a], data["hands"][b]
    hand_a[hand_a.index(card_a)] = card_b
    hand_b[hand_b.index(card_b)] = card_a
    return BriscolaState.restore(state.game, data)


@moderate
@matches
def test_no_view_shows_another_seats_cards_or_the_partner(seed: int, policy: str) -> None:
    def check(state: BriscolaState, seat: int, action: Action, events: list[Event], rng: Rng) -> None:
        assert "hand" not in state.view(None)
        for observer in [None, *range(5)]:
            others = [s for s in range(5) if s != observer and state.hands[s]]
            if len(others) < 2:
                continue
            a, b = rng.sample(others, 2)
            # prefer moving the called card: that changes who the partner is
            called = state.called_card
            card_a = called if called in state.hands[a] else rng.pick(state.hands[a])
            twin = swapped(state, a, b, card_a, rng.pick(state.hands[b]))
            assert twin.view(observer) == state.view(observer)

    play(seed, policy, check)


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
