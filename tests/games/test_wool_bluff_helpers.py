"""Shared set-up for the Wool Bluff tests (this module holds no tests).

Matches are driven the way the spec's worked cases read: chance outcomes are injected
(`FirstPredictor`, `Deal` with chosen hands, `Reveal`), then the players' actions follow.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from mcbridge import games
from mcbridge.core import CHANCE, Action, Event, IllegalAction, Policy, Rng
from mcbridge.games.wool_bluff import Deal, Discard, FirstPredictor, WoolBluffState
from mcbridge.games.wool_bluff.actions import wool_pairs

NAMES = ("A", "B", "C", "D", "E", "F", "G", "H")
GAME = games.load("wool_bluff")
GAME8 = games.load("wool_bluff", {"max_players": 8})


def wool(filler: str = "blue", size: int = 10, **counts: int) -> dict[str, int]:
    """A hand of `size` wool: the given counts, the rest in `filler`."""
    rest = size - sum(counts.values())
    assert rest >= 0, counts
    hand = dict(counts)
    if rest:
        hand[filler] = hand.get(filler, 0) + rest
    return hand


def dealt(seat: int, hand: Mapping[str, int]) -> Deal:
    """The chance action that deals `hand` (a colour -> count mapping) to `seat`."""
    return Deal(seat, wool_pairs(hand))


def discard(**counts: int) -> Discard:
    return Discard(wool_pairs(counts))


def new_match(players: int = 4, seed: int | str = 1, **options: Any) -> WoolBluffState:
    game = games.load("wool_bluff", {"max_players": 8, **options}) if options else GAME8
    state = game.new_match(list(NAMES[:players]), seed)
    assert isinstance(state, WoolBluffState)
    return state


def restore(text: str) -> WoolBluffState:
    """`from_json` typed for Wool Bluff (the options travel inside the JSON)."""
    state = GAME.from_json(text)
    assert isinstance(state, WoolBluffState)
    return state


def deal(
    state: WoolBluffState,
    hands: Mapping[int, Mapping[str, int]] | Sequence[Mapping[str, int]],
    first: int | None = None,
) -> list[Event]:
    """Choose the first predictor (match start only) and deal every active seat its hand."""
    events: list[Event] = []
    if state.phase == "first_predictor":
        assert first is not None
        events += state.apply(CHANCE, FirstPredictor(first))
    assert state.phase == "deal"
    by_seat = dict(hands) if isinstance(hands, Mapping) else dict(enumerate(hands))
    for seat in state.active_seats():
        events += state.apply(CHANCE, dealt(seat, by_seat[seat]))
    return events


def play(state: WoolBluffState, *moves: tuple[int, Action]) -> list[Event]:
    events: list[Event] = []
    for seat, action in moves:
        events += state.apply(seat, action)
    return events


def refused(state: WoolBluffState, seat: int, action: Action, code: str) -> IllegalAction:
    """Apply an action that must be refused with `code`; the state must not change at all."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as exc:
        state.apply(seat, action)
    assert exc.value.code == code, exc.value
    assert state.to_json() == before
    return exc.value


def of_type(events: Sequence[Event], kind: type[Event]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


Step = Callable[[WoolBluffState, int, Action], None]


def play_match(
    state: WoolBluffState,
    policies: Policy | Sequence[Policy],
    rng: Rng,
    before: Step | None = None,
    after: Step | None = None,
    max_actions: int = 20_000,
) -> list[tuple[int, Action]]:
    """Play to the end; simultaneous seats act in a random order. Returns the journal.

    Every chosen action is checked against `legal_actions` (for player seats), so any
    policy used here is also tested for legality.
    """
    journal: list[tuple[int, Action]] = []
    while not state.is_over:
        assert len(journal) < max_actions, "match did not end"
        waiting = sorted(state.to_act())
        assert waiting, "a match that is not over must wait for someone"
        seat = waiting[rng.randrange(len(waiting))]
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions(seat)
            policy = policies if not isinstance(policies, Sequence) else policies[seat]
            action = policy.choose(state.view(seat), legal, rng)
            assert action in legal, (seat, action)
        if before:
            before(state, seat, action)
        state.apply(seat, action)
        journal.append((seat, action))
        if after:
            after(state, seat, action)
    return journal
