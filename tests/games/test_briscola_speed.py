"""The speed-ups of Briscola bugiarda keep the answers: the view's to_act and finished
tricks, and the reveal of the called card, equal what is worked out from scratch, in random
matches where the seats pick any legal action."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.core import Rng
from mcbridge.core.policies import RandomPolicy
from mcbridge.games import load
from mcbridge.games.briscola_bugiarda import BriscolaState, Play, card
from mcbridge.games.briscola_bugiarda.actions import HiddenSoloRevealed, PartnerRevealed
from tests.games.resumed import next_move


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), bots=st.booleans())
def test_views_and_reveals_match_a_count_from_scratch(seed: int, bots: bool) -> None:
    game = load("briscola_bugiarda", {"laps": 1})
    state = game.new_match([f"p{i}" for i in range(5)], seed)
    assert isinstance(state, BriscolaState)
    rng, policy = Rng(seed), game.bot() if bots else RandomPolicy()
    reveals = 0
    while not state.is_over:
        seat, action = next_move(state, policy, rng)
        called = None if state.solo or state.trump is None else card(str(state.bid_rank), state.trump)
        events = state.apply(seat, action)
        revealed = [e for e in events if isinstance(e, PartnerRevealed | HiddenSoloRevealed)]
        is_called = isinstance(action, Play) and action.card == called
        assert len(revealed) == int(is_called)
        reveals += len(revealed)
        for who in [None, *range(5)]:
            view = state.view(who)
            assert view["to_act"] == sorted(state.to_act()) == view["header"]["to_act"]
            assert [dict(t, cards=[list(c) for c in t["cards"]]) for t in view["tricks"]] == state.tricks
            assert view["points_won"] == state.points_won()
    assert reveals <= state.deal
