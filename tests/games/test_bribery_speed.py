"""The speed-ups of Bribery keep the answers: the view's to_act and all-in flags, and the
cards a showdown shows, equal what is worked out from scratch, in random matches where the
seats pick any legal action (so hands empty, ties and extensions happen)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.core import Rng
from mcbridge.core.policies import RandomPolicy
from mcbridge.games import load
from mcbridge.games.bribery import BriberyState, rules
from mcbridge.games.bribery.actions import INFORMANT, CardsShown, Showdown
from tests.games.resumed import next_move


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 5), bots=st.booleans())
def test_views_and_showdowns_match_a_count_from_scratch(seed: int, players: int, bots: bool) -> None:
    game = load("bribery")
    state = game.new_match([f"p{i}" for i in range(players)], seed)
    assert isinstance(state, BriberyState)
    rng, policy = Rng(seed), game.bot() if bots else RandomPolicy()
    shown = 0
    while not state.is_over:
        seat, action = next_move(state, policy, rng)
        events = state.apply(seat, action)
        last = state.last_showdown
        played_shown = last["played"] if last is not None else []  # every seat's cards, as played
        for event in events:
            if isinstance(event, Showdown):
                assert event.informants == sum(cards.count(INFORMANT) for cards in played_shown)
            if isinstance(event, CardsShown):  # every card of the seat, luck cards ascending
                cards = played_shown[event.seat]
                assert event.luck == tuple(sorted(c for c in cards if c != INFORMANT))
                assert (event.informants, event.total) == (cards.count(INFORMANT), sum(cards))
                shown += 1
        for who in [None, *range(players)]:
            view = state.view(who)
            expected = [state.all_in(s) for s in range(players)]
            assert view["all_in"] == expected
            assert view["to_act"] == sorted(state.to_act()) == view["header"]["to_act"]
    assert shown > 0


def test_shared_events_are_equal_to_fresh_ones_and_the_table_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "_EVENTS", {})
    monkeypatch.setattr(rules, "_SHARED_MAX", 8)
    for total in range(50):
        event = rules._shared(CardsShown, 1, (total,), 0, total)
        assert event == CardsShown(1, (total,), 0, total)
        assert rules._shared(CardsShown, 1, (total,), 0, total) is event  # shared while kept
        assert len(rules._EVENTS) <= 8
