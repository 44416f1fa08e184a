"""Bribery property tests: random matches with RandomPolicy and the bot.

Every step checks: luck cards, informants and influencer cards are conserved across hands,
table, pile, discards, supply, owners and removed; the JSON round trip is lossless; no view
(public or another seat's) changes when only hidden data changes (another seat's hand or
face-down cards, the draw pile, the discards, the unseen influencer and the pile order);
the timeout action is legal. At the end the journal replays to an equal state.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.core import CHANCE, Action, Rng
from mcbridge.core.policies import RandomPolicy
from mcbridge.games import load
from mcbridge.games.bribery import INFORMANT, Bribery, BriberyState
from mcbridge.games.bribery.options import luck_deck

MAX_ACTIONS = 20_000


def other(card: int) -> int:
    return (card + 100) % 600  # a different card value (500 -> informant, informant -> 100)


def change_first(cards: list[int]) -> list[int]:
    """The same cards but one: always a different multiset."""
    return [other(cards[0]), *cards[1:]]


def clone(state: BriberyState) -> BriberyState:
    twin = state.game.from_json(state.to_json())
    assert isinstance(twin, BriberyState)
    return twin


def hidden_changes(state: BriberyState) -> list[tuple[int | None, Callable[[BriberyState], None]]]:
    """(seat allowed to notice or None, mutation) for every piece of hidden data present."""
    changes: list[tuple[int | None, Callable[[BriberyState], None]]] = []
    for seat in range(len(state.players)):
        if state.hands[seat]:

            def swap_hand(t: BriberyState, s: int = seat) -> None:
                t.hands[s] = sorted(change_first(t.hands[s]))

            changes.append((seat, swap_hand))
        if len(state.played[seat]) > state.shown[seat]:

            def flip_face_down(t: BriberyState, s: int = seat) -> None:
                k = t.shown[s]
                t.played[s] = t.played[s][:k] + change_first(t.played[s][k:])

            changes.append((seat, flip_face_down))
    if state.pile:
        changes.append((None, lambda t: setattr(t, "pile", change_first(t.pile))))
    if state.discard:
        changes.append((None, lambda t: setattr(t, "discard", sorted(change_first(t.discard)))))
    if state.unseen and state.influencer_pile:

        def swap_unseen(t: BriberyState) -> None:
            t.unseen[0], t.influencer_pile[0] = t.influencer_pile[0], t.unseen[0]

        changes.append((None, swap_unseen))
    return changes


def check_no_leak(state: BriberyState) -> None:
    for owner, change in hidden_changes(state):
        twin = clone(state)
        change(twin)
        assert twin.view(None) == state.view(None)
        for seat in range(len(state.players)):
            if seat != owner:
                assert twin.view(seat) == state.view(seat), (owner, seat)
        if owner is not None:
            assert twin.view(owner) != state.view(owner)  # the change was real


def check_conservation(state: BriberyState, luck: Counter[int], informants: int, influencers: Counter[str]) -> None:
    cards = Counter(state.pile) + Counter(state.discard)
    for seat in range(len(state.players)):
        cards += Counter(state.hands[seat]) + Counter(state.played[seat])
    assert cards[INFORMANT] + state.supply == informants
    del cards[INFORMANT]
    assert cards == luck
    if state.phase != "arrange":
        owned = Counter(state.influencer_pile + state.unseen + state.removed + state.stake)
        for cards_owned in state.owned:
            owned += Counter(cards_owned)
        assert owned == influencers


def play(players: int, seed: int, use_bot: bool) -> None:
    game = load("bribery")
    assert isinstance(game, Bribery)
    names = [f"p{i}" for i in range(players)]
    state = game.new_match(names, seed)
    assert isinstance(state, BriberyState)
    luck = Counter(luck_deck(game.options, players))
    informants = int(game.options["informants"])
    influencers = Counter(list(game.influencers))
    policy = game.bot() if use_bot else RandomPolicy()
    rng = Rng(seed)
    journal: list[tuple[int, Action]] = []
    while not state.is_over:
        assert len(journal) < MAX_ACTIONS, "match did not terminate"
        seat = min(state.to_act())
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions(seat)
            assert state.timeout_action(seat) in legal
            action = policy.choose(state.view(seat), legal, rng)
            if use_bot:  # the bot decides from its own view: hidden data elsewhere changes nothing
                for owner, change in hidden_changes(state):
                    if owner != seat:
                        twin = clone(state)
                        change(twin)
                        again = policy.choose(twin.view(seat), twin.legal_actions(seat), Rng(len(journal)))
                        assert again == policy.choose(state.view(seat), legal, Rng(len(journal)))
        state.apply(seat, action)
        journal.append((seat, action))
        assert game.action_from_json(action.to_json()) == action
        check_conservation(state, luck, informants, influencers)
        assert game.from_json(state.to_json()) == state
        check_no_leak(state)

    result = state.result()
    assert result["over"] and any(row["winner"] for row in result["standings"])
    assert state.round == len(game.influencers) - int(game.options["removed_influencers"])
    replay = game.new_match(names, seed)
    for seat, action in journal:
        replay.apply(seat, action)
    assert replay == state


@settings(max_examples=30, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32))
def test_random_matches(players: int, seed: int) -> None:
    play(players, seed, use_bot=False)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(3, 5), seed=st.integers(0, 2**32))
def test_bot_matches(players: int, seed: int) -> None:
    play(players, seed, use_bot=True)
