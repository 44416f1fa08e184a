"""The rules-core contract as one reusable checker (DESIGN.md §3); this module holds no tests.

`play_checked` plays one match with a policy and, at every step, checks everything the
contract promises for any game: the accepted action was listed, the state moved, the JSON
round trip is lossless and the restored copy plays on identically, refused actions change
nothing, hidden information stays out of every view it does not belong to, and the game's
conservation laws hold. At the end the journal, stored as JSON, replays to an equal match.

The suite runs against the public API as it is on main and after the core refactor
(typed `Result`, `state.header()`, compact legal-action entries): `result_json`,
`header_seq` and `covers` below are the only places that know both forms. [decided here]
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from game_hooks import HOOKS, Hooks, copy_of

from mcbridge import games
from mcbridge.core import CHANCE, Action, Event, Game, IllegalAction, Policy, Rng, State
from mcbridge.core.policies import RandomPolicy
from mcbridge.games.cli import default_players


# -- one registry entry per game and ruleset --------------------------------------------------
@dataclasses.dataclass(frozen=True)
class Variant:
    """A game as the suite plays it: the registry name plus the options of one ruleset."""

    game: str
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def id(self) -> str:
        return self.game + "".join(f"-{value}" for _, value in self.options)

    def load(self) -> Game:
        return games.load(self.game, dict(self.options))


def variants() -> list[Variant]:
    """Every registered game, once per ruleset when its schema has a `ruleset` choice; so a
    game added to `mcbridge.games.GAMES` (or a ruleset added to a schema) joins the suite."""
    found: list[Variant] = []
    for name in games.available():
        game = games.load(name)
        default = game.options.get("ruleset")
        found.append(Variant(name))
        for choice in getattr(game.schema.fields.get("ruleset"), "choices", ()):
            if choice is not None and choice != default:
                found.append(Variant(name, (("ruleset", choice),)))
    return found


VARIANTS = variants()
VARIANT_IDS = [v.id for v in VARIANTS]


def hooks_for(game: Game) -> Hooks:
    return HOOKS[game.name]


def seat_names(count: int) -> list[str]:
    return [f"p{i}" for i in range(count)]


# -- compatibility with the typed core (branch `core`) ----------------------------------------
def result_json(state: State) -> dict[str, Any]:
    """`state.result()` as JSON data, whether it is a typed Result or today's dict."""
    result: Any = state.result()
    return result.to_json() if hasattr(result, "to_json") else result


def header_seq(state: State) -> int | None:
    """The header's action counter when the core has `header()`; None before."""
    header = getattr(state, "header", None)
    if header is None:
        return None
    return int(header().seq)


def covers(entry: Action, action: Action) -> bool:
    """Is `action` the listed `entry`, or inside it when `entry` is a compact form (the core's
    `ActionRange` of raises, which answers `in`)?"""
    return entry == action or (hasattr(type(entry), "__contains__") and action in entry)  # type: ignore[operator]


def is_listed(action: Action, legal: Sequence[Action]) -> bool:
    return action in legal or any(covers(entry, action) for entry in legal if type(entry) is not type(action))


# -- policies ------------------------------------------------------------------------------
class TypeFirstPolicy:
    """Picks an action type uniformly, then one of that type: reaches drops, stands, folds and
    all-ins far more often than a uniform pick among hundreds of raise amounts. The final pick
    goes through the core's RandomPolicy, which knows the compact legal forms."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        by_type: dict[str, list[Action]] = {}
        for action in legal:
            by_type.setdefault(type(action).__name__, []).append(action)
        return RandomPolicy().choose(view, by_type[rng.pick(sorted(by_type))], rng)


POLICY_KINDS = ("random", "type_first", "bot")


def policy(game: Game, kind: str) -> Policy:
    if kind == "bot":
        return game.bot()
    return TypeFirstPolicy() if kind == "type_first" else RandomPolicy()


# -- the checker -----------------------------------------------------------------------------
Journal = list[tuple[int, Action]]
#: every how many steps the round trip goes through `Game.from_json` (the other steps restore
#: the same JSON onto the same game object)
FULL_RESTORE_EVERY = 5
Step = Callable[[State, int, Action, list[Event]], None]


def restore(state: State, *, full: bool = True) -> State:
    """The match rebuilt from its JSON. `full` goes through `Game.from_json`, which also rebuilds
    the game from the options in the JSON; otherwise the same JSON is restored onto the same
    game object (what `from_json` does after re-reading the seed file, which dominates the cost
    of a step). [decided here] The playthroughs use the full path every few steps."""
    return state.game.from_json(state.to_json()) if full else copy_of(state)


def check_round_trip(state: State, copy: State) -> None:
    """The restored copy is the same match to everyone who looks at it."""
    assert copy == state
    assert copy.to_act() == state.to_act()
    assert copy.is_over == state.is_over
    for seat in [None, *range(len(state.players))]:
        assert copy.view(seat) == state.view(seat), seat
    for seat in state.to_act() - {CHANCE}:
        assert copy.legal_actions(seat) == state.legal_actions(seat)
        assert copy.timeout_action(seat) == state.timeout_action(seat)


def check_refused(state: State, seat: Any, action: Any, before: str | None = None) -> str:
    """`action` is not listed for `seat`: apply must refuse it and change nothing (an unlisted
    action that is accepted fails here, whatever it did). Returns the refusal code. `before`:
    the state's JSON, when the caller has it already."""
    before = state.to_json() if before is None else before
    waiting = state.to_act()
    try:
        state.apply(seat, action)
    except IllegalAction as refused:
        assert state.to_json() == before, (seat, action, refused.code)
        assert state.to_act() == waiting
        return refused.code
    raise AssertionError(f"seat {seat!r} was allowed {action!r}, which legal_actions did not list")


