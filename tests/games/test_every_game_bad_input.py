"""Bad input of every type, for every game and ruleset: the answer is always a clear refusal
with a stable code (IllegalAction) or a named option (OptionError), never a crash, and a
refused action leaves the match exactly as it was.

Inputs: junk fields in every action type, actions that are not actions, seats that do not
exist or are not to act, a finished match, chat text that is not text (or is nonsense),
malformed saved matches, and bad options to `games.load` and `new_match`.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from contract import VARIANT_IDS, VARIANTS, Variant, check_refused, is_listed, match_at, play_plain, seat_names, walk
from game_hooks import HOOKS, copy_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import CHANCE, IllegalAction, OptionError, Rng

#: Refusals that main does not give yet; each names the branch that brings it (issue 11). When
#: that branch is merged these tests XPASS, which fails the run (strict): delete the entry then.
PENDING: dict[str, str] = {}


def pending(key: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(key in PENDING, reason=PENDING.get(key, ""), strict=True)


#: Words the games know (colours, cards, ranks, faces) mixed with nonsense.
WORDS = ["red", "black", "white", "blue", "A", "D", "Ac", "coppe", "star", "solo", "fake", "", "x", "two_cards"]
junk = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False) | st.sampled_from(WORDS),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.sampled_from(WORDS), inner, max_size=2),
    max_leaves=8,
)
BAD_INPUT = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
per_variant = pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)


def refused_or_listed(state: Any, seat: Any, action: Any) -> None:
    """Whatever `action` is: either it is listed for `seat` (then apply accepts it), or apply
    refuses it with the match unchanged."""
    if is_listed(action, state.legal_actions(seat)):
        state.apply(seat, action)
    else:
        check_refused(state, seat, action)


def probe(state: Any, seat: int, data: dict[str, Any]) -> None:
    """Send an action as JSON, the way a journal or a table hands it over, without moving the
    match on: junk is refused by `action_from_json` or by `apply` (state unchanged); an action
    that `apply` accepts must have been listed, or be a chance outcome of the kind the node
    draws (see `check_unlisted_chance`)."""
    try:
        action = state.game.action_from_json(data)
    except IllegalAction as refused:
        assert refused.code, refused  # bad_action_fields, unknown_action, or the action's own check
        return
    hooks = HOOKS[state.game.name]
    listed = state.legal_actions(seat)
    if is_listed(action, listed) or is_listed(hooks.canonical(action), listed):
        return  # legal after all: the playthroughs apply legal actions
    if seat == CHANCE and (not listed or type(action).__name__ in hooks.unlisted_chance):
        check_unlisted_chance(state, action)
    else:
        check_refused(state, seat, action)


def check_unlisted_chance(state: Any, action: Any) -> None:
    """A chance node too big to list (a deal, a roll) or with outcomes beyond its list (a
    tampered wall) is judged on a copy: refused with nothing changed, or accepted as an outcome
    of the same kind and for the same seat as the one the node draws, with the game's laws
    still holding afterwards."""
    copy = copy_of(state)
    try:
        copy.apply(CHANCE, action)
    except IllegalAction:
        assert copy == state
        return
    drawn = state.sample_chance(Rng(0))
    assert type(action) is type(drawn), (action, drawn)
    assert getattr(action, "seat", None) == getattr(drawn, "seat", None), (action, drawn)
    for law, (actual, expected) in HOOKS[state.game.name].laws(copy).items():
        assert actual == expected, (action, law, actual, expected)


#: Junk for any field: wrong types, out-of-range numbers, words of every game, nested shapes.
JUNK = [
    None,
    True,
    False,
    -1,
    0,
    1,
    2,
    3,
    12,
    60,
    10**9,
    1.5,
    -0.5,
    *WORDS,
    [],
    [1],
    ["red", 2],
    [["red", 2]],
    [["red", -1]],
    [[0, [["red", 1]]]],
    {"a": 1},
]


def near(value: Any) -> list[Any]:
    """Values next to a legal one: off by one, another word, another type, a nested copy."""
    if isinstance(value, bool):
        return [not value, 1, None]
    if isinstance(value, int):
        return [value - 1, value + 1, -value - 1, 0, 10**9, str(value), value + 0.5]
    if isinstance(value, str):
        return [w for w in WORDS if w != value] + [value.upper(), value + " ", value * 2, 0]
    if isinstance(value, list) and value:
        shapes = [[], value + value[:1], value[:-1], [[v] for v in value], "x"]
        first = value[0]
        for other in near(first)[:4]:  # one element changed
            shapes.append([other, *value[1:]])
        return shapes
    return JUNK


@per_variant
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), tweak=st.integers(0, 2**32 - 1), data=st.data())
def test_junk_near_miss_and_stale_actions_are_refused_or_listed_at_every_step(
    variant: Variant, seed: int, tweak: int, data: st.DataObject
) -> None:
    """At every step of a match: an action type with junk in every field; every action type
    that needs no field (pass, bluff, fold ...); a listed action with one field changed (a
    colour that does not exist, a count one too high, a card not in the hand, a stake below the
    minimum); an action that was legal earlier (a stale click, a replayed chat line). Each is
    refused with the match unchanged, or was listed: a rule check deleted from a game's
    `_apply` makes this fail."""
    game = variant.load()
    lo, hi = game.player_range
    players = data.draw(st.integers(lo, min(hi, 6)), label="players")
    rng = Rng(tweak)
    earlier: list[Any] = []
    bare_types = [
        kind.__name__
        for kind in game.action_types
        if all(f.default is not dataclasses.MISSING for f in dataclasses.fields(kind))
    ]
    for state in walk(game, players, seed):
        seat = rng.pick(sorted(state.to_act()))
        listed = state.legal_actions(seat)
        kind = rng.pick(game.action_types)
        probe(state, seat, {"type": kind.__name__, **{f.name: rng.pick(JUNK) for f in dataclasses.fields(kind)}})
        for bare in bare_types:  # PASS, BLUFF, FOLD...: cheap to try every one at every step
            probe(state, seat, {"type": bare})
        if seat == CHANCE and not listed:  # a node too big to list: start from what it draws
            listed = [state.sample_chance(rng)]
        with_fields = [a for a in listed if dataclasses.fields(a)]
        if with_fields:
            fields = rng.pick(with_fields).to_json()
            name = rng.pick(sorted(k for k in fields if k != "type"))
            fields[name] = rng.pick(near(fields[name]))
            probe(state, seat, fields)
        if earlier:
            probe(state, seat, rng.pick(earlier).to_json())
        earlier += listed[:10]


@per_variant
# ids must be the same in every process (pytest-xdist's workers compare them): a bare object's
# repr carries its address.
@pytest.mark.parametrize("thing", ["bid red 3", None, 3, {"type": "Bid"}, ("Bid",), object()],
                         ids=lambda thing: "object()" if type(thing) is object else repr(thing))
def test_apply_refuses_what_is_not_an_action_of_this_game(variant: Variant, thing: Any) -> None:
    game = variant.load()
    state = match_at(game, 5, 0.3)
    assert check_refused(state, min(state.to_act()), thing) == "unknown_action"


@per_variant
def test_an_action_of_another_game_is_refused(variant: Variant) -> None:
    game = variant.load()
    state = match_at(game, 5, 0.3)
    for other in games.available():
        if other == game.name:
            continue
        foreign = match_at(games.load(other), 5, 0.3)
        for seat in sorted(foreign.to_act() - {CHANCE}):
            for action in foreign.legal_actions(seat)[:3]:
                assert check_refused(state, min(state.to_act()), action) == "unknown_action"


def refusals(cases: Any, attempt: Any) -> list[str]:
    """Run `attempt(case)` for every case; the cases that did not end in a stable refusal (an
    IllegalAction or BadState with a code, or an OptionError), described."""
    wrong = []
    for case in cases:
        try:
            attempt(case)
        except OptionError:
            continue
        except Exception as exc:
            if isinstance(getattr(exc, "code", None), str):
                continue
            wrong.append(f"{case!r}: {type(exc).__name__}: {exc}")
        else:
            wrong.append(f"{case!r}: accepted")
    return wrong


@pending("action_from_json_non_mapping")
def test_action_from_json_refuses_what_is_not_an_object() -> None:
    cases = [(v, data) for v in VARIANTS for data in (None, "Bid", 7, ["Bid"])]
    assert refusals(cases, lambda case: case[0].load().action_from_json(case[1])) == []


@per_variant
def test_action_from_json_refuses_unknown_types_and_missing_fields(variant: Variant) -> None:
    game = variant.load()
    for data in ({}, {"type": "Teleport"}, {"type": None}, {"type": 3}):
        with pytest.raises(IllegalAction) as unknown:
            game.action_from_json(data)
        assert unknown.value.code == "unknown_action"
    for cls in game.action_types:
        required = [f for f in dataclasses.fields(cls) if f.default is dataclasses.MISSING]
        if required:
            with pytest.raises(IllegalAction) as missing:
                game.action_from_json({"type": cls.__name__})
            assert missing.value.code == "bad_action_fields"
        with pytest.raises(IllegalAction) as extra:
            game.action_from_json({"type": cls.__name__, **{f.name: 1 for f in required}, "bogus": 1})
        assert extra.value.code == "bad_action_fields"


# -- seats -----------------------------------------------------------------------------------
@per_variant
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), point=st.floats(0, 0.999))
def test_seats_that_do_not_exist_or_are_not_to_act_are_refused(variant: Variant, seed: int, point: float) -> None:
    game = variant.load()
    state = match_at(game, seed, point)
    assert not state.is_over
    waiting = state.to_act()
    actor = min(waiting)
    listed = state.legal_actions(actor)
    action = listed[0] if listed else state.sample_chance(Rng(seed))
    n = len(state.players)
    for seat in [*range(-1, n), n, 99, -2, "0", None, 1.5]:
        if seat in waiting:
            continue
        assert state.legal_actions(seat) == [], seat
        assert check_refused(state, seat, action) == "not_your_turn"


@per_variant
def test_a_finished_match_refuses_everything_and_lists_nothing(variant: Variant) -> None:
    game = variant.load()
    state = match_at(game, 2, 1.0)
    _, last = play_plain(game, len(state.players), 2, "random")[-1]
    assert state.is_over and state.to_act() == frozenset()
    for seat in range(-1, len(state.players)):
        assert state.legal_actions(seat) == []
        assert check_refused(state, seat, last) == "match_over"


# -- chat text -------------------------------------------------------------------------------
def test_parse_action_refuses_what_is_not_text() -> None:
    def parse(case: tuple[Variant, Any]) -> None:
        game = case[0].load()
        state = match_at(game, 5, 0.3)
        game.parse_action(min(state.to_act() - {CHANCE} or {0}), case[1], state)

    cases = [(v, text) for v in VARIANTS for text in (None, 3, 1.5, b"bid", ["bid"], {"bid": 1})]
    assert refusals(cases, parse) == []


CHAT = st.text(max_size=24) | st.lists(
    st.sampled_from([*WORDS, "bid", "予想", "-1", "3", "0.5", "12", "!"]), max_size=5
).map(" ".join)


@per_variant
@BAD_INPUT
@given(seed=st.integers(0, 2**16), point=st.floats(0, 0.999), text=CHAT, data=st.data())
def test_any_chat_line_parses_to_an_action_or_a_refusal(
    variant: Variant, seed: int, point: float, text: str, data: st.DataObject
) -> None:
    """Player text is untrusted: it becomes an action of this game or an IllegalAction, and the
    action then goes through the same door as any other."""
    game = variant.load()
    state = match_at(game, seed, point)
    seat = data.draw(st.sampled_from(range(len(state.players))))
    before = state.to_json()
    try:
        action = game.parse_action(seat, text, state)
    except IllegalAction as refused:
        assert refused.code and state.to_json() == before
        return
    assert isinstance(action, game.action_types) and state.to_json() == before
    refused_or_listed(state, seat, action)


# -- saved matches ---------------------------------------------------------------------------
def saved(variant: Variant) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(match_at(variant.load(), 5, 0.5).to_json())
    return data


def malformed(variant: Variant) -> list[tuple[str, str]]:
    """(what is wrong, text) for saved matches that are not matches of this game."""
    good = saved(variant)
    cases = [("not JSON", "junk"), ("truncated", json.dumps(good)[:-7]), ("a list", "[]"), ("empty", "{}")]
    cases.append(("another game", json.dumps({**good, "game": "chess"})))
    cases += [(f"no {key}", json.dumps({k: v for k, v in good.items() if k != key})) for key in good]
    cases += [
        ("state is a list", json.dumps({**good, "state": []})),
        ("options is text", json.dumps({**good, "options": "x"})),
    ]
    cases.append(("bad option", json.dumps({**good, "options": {**good["options"], "min_players": "many"}})))
    for key in good["state"]:
        cases.append(
            (
                f"state without {key}",
                json.dumps({**good, "state": {k: v for k, v in good["state"].items() if k != key}}),
            )
        )
    return cases


@per_variant
def test_from_json_refuses_another_game_and_bad_options(variant: Variant) -> None:
    game, good = variant.load(), saved(variant)
    with pytest.raises(ValueError, match="chess"):
        game.from_json(json.dumps({**good, "game": "chess"}))
    with pytest.raises(OptionError):
        game.from_json(json.dumps({**good, "options": {**good["options"], "min_players": "many"}}))


@pending("from_json_malformed")
def test_from_json_refuses_every_malformed_saved_match_with_a_stable_error() -> None:
    cases = [(v, what, text) for v in VARIANTS for what, text in malformed(v)]
    assert refusals(cases, lambda case: case[0].load().from_json(case[2])) == []


# -- options and players ----------------------------------------------------------------------
@pytest.mark.parametrize("name", ["chess", "", "WOOL_BLUFF", "wool_bluff "])
def test_an_unknown_game_is_an_option_error_listing_the_games(name: str) -> None:
    with pytest.raises(OptionError) as refused:
        games.load(name)
    assert refused.value.key == "game" and "wool_bluff" in refused.value.allowed


@pending("load_non_mapping")
def test_options_that_are_not_a_mapping_are_an_option_error() -> None:
    cases = [(v.game, options) for v in VARIANTS for options in ("x", 3, ["min_players"], True)]
    assert refusals(cases, lambda case: games.load(*case)) == []


@per_variant
@BAD_INPUT
@given(data=st.data())
def test_any_option_value_loads_or_is_an_option_error_naming_the_key(variant: Variant, data: st.DataObject) -> None:
    game = variant.load()
    key = data.draw(st.sampled_from(sorted(game.schema.fields)) | st.sampled_from(["bogus", "Turns", ""]))
    value = data.draw(junk)
    try:
        loaded = games.load(variant.game, {**dict(variant.options), key: value})
    except OptionError as refused:
        assert refused.allowed  # names what was wrong and what is allowed
        assert refused.key == key if key not in game.schema.fields else refused.key
        return
    lo, _ = loaded.player_range
    assert loaded.new_match(seat_names(lo), 1).to_act()  # what loads, plays


@per_variant
def test_bad_player_lists_are_option_errors(variant: Variant) -> None:
    game = variant.load()
    lo, hi = game.player_range
    for players in (
        seat_names(lo - 1),
        seat_names(hi + 1),
        ["a"] * lo,
        ["", *seat_names(lo - 1)],
        ["x" * 33, *seat_names(lo - 1)],
        ["a\nb", *seat_names(lo - 1)],
    ):
        with pytest.raises(OptionError) as refused:
            game.new_match(players, 1)
        assert refused.value.key == "players"
