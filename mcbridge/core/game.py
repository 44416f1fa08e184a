"""The contract every game implements (DESIGN.md §3).

`Game` holds checked options and knows the game's action types; `State` is one match.
`State.apply` is a template method: the checks that every game shares (match over, seat
not to act, foreign action type) happen here, then the game's `_apply` validates the
action fully *before* it mutates anything, which is how "state unchanged after a refused
action" holds for every game.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Protocol

from mcbridge.core import persist
from mcbridge.core.errors import BadState, IllegalAction, OptionError
from mcbridge.core.options import Struct
from mcbridge.core.result import Better, Result, Standing, ViewHeader, ranked
from mcbridge.core.rng import Rng
from mcbridge.core.seeds import Placeholder, load_seed, merge_options

#: The pseudo-seat that acts at chance nodes (deals, rolls, shuffles, reveals).
CHANCE = -1

MAX_NAME_LENGTH = 32

NOBODY: frozenset[int] = frozenset()


class _OneSeatSets(dict[int, frozenset[int]]):
    """seat -> `frozenset({seat})`, made on first use."""

    def __missing__(self, seat: int) -> frozenset[int]:
        found = self[seat] = frozenset((seat,))
        return found


#: `only(seat)` is `frozenset({seat})`, shared: `to_act` is asked several times per action,
#: so the common one-seat answer is built once per seat. A bound dict look-up is a C call
#: (no Python frame), cheaper than any function around a dict.
only: Callable[[int], frozenset[int]] = _OneSeatSets().__getitem__

ONLY_CHANCE = only(CHANCE)


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


def _tuples(value: Any) -> Any:
    """JSON lists back to tuples, since actions and events are frozen and hashable."""
    if isinstance(value, list):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


def _conforms(value: Any, hint: Any) -> bool:
    """Does a decoded JSON value fit a field's annotation? Covers what actions use: int (not
    bool), str, bool, float, None, unions, tuple[X, ...], tuple[X, Y] and Literal."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, a) for a in args)
    if origin is typing.Literal:
        return value in args
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_conforms(v, args[0]) for v in value)
        return len(value) == len(args) and all(_conforms(v, a) for v, a in zip(value, args, strict=True))
    if hint is type(None):
        return value is None
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True  # anything more exotic is the action's own __post_init__'s business


@dataclasses.dataclass(frozen=True)
class Action:
    """Base of every action: a frozen dataclass, JSON-able as {"type": name, ...fields}.

    Actions and events are made by the thousand per match; `__slots__` here and
    `slots=True` on the subclasses spare each one an instance dict."""

    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        return {"type": type(self).__name__, **_jsonable(self)}


@dataclasses.dataclass(frozen=True)
class Event:
    """Something that happened, for logs, chat and the web view. Never hidden information."""

    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        return {"type": type(self).__name__, **_jsonable(self)}


@dataclasses.dataclass(frozen=True, slots=True)
class FirstSeat(Action):
    """Chance: who goes first (the first predictor, opener, start player or dealer).

    One action for every game; the games' old names (FirstPredictor, FirstOpener,
    FirstStarter, FirstDealer) are aliases, in Python and in `Game.action_from_json`, so
    journals written before it existed replay unchanged.
    """

    seat: int


