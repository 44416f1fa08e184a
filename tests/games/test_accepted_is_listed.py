"""An accepted action is one that `legal_actions` listed, spelled exactly as listed.

Actions whose fields have several spellings (Bribery's bet cards in any order, Braff's cup
labels in any case and with spaces, Braff's discards in any order) normalise in their own
`__post_init__`, so `apply` never takes a spelling the list does not hold and journals hold
one spelling. "Exactly" is checked on the JSON form too: `Raise((100.0,))` compares equal to
`Raise((100,))` in Python, and must be refused when built, not played as a card.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from contract import VARIANTS, Variant, walk
from game_hooks import copy_of
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.core import CHANCE, Action, IllegalAction, State
from mcbridge.core.legal import ActionRange

GAMES = ("braff", "bribery", "briscola_bugiarda")
MINE = [v for v in VARIANTS if v.game in GAMES]
IDS = [v.id for v in MINE]


def concrete(legal: Sequence[Action]) -> Iterator[Action]:
    """The listed actions, a range by its ends (enough to respell; ranges can be long)."""
    for entry in legal:
        if isinstance(entry, ActionRange):
            yield entry.at(0)
            yield entry.at(len(entry) - 1)
        else:
            yield entry


def listed_exactly(action: Action, legal: Sequence[Action]) -> bool:
    """Is `action` one of the listed actions with the same JSON (ranges included)?"""
    wanted = action.to_json()
    for entry in legal:
        if not isinstance(entry, ActionRange):
            if entry.to_json() == wanted:
                return True
        elif action in entry:
            index = (getattr(action, entry.field) - entry.lowest) // entry.step
            if entry.at(index).to_json() == wanted:
                return True
    return False


def respellings(action: Action) -> list[dict[str, Any]]:
    """Other ways a player, a journal or a table might send the same action, as JSON."""
    data = action.to_json()
    out: list[dict[str, Any]] = []
    for name, value in data.items():
        if isinstance(value, list) and len(value) > 1:
            out.append({**data, name: value[::-1]})
        if name == "cup" and isinstance(value, str):
            out += [{**data, name: value.lower()}, {**data, name: f" {value} "}, {**data, name: value + " "}]
    return out


def decision_points(variant: Variant, seeds: range) -> Iterator[tuple[State, int]]:
    """Every third decision of random matches (the running match: probe it, do not keep it)."""
    for seed in seeds:
        game = variant.load()
        for index, state in enumerate(walk(game, game.player_range[0], seed)):
            seat = min(state.to_act())
            if seat != CHANCE and index % 3 == 0:
                yield state, seat


@functools.cache
def saved_points(variant: Variant) -> list[tuple[str, int]]:
    """`decision_points` of one match, saved (hypothesis draws from them many times)."""
    return [(state.to_json(), seat) for state, seat in decision_points(variant, range(1))]


@pytest.mark.parametrize("variant", MINE, ids=IDS)
def test_every_respelling_of_a_listed_action_is_that_action(variant: Variant) -> None:
    respelled = 0
    for state, seat in decision_points(variant, range(3)):
        legal = state.legal_actions(seat)
        for action in concrete(legal):
            for data in respellings(action):
                again = state.game.action_from_json(data)
                assert again == action and again.to_json() == action.to_json(), (data, again, action)
                respelled += 1
    if variant.game != "briscola_bugiarda":  # its actions have one spelling only
        assert respelled > 0


@pytest.mark.parametrize("variant", MINE, ids=IDS)
@settings(max_examples=25, deadline=None)
@given(point=st.integers(0, 200), pick=st.integers(0, 10**6), junk=st.sampled_from([100.0, True, "100", -100, 1.5]))
def test_what_apply_accepts_was_listed_exactly(variant: Variant, point: int, pick: int, junk: Any) -> None:
    """Spellings the list does not hold (a card as 100.0 or True, a cup as "c ", cards out of
    order) are either the listed action after normalising, or refused with the match unchanged."""
    found = saved_points(variant)
    text, seat = found[point % len(found)]
    game = variant.load()
    state = game.from_json(text)
    legal = state.legal_actions(seat)
    listed = list(concrete(legal))
    action = listed[pick % len(listed)]
    for data in [*respellings(action), *mangled(action.to_json(), junk)]:
        try:
            candidate = state.game.action_from_json(data)
        except IllegalAction as refused:
            assert refused.code
            continue
        copy = copy_of(state)
        before = copy.to_json()
        try:
            copy.apply(seat, candidate)
        except IllegalAction:
            assert copy.to_json() == before
            continue
        assert listed_exactly(candidate, legal), (data, candidate)


def mangled(data: dict[str, Any], junk: Any) -> list[dict[str, Any]]:
    """The action with one element of a list field, or one scalar field, replaced by `junk`."""
    out = []
    for name, value in data.items():
        if name == "type":
            continue
        if isinstance(value, list) and value:
            out.append({**data, name: [junk, *value[1:]]})
        elif not isinstance(value, list):
            out.append({**data, name: junk})
    return out


def test_a_bribery_bet_in_any_order_is_the_listed_bet() -> None:
    from mcbridge.games.bribery.actions import Call, Raise

    assert Raise((300, 0, 100)) == Raise((0, 100, 300)) and Raise((300, 0, 100)).cards == (0, 100, 300)
    assert Call([200, 100]).cards == (100, 200)


@pytest.mark.parametrize("cards", [(100.0,), (True,), (None,), ("100",), 100, "100 200"])
def test_a_bribery_card_that_is_not_a_whole_number_is_refused_when_built(cards: Any) -> None:
    from mcbridge.games.bribery.actions import Raise

    with pytest.raises(IllegalAction) as refused:
        Raise(cards)
    assert refused.value.code == "bad_cards_syntax"


@pytest.mark.parametrize(("spelt", "listed"), [("c", "C"), ("L ", "L"), (" aa ", "AA"), ("aAa", "AAA")])
def test_a_braff_cup_in_any_case_or_with_spaces_is_the_listed_cup(spelt: str, listed: str) -> None:
    from mcbridge.games.braff.actions import Raise

    assert Raise(spelt, 3) == Raise(listed, 3) and Raise(spelt, 3).cup == listed


def test_a_braff_word_that_is_not_a_cup_is_kept_for_apply_to_refuse() -> None:
    from mcbridge.games.braff.actions import Raise

    assert Raise("big", 3).cup == "big"
    assert dataclasses.replace(Raise("c", 3), stake=4) == Raise("C", 4)