def check_idle_seats(state: State) -> None:
    """Every seat that is not to act has nothing legal, no timeout action, and is refused
    with `not_your_turn`."""
    waiting = state.to_act()
    actor = min(waiting)
    listed = state.legal_actions(actor)
    sample = listed[0] if listed and actor != CHANCE else None
    before = state.to_json()
    for seat in range(-1, len(state.players)):
        if seat in waiting:
            continue
        assert state.legal_actions(seat) == [], seat
        try:
            timeout = state.timeout_action(seat)
        except IllegalAction as refused:
            assert refused.code == "not_your_turn", refused
        else:
            raise AssertionError(f"seat {seat} is not to act but has the timeout action {timeout!r}")
        if sample is not None:
            assert check_refused(state, seat, sample, before) == "not_your_turn"


def check_no_chance_here(state: State, rng: Rng) -> None:
    """Only a chance node draws a chance outcome: anywhere else `sample_chance` refuses."""
    before = state.to_json()
    try:
        drawn = state.sample_chance(rng)
    except IllegalAction as refused:
        assert refused.code == "not_a_chance_node" and state.to_json() == before
    else:
        raise AssertionError(f"sample_chance drew {drawn!r} where {sorted(state.to_act())} are to act")


def check_privacy(state: State, hooks: Hooks, rng: Rng) -> None:
    """Twins differ only in hidden information: everyone but its owners sees the same thing."""
    for twin in hooks.twins(state, rng):
        assert twin.state.to_json() != state.to_json(), "the twin must really differ"
        for observer in [None, *range(len(state.players))]:
            if observer in twin.may_notice:
                continue
            assert twin.state.view(observer) == state.view(observer), (twin.what, observer)


def check_bot_ignores_hidden_information(state: State, seat: int, bot: Policy, hooks: Hooks, rng: Rng) -> None:
    """The bot decides from its own view: what it cannot see does not change its choice."""
    key = rng.randrange(2**31)
    mine = bot.choose(state.view(seat), state.legal_actions(seat), Rng(key))
    for twin in hooks.twins(state, rng):
        if seat not in twin.may_notice:
            other = bot.choose(twin.state.view(seat), twin.state.legal_actions(seat), Rng(key))
            assert other == mine, twin.what


def check_laws(state: State, hooks: Hooks) -> None:
    for law, (actual, expected) in hooks.laws(state).items():
        assert actual == expected, (law, actual, expected)


def check_accepted(before: State, after: State, seat: int, action: Action, events: list[Event], hooks: Hooks) -> None:
    """The action moved the match the way the rules say."""
    assert after.to_json() != before.to_json(), "an accepted action must change the match"
    json.dumps([e.to_json() for e in events])  # events are JSON-able
    if seat != CHANCE:
        expected = hooks.action_events.get(type(action).__name__)
        if expected is not None:
            said = [e for e in events if type(e).__name__ in expected and getattr(e, "seat", seat) == seat]
            assert said, (action, events)
            for field in dataclasses.fields(action):  # what the event repeats, it repeats right
                mine, told = getattr(action, field.name), getattr(said[0], field.name, None)
                if type(mine) is type(told) and isinstance(mine, int | str):
                    assert mine == told, (field.name, action, said[0])
    monotone = zip(hooks.never_decreasing(after), hooks.never_decreasing(before), strict=True)
    for index, (now, then) in enumerate(monotone):
        assert now >= then, (index, then, now)
    hooks.after_action(before, after, seat, action, events)


