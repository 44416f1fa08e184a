"""Wool Bluff's compact legal lists: a long run of bids is one count range per colour.

A few bids (at most `PLAIN_UP_TO`) are listed one by one; more come as six `ActionRange`
entries. Either way the concrete bids are exactly every colour at every count from the
lowest raise to the wool in play, and `apply` accepts each of them.
"""

from __future__ import annotations

from itertools import product

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.core import CHANCE, Rng
from mcbridge.core.legal import PLAIN_UP_TO, ActionRange, count, expand
from mcbridge.core.probability import binomial_tail
from mcbridge.games import load
from mcbridge.games.wool_bluff import COLOURS, Bid, Bluff, Discard, WoolBluffState
from mcbridge.games.wool_bluff.bot import _most_believed
from mcbridge.games.wool_bluff.rules import _discards


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 8), hand=st.sampled_from([1, 2, 10, 40]), seed=st.integers(0, 10**6))
def test_bid_lists_are_every_raise_in_few_entries(players: int, hand: int, seed: int) -> None:
    game = load("wool_bluff", {"max_players": 8, "hand_size": hand, "turns": 3})
    state = game.new_match([f"p{i}" for i in range(players)], seed)
    assert isinstance(state, WoolBluffState)
    rng, bot, checked = Rng(seed), game.bot(), 0
    while not state.is_over:
        seat = min(state.to_act())
        if seat == CHANCE:
            state.apply(seat, state.sample_chance(rng))
            continue
        legal = state.legal_actions(seat)
        if state.phase == "bid" and legal != [Bluff()]:
            lowest, highest = state._min_count(), state.wool_in_play
            every = {Bid(c, n) for n in range(lowest, highest + 1) for c in COLOURS}
            assert set(expand(legal)) == every and count(legal) == len(every)
            ranged = [e for e in legal if isinstance(e, ActionRange)]
            assert len(legal) == (6 if len(every) > PLAIN_UP_TO else len(every))
            assert len(ranged) == (6 if len(every) > PLAIN_UP_TO else 0)
            for entry in ranged:  # the ends of each range are accepted
                for action in (entry.at(0), entry.at(len(entry) - 1)):
                    game.from_json(state.to_json()).apply(seat, action)
            assert Bid("red", highest + 1) not in legal and Bid("red", lowest - 1) not in legal
            checked += 1
        state.apply(seat, bot.choose(state.view(seat), legal, rng))
    assert checked


@settings(max_examples=60, deadline=None)
@given(counts=st.tuples(*[st.integers(0, 4)] * 6), size=st.integers(0, 12))
def test_the_discard_list_is_every_way_to_discard_once_most_of_the_first_colour_first(
    counts: tuple[int, ...], size: int
) -> None:
    listed = [a for a in _discards(counts, size) if isinstance(a, Discard)]
    ways = [w for w in product(*(range(n, -1, -1) for n in counts)) if sum(w) == size]  # descending
    assert [a.wool for a in listed] == [tuple((c, n) for c, n in zip(COLOURS, w, strict=True) if n) for w in ways]
    assert all(a == Discard(dict(a.wool)) for a in listed)  # type: ignore[arg-type]  # canonical, as typed


@settings(max_examples=200, deadline=None)
@given(
    unseen=st.integers(0, 70),
    weight=st.sampled_from([(1, 11), (3, 11), (2, 11), (5, 7), (1, 1), (0, 5)]),
    confidence=st.sampled_from([0.55, 0.3, 0.9, 1.0, 0.0, -1.0]),
    own=st.integers(0, 20),
    lo=st.integers(1, 90),
    span=st.integers(0, 30),
)
def test_the_bots_believed_count_is_where_a_count_by_count_scan_stops(
    unseen: int, weight: tuple[int, int], confidence: float, own: int, lo: int, span: int
) -> None:
    p_hit, hi = weight[0] / weight[1], lo + span
    count = lo  # the scan the bot did before
    while count + 1 <= hi and binomial_tail(unseen, p_hit, count + 1 - own) >= confidence:
        count += 1
    assert max(lo, min(hi, own + _most_believed(unseen, p_hit, confidence))) == count