class Policy(Protocol):
    """A bot: picks an action from what one seat may see (its own view) and the legal list."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action: ...


class Game(ABC):
    """A game with its options; makes and restores matches."""

    name: ClassVar[str]
    schema: ClassVar[Struct]
    #: The game's match class: built as `state_class(game, players, seed)`,
    #: restored by `state_class.restore(game, data)`.
    state_class: ClassVar[type[State]]
    action_types: ClassVar[tuple[type[Action], ...]]
    event_types: ClassVar[tuple[type[Event], ...]] = ()
    #: Old action names a journal may hold -> the action type that replaced them.
    action_aliases: ClassVar[Mapping[str, type[Action]]] = {}
    #: `parse(seat, text, state) -> Action` of the game's parse module, and its bot's class.
    text_parser: ClassVar[staticmethod[[int, str, Any], Action]]
    bot_class: ClassVar[Callable[[], Policy]]

    def __init__(self, options: Mapping[str, Any] | None = None, seed_file: Path | None = None) -> None:
        if options is not None and not isinstance(options, Mapping):
            raise OptionError("options", options, 'a mapping of option names to values, e.g. {"turns": 3}')
        self.seed = load_seed(self.name, self.schema, seed_file)
        self.options: dict[str, Any] = merge_options(self.seed, options, self.schema)
        lo, hi = self.options["min_players"], self.options["max_players"]
        if lo > hi:
            raise OptionError("min_players", lo, f"at most max_players ({hi})")
        self._check_options()
        self._actions_by_name = {cls.__name__: cls for cls in self.action_types} | dict(self.action_aliases)
        self._last_players: tuple[str, ...] | None = None  # the cast `new_match` checked last
        #: action type -> "is it the core's FirstSeat?", for `State.apply`'s one dict look-up
        #: in place of two isinstance calls (one over the whole tuple of action types);
        #: a subclass of a listed type misses here and takes the isinstance path.
        self._first_seat_by_type: dict[type, bool] = {cls: issubclass(cls, FirstSeat) for cls in self.action_types}
        #: phase -> the view header's keys, in order, with those fixed for the phase filled
        #: (game, phase, score name, better, deadline); built as views are made
        self._header_of: dict[str, dict[str, Any]] = {}

    def _check_options(self) -> None:  # noqa: B027 - an optional hook, not an abstract method
        """Cross-field checks a game needs beyond the schema (raise OptionError)."""

    @property
    def placeholders(self) -> list[Placeholder]:
        return list(self.seed.placeholders)

    @property
    def player_range(self) -> tuple[int, int]:
        return int(self.options["min_players"]), int(self.options["max_players"])

    def new_match(self, players: Sequence[str], seed: int | str) -> State:
        names = [str(p) for p in players]
        if tuple(names) != self._last_players:  # a table starts match after match with one cast
            self._check_players(names)
            self._last_players = tuple(names)
        return self._new_state(names, seed)

    def _check_players(self, names: list[str]) -> None:
        lo, hi = self.player_range
        if not lo <= len(names) <= hi:
            allowed = f"exactly {lo} players" if lo == hi else f"{lo} to {hi} players"
            raise OptionError("players", names, allowed)
        for name in names:
            if not name or len(name) > MAX_NAME_LENGTH or not name.isprintable():
                raise OptionError("players", name, f"printable names of 1 to {MAX_NAME_LENGTH} characters")
        if len(set(names)) != len(names):
            raise OptionError("players", names, "distinct player names")

    def _new_state(self, players: list[str], seed: int | str) -> State:
        return self.state_class(self, players, seed)

    def from_json(self, text: str | bytes) -> State:
        """The match `State.to_json` wrote; BadState (a ValueError with a stable code) when
        the text is not one, OptionError when its options are not valid for this game."""
        try:
            data = json.loads(text)
        except (TypeError, ValueError) as exc:
            raise BadState("bad_json", error=str(exc)) from None
        if not isinstance(data, dict):
            raise BadState("bad_state", field="", expected="an object", value=type(data).__name__)
        if data.get("game") != self.name:
            raise BadState("wrong_game", game=data.get("game"), expected=self.name)
        for key in ("options", "state"):
            if not isinstance(data.get(key), dict):
                raise BadState("missing_field", field=key)
        # [decided here] the saved options are this game's own (the usual case: a table or a
        # replay restores its own matches): the match gets this game, not a copy built again
        # from the seed file and checked option by option; other options get their own game
        game = self if data["options"] == self.options else type(self)(data["options"])
        return game._restore(data["state"])

    def _restore(self, data: Mapping[str, Any]) -> State:
        return self.state_class.restore(self, data)

    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        if not isinstance(data, Mapping):
            raise IllegalAction("bad_action_fields", type=None, error=f"an object, not {type(data).__name__}")
        fields = dict(data)
        kind = fields.pop("type", None)
        cls = self._actions_by_name.get(str(kind))
        if cls is None:
            raise IllegalAction("unknown_action", type=kind)
        try:
            action = cls(**_tuples(fields))
        except (TypeError, ValueError) as exc:  # missing fields; or refused by __post_init__
            raise IllegalAction("bad_action_fields", type=kind, error=str(exc)) from None
        for name, hint in typing.get_type_hints(cls).items():
            value = getattr(action, name)
            if name in fields and not _conforms(value, hint):
                raise IllegalAction("bad_action_fields", type=kind, field=name, value=value)
        return action

    def parse_action(self, seat: int, text: str, state: State) -> Action:
        """Chat text ("bid red 12", "ブラフ") to an action; IllegalAction saying what is legal
        (the game's parse module refuses what is not text, with `not_text`)."""
        if not isinstance(state, self.state_class):
            raise TypeError(f"a {self.name} match is needed, not {type(state).__name__}")
        return type(self).text_parser(seat, text, state)

    def bot(self) -> Policy:
        return type(self).bot_class()


class State(ABC):
    """One match. Mutable; `apply` is the only way it changes.

    Every game is a phase machine: `phase` names where the match is, and "over" ends it.
    The class annotations below, and a game's own, declare every saved field
    (core/persist.py): `to_json` and `restore` are generic, and `to_json` refuses a match
    that holds an attribute nobody declared.
    """

    game: Game
    players: list[str]
    seed: int | str
    phase: str
    #: actions applied in this match, chance included
    seq: int

    #: Every phase the match can be in ("over" last); a saved match in another is refused.
    phases: ClassVar[tuple[str, ...]]
    #: The phase whose chance action is FirstSeat (who goes first).
    first_phase: ClassVar[str]
    #: What the score in results and view headers counts, and which way is better.
    score_name: ClassVar[str]
    better: ClassVar[Better]
    #: phase -> the `timeouts` option key that runs in it, where the names differ.
    deadline_phases: ClassVar[Mapping[str, str]] = {}

    def __init__(self, game: Game, players: list[str], seed: int | str) -> None:
        self.game = game
        self.players = players
        self.seed = seed
        self.seq = 0

    @classmethod
    def restore(cls, game: Game, data: Mapping[str, Any]) -> State:
        """The match `_dump` described, for `game`; BadState when a field is missing or malformed."""
        state = cls.__new__(cls)
        state.game = game
        persist.load(state, data)
        lo, hi = game.player_range
        if not lo <= len(state.players) <= hi:
            raise BadState("bad_state", field="players", expected=f"{lo} to {hi} players", value=state.players)
        if state.phase not in cls.phases:
            raise BadState("bad_state", field="phase", expected=" or ".join(cls.phases), value=state.phase)
        try:  # well-typed fields that do not fit together (a turn past the last seat, ...)
            state.to_act()
            state.view(None)
            state.result()
        except (LookupError, TypeError, ValueError, AssertionError, AttributeError, IllegalAction) as exc:
            raise BadState("inconsistent_state", error=f"{type(exc).__name__}: {exc}") from None
        return state

    # -- the contract -------------------------------------------------------------------
    @abstractmethod
    def to_act(self) -> frozenset[int]: ...

    def legal_actions(self, seat: int) -> list[Action]:
        """What `seat` may do now; empty for a seat that is not to act."""
        if seat not in self.to_act():
            return []
        if self.phase == self.first_phase:
            return [FirstSeat(s) for s in range(len(self.players))]
        return self._legal_actions(seat)

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of a seat that is to act (at a chance node: the outcomes, when
        they are few enough to list)."""

    def apply(self, seat: int, action: Action) -> list[Event]:
        if self.phase == "over":
            raise IllegalAction("match_over")
        waiting = self.to_act()
        if seat not in waiting:
            raise IllegalAction("not_your_turn", seat=seat, to_act=sorted(waiting))
        try:  # the action's exact type is one the game lists (nearly always)
            first_seat = self.game._first_seat_by_type[type(action)]
        except KeyError:
            if not isinstance(action, self.game.action_types):
                raise IllegalAction("unknown_action", type=type(action).__name__) from None
            first_seat = isinstance(action, FirstSeat)
        events = self._apply_first_seat(action) if first_seat else self._apply(seat, action)  # type: ignore[arg-type]
        self.seq += 1
        return events

    def _apply_first_seat(self, action: FirstSeat) -> list[Event]:
        if self.phase != self.first_phase:
            raise IllegalAction("wrong_phase", action=type(action).__name__, phase=self.phase)
        if type(action.seat) is not int or not 0 <= action.seat < len(self.players):
            raise IllegalAction("no_such_seat", seat=action.seat)
        return self._first_seat(action.seat)

    @abstractmethod
    def _first_seat(self, seat: int) -> list[Event]:
        """`seat` (checked) goes first: the game's event for it, then the match starts."""

    @abstractmethod
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Validate completely, then mutate. Raise IllegalAction before any change."""

    def sample_chance(self, rng: Rng) -> Action:
        if self.phase == self.first_phase:
            return FirstSeat(rng.below(len(self.players)))
        return self._sample_chance(rng)

    @abstractmethod
    def _sample_chance(self, rng: Rng) -> Action:
        """Draw the outcome of the chance node the match is at (not the first-seat one)."""

    def timeout_action(self, seat: int) -> Action:
        """The rules' default action for a seat that did not act in time."""
        if seat == CHANCE or seat not in self.to_act():
            raise IllegalAction("not_your_turn", seat=seat, to_act=sorted(self.to_act()))
        return self._timeout_action(seat)

    @abstractmethod
    def _timeout_action(self, seat: int) -> Action:
        """The default action of `seat`, which is to act (checked by `timeout_action`)."""

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """JSON-able; None = public. The shared `header` beside the game's own keys.

        The header is `header().to_json()` built in place (every view carries it, so the
        typed object, its copy into a dict and a call are skipped on this path; a test holds
        the two equal): what is fixed for a phase comes from a per-phase template, copied
        in C, and the rest is filled in, which keeps the key order."""
        view = self._view(seat)
        try:
            header = self.game._header_of[self.phase].copy()
        except KeyError:
            header = self._header_template().copy()
        header["players"] = list(self.players)
        header["to_act"] = sorted(self.to_act())
        header["scores"] = self.scores()
        header["seq"] = self.seq
        view["header"] = header
        return view

    @abstractmethod
    def _view(self, seat: int | None) -> dict[str, Any]:
        """The game-specific view; never hidden information another seat could not see."""

    def header(self) -> ViewHeader:
        return ViewHeader(
            game=self.game.name,
            phase=self.phase,
            players=tuple(self.players),
            to_act=tuple(sorted(self.to_act())),
            scores=tuple(self.scores()),
            score_name=self.score_name,
            better=self.better,
            seq=self.seq,
            deadline=self._deadline(self.phase),
        )

    def _header_template(self) -> dict[str, Any]:
        """The header keys of this phase with the per-phase values set (options are fixed once
        checked, so a template is kept per game and phase)."""
        phase = self.phase
        template = self.game._header_of[phase] = {
            "game": self.game.name,
            "phase": phase,
            "players": None,
            "to_act": None,
            "scores": None,
            "score_name": self.score_name,
            "better": self.better,
            "seq": None,
            "deadline": self._deadline(phase),
        }
        return template

    def _deadline(self, phase: str) -> str | None:
        """The `timeouts` key whose clock runs in `phase`, or None."""
        deadline = self.deadline_phases.get(phase, phase)
        return deadline if phase != "over" and deadline in (self.game.options.get("timeouts") or ()) else None

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    # -- results ------------------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score (what `score_name` counts)."""

    @abstractmethod
    def _rank_key(self, seat: int) -> Any:
        """Sort key of a seat in the standings: smaller is better, equal keys tie."""

    @abstractmethod
    def _row(self, seat: int, rank: int) -> dict[str, Any]:
        """The seat's standings line as JSON: "rank", "seat", "name", "winner", the score
        under `score_name` and whatever else the game reports, in display order."""

    def _eliminated(self, seat: int) -> bool:
        """Is the seat out of the match (for "(out)" in standings)? Games with eliminations say."""
        return False

    def _result_extra(self) -> dict[str, Any]:
        """Top-level result keys beside "over" and "standings" (the turn, the round, ...)."""
        return {}

    def result(self) -> Result:
        scores = self.scores()
        rows = []
        for rank, seat in ranked([self._rank_key(s) for s in range(len(self.players))]):
            row = self._row(seat, rank)
            rows.append(
                Standing(rank, seat, self.players[seat], scores[seat], bool(row["winner"]), self._eliminated(seat), row)
            )
        return Result(self.is_over, tuple(rows), self.score_name, self.better, self._result_extra())

    # -- persistence ----------------------------------------------------------------------
    def _dump(self) -> dict[str, Any]:
        """Every declared field of the match as JSON-able data (the inverse of `restore`)."""
        return persist.dump(self)

    def to_json(self) -> str:
        return json.dumps(
            {"game": self.game.name, "options": self.game.options, "state": self._dump()},
            ensure_ascii=False,
            sort_keys=True,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]  # mutable


def play_out(
    state: State,
    policy: Policy,
    rng: Rng,
    max_actions: int = 100_000,
    on_events: Callable[[list[Event]], None] | None = None,
) -> list[tuple[int, Action]]:
    """Play a match to the end with one policy for every seat; returns the (seat, action) log.

    Chance nodes draw from `rng`. Seats that act at the same time act in seat order, which
    the rules promise does not change the outcome. `on_events` sees each action's events.
    """
    log: list[tuple[int, Action]] = []
    while not state.is_over:
        if len(log) >= max_actions:
            raise RuntimeError(f"match did not end within {max_actions} actions")
        seat = min(state.to_act())  # CHANCE (-1) first, then the lowest seat
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            action = policy.choose(state.view(seat), state.legal_actions(seat), rng)
        events = state.apply(seat, action)
        if on_events is not None:
            on_events(events)
        log.append((seat, action))
    return log