def check_result(state: State) -> None:
    result = result_json(state)
    json.dumps(result)
    assert result["over"] is True
    rows = result["standings"]
    assert sorted(row["seat"] for row in rows) == list(range(len(state.players)))
    assert [row["rank"] for row in rows] == sorted(row["rank"] for row in rows)
    assert rows[0]["rank"] == 1
    assert all(row["rank"] == 1 for row in rows if row["winner"])
    assert [row["name"] for row in sorted(rows, key=lambda r: r["seat"])] == state.players


def play_checked(
    game: Game,
    players: int,
    seed: int,
    kind: str,
    *,
    privacy: bool = True,
    on_step: Step | None = None,
) -> tuple[State, Journal]:
    """One match under every per-step check; returns the final state and the journal."""
    hooks = hooks_for(game)
    state = game.new_match(seat_names(players), seed)
    chooser = policy(game, kind)
    rng, probes = Rng(seed), Rng(seed ^ 0xC0FFEE)
    journal: Journal = []
    check_laws(state, hooks)
    previous: Action | None = None
    while not state.is_over:
        assert len(journal) < hooks.max_actions, "the match did not end"
        waiting = state.to_act()
        assert waiting, "a match that is not over has someone to act"
        seat = rng.pick(sorted(waiting))
        if seat == CHANCE:
            action = state.sample_chance(rng)
            listed = state.legal_actions(CHANCE)
            assert not listed or is_listed(action, listed), action  # chance may be too big to list
        else:
            legal = state.legal_actions(seat)
            assert legal, "a seat to act has something legal"
            for other in waiting - {CHANCE}:
                assert is_listed(state.timeout_action(other), state.legal_actions(other))
            if kind == "bot" and privacy:
                check_bot_ignores_hidden_information(state, seat, chooser, hooks, probes)
            action = chooser.choose(state.view(seat), legal, rng)
            assert is_listed(action, legal), action
        check_idle_seats(state)
        if CHANCE not in waiting:
            check_no_chance_here(state, probes)
        # (chance outcomes need not be listed, so a chance seat is not probed here)
        if previous is not None and seat != CHANCE and not is_listed(previous, state.legal_actions(seat)):
            check_refused(state, seat, previous)  # the last action again: mostly illegal by now
        if privacy:
            check_privacy(state, hooks, probes)
        copy = restore(state, full=len(journal) % FULL_RESTORE_EVERY == 0)
        check_round_trip(state, copy)
        events = copy.apply(seat, action)
        check_accepted(state, copy, seat, action, events, hooks)
        assert state.apply(seat, action) == events and state == copy
        state = copy  # the restored copy is the one that plays on
        journal.append((seat, action))
        assert game.action_from_json(json.loads(json.dumps(action.to_json()))) == action
        seq = header_seq(state)
        assert seq is None or seq == len(journal)
        check_laws(state, hooks)
        if on_step is not None:
            on_step(state, seat, action, events)
        previous = action
    assert state.to_act() == frozenset()
    for seat in range(len(state.players)):
        assert state.legal_actions(seat) == []
    check_round_trip(state, restore(state))
    check_result(state)
    check_replay(game, state, journal)
    return state, journal


def walk(game: Game, players: int, seed: int, kind: str = "random", journal: Journal | None = None) -> Iterator[State]:
    """The running match before each of its actions, with the seat and policy draws of
    `play_checked`; the caller may probe it between steps, as long as it leaves it unchanged.
    The actions taken are appended to `journal`."""
    state = game.new_match(seat_names(players), seed)
    chooser = policy(game, kind)
    rng = Rng(seed)
    while not state.is_over:
        yield state
        seat = rng.pick(sorted(state.to_act()))
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = chooser.choose(state.view(seat), state.legal_actions(seat), rng)
        state.apply(seat, action)
        if journal is not None:
            journal.append((seat, action))


def play_plain(game: Game, players: int, seed: int, kind: str) -> Journal:
    """The journal `play_checked` would produce, without the checks."""
    journal: Journal = []
    for _ in walk(game, players, seed, kind, journal):
        pass
    return journal


def check_replay(game: Game, state: State, journal: Journal) -> None:
    """The journal as a table stores it, (seat, action JSON), rebuilds the same match."""
    stored = json.dumps([[seat, action.to_json()] for seat, action in journal])
    replay = game.new_match(list(state.players), state.seed)
    for seat, data in json.loads(stored):
        replay.apply(seat, game.action_from_json(data))
    assert replay == state
    assert result_json(replay) == result_json(state)


def match_at(game: Game, seed: int, point: float, players: int | None = None, kind: str = "random") -> State:
    """A match stopped at `point` (0 = the start, 1 = the end) of its length, so any point in
    [0, 1) is a match that is still running."""
    names = seat_names(players or default_players(game))
    journal = play_plain(game, len(names), seed, kind)
    state = game.new_match(names, seed)
    for seat, action in journal[: int(point * len(journal))]:
        state.apply(seat, action)
    return state
