"""One Dice Bluff match as a state machine (rules/dice_bluff.md).

Phases: ``first_opener`` (chance) -> per round: ``roll`` (chance, one seat at a time) ->
``bid`` (one seat: bid, set aside, or challenge) with ``reroll`` (chance) after a
set-aside -> the challenge resolves at once -> next round or ``over``. Every guard runs
before any mutation, so a refused action changes nothing.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations, compress, repeat
from typing import TYPE_CHECKING, Any

from mcbridge.core import Action, Event, IllegalAction, Rng, State
from mcbridge.core.game import NOBODY, ONLY_CHANCE, only
from mcbridge.core.seats import next_active
from mcbridge.games.dice_bluff.actions import (
    FACES,
    Bid,
    BidMade,
    Challenge,
    Challenged,
    DiceLost,
    DiceRerolled,
    DiceRolled,
    DiceSetAside,
    Eliminated,
    FirstOpenerChosen,
    MatchOver,
    PalificoStarted,
    Reroll,
    Revealed,
    Roll,
    RoundStarted,
    SetAside,
    shared,
    sorted_dice,
)
from mcbridge.games.dice_bluff.ladder import Ladder, face_label, is_wild_bid, ladder, matching

if TYPE_CHECKING:
    from mcbridge.games.dice_bluff.game import DiceBluff
    from mcbridge.games.dice_bluff.options import DiceRules


_FACE_SET = frozenset(FACES)
_INT_ONLY = frozenset({int})

# The recurring actions and events, one object per value (actions.shared): only ever
# called with ints the rules checked or built.
_opener_chosen = shared(FirstOpenerChosen, 64)
_round_started = shared(RoundStarted)
_dice_rolled = shared(DiceRolled, 256)
_bid_made = shared(BidMade)
_challenged = shared(Challenged)
_dice_lost = shared(DiceLost)
_eliminated = shared(Eliminated)
_revealed = shared(Revealed)  # small matches reveal the same dice again and again
_match_over = shared(MatchOver, 256)


#: (seat, sorted cup) -> the Roll that draws it, and id -> that Roll for the ones the rules
#: drew: `_roll` skips the face check for a Roll it made itself (the dict keeps each one
#: alive, so an id here is never another object's). Bounded: past it, Rolls are built.
_ROLLS: dict[tuple[int, tuple[int, ...]], Roll] = {}
_DRAWN: dict[int, Roll] = {}
_ROLLS_KEPT = 4096


def _rolled(seat: int, cup: tuple[int, ...]) -> Roll:
    try:
        return _ROLLS[seat, cup]
    except KeyError:
        roll = Roll(seat, cup)
        if len(_ROLLS) < _ROLLS_KEPT:
            _ROLLS[seat, cup] = _DRAWN[id(roll)] = roll
        return roll


#: seat -> to_act() while it bids
_BIDDER: dict[int, frozenset[int]] = {}


def _cup(rng: Rng, dice: int) -> tuple[int, ...]:
    """`dice` dice rolled, sorted: the draws of `rng.roll(dice)`, the one-die cup (every
    seat's last die, every die of a one-die match) without the list and the sort."""
    if dice == 1:
        return (rng.below(6) + 1,)
    return tuple(sorted(rng.roll(dice)))


class DiceBluffState(State):
    game: DiceBluff
    round: int
    dice: list[int]  # dice each seat still owns
    hidden: list[list[int] | None]  # under the cup; None = not rolled yet
    aside: list[list[int]]  # set aside this round, public
    opener: int | None
    turn: int | None
    bid: Bid | None
    bidder: int | None
    history: list[tuple[int, int, int]]  # (seat, count, face) this round
    must_raise: bool  # set aside this turn: a raise must follow
    palifico_round: bool
    palifico_used: list[bool]
    eliminated_round: list[int | None]
    last_reveal: dict[str, Any] | None
    #: scratch: (standing bid, dice in play, palifico, ladder, start) of the last _ladder()
    _rungs: tuple[Bid | None, int, bool, Ladder, int] | None

    phases = ("first_opener", "roll", "bid", "reroll", "over")
    first_phase = "first_opener"
    score_name = "dice"
    better = "higher"

    def __init__(self, game: DiceBluff, players: list[str], seed: int | str) -> None:
        super().__init__(game, players, seed)
        n = len(players)
        self.phase = "first_opener"
        self.round = 0
        self.dice = [game.rules.dice_per_player] * n
        self.hidden = [None] * n
        self.aside = [[] for _ in range(n)]
        self.opener = None
        self.turn = None
        self.bid = None
        self.bidder = None
        self.history = []
        self.must_raise = False
        self.palifico_round = False
        self.palifico_used = [False] * n
        self.eliminated_round = [None] * n
        self.last_reveal = None
        self._rungs = None

    # -- helpers --------------------------------------------------------------------------
    @property
    def rules(self) -> DiceRules:
        return self.game.rules

    @property
    def active(self) -> list[bool]:
        return [d > 0 for d in self.dice]

    def active_seats(self) -> list[int]:
        return [s for s, d in enumerate(self.dice) if d > 0]

    @property
    def dice_in_play(self) -> int:
        return sum(self.dice)

    @property
    def palifico_face(self) -> int | None:
        """[decided here] In palifico the opening face binds every player, one-die players too."""
        return self.bid.face if self.palifico_round and self.bid is not None else None

    def _ladder(self) -> tuple[Ladder, int]:
        """The round's bid ladder (built once per kind of round and kept by the game) and the
        position of the lowest legal raise in it."""
        bid, palifico, total = self.bid, self.palifico_round, sum(self.dice)
        memo = self._rungs  # legal_actions then apply ask twice about the same state
        if memo is not None and memo[0] is bid and memo[1] == total and memo[2] == palifico:
            return memo[3], memo[4]
        rules = self.game.rules
        face = bid.face if palifico and bid is not None else None
        # Perudo forbids opening on pacos (outside palifico); Bluff allows a star opening.
        key = (total, palifico, face, bid is not None or rules.ruleset == "bluff")
        rungs = self.game.ladders.get(key)
        if rungs is None:
            rungs = self.game.ladders[key] = ladder(total, rules, *key[1:])
        start = rungs.above(bid, rules, palifico)
        self._rungs = (bid, total, palifico, rungs, start)
        return rungs, start

    def _bids(self) -> list[Bid]:
        rungs, start = self._ladder()
        return rungs.bids[start:]

    def _can_raise(self) -> bool:
        rungs, start = self._ladder()
        return start < len(rungs.bids)

    def _label(self, face: int) -> str:
        return face_label(face, self.game.rules, self.palifico_round)

    def _can_set_aside(self, seat: int) -> bool:
        """[decided] any turn of the round, adding dice each time. [decided here] once per
        turn (then the raise must follow), on the opening bid too, every hidden die may go
        (then nothing is re-rolled), and only while a raise still exists."""
        return self.game.rules.set_aside and not self.must_raise and bool(self.hidden[seat]) and self._can_raise()

    # -- contract -------------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        phase = self.phase
        if phase == "bid":
            try:  # asked twice or more per action: a subscript, not a call to only()
                return _BIDDER[self.turn]  # type: ignore[index]  # None fails below
            except KeyError:
                assert self.turn is not None
                found = _BIDDER[self.turn] = only(self.turn)
                return found
        return NOBODY if phase == "over" else ONLY_CHANCE  # first_opener, roll, reroll

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase != "bid":
            return []  # rolls: too many outcomes to list; see sample_chance
        rungs, start = self._ladder()
        # [decided here] a short ladder is listed bid by bid (cheapest to scan and to pick
        # from); a longer one as one count range per face, lowest raise first (six entries
        # instead of up to 480). Callers handle both: a ladder shrinks as dice are lost.
        actions: list[Action] = list(rungs.listing(start, self.bid is not None and not self.must_raise))
        if self.game.rules.set_aside and self._can_set_aside(seat):
            actions += _set_asides(tuple(sorted(self.hidden[seat] or ())))
        return actions

    def _sample_chance(self, rng: Rng) -> Action:
        if self.phase == "roll":
            seat = self._next_to_roll()
            return _rolled(seat, _cup(rng, self.dice[seat]))
        if self.phase == "reroll":
            assert self.turn is not None
            return Reroll(self.turn, sorted_dice(rng.roll(len(self.hidden[self.turn] or []))))
        raise IllegalAction("not_a_chance_node", phase=self.phase)

    def _timeout_action(self, seat: int) -> Action:
        """[decided here] A silent player makes the smallest legal raise (on the face they
        hold most when opening), or challenges when no raise is left. No randomness needed."""
        bids = self._bids()
        if not bids:
            return Challenge()
        if self.bid is None:
            own = (self.hidden[seat] or []) + self.aside[seat]
            face = max((b.face for b in bids), key=lambda f: (matching(own, f, self.rules, self.palifico_round), -f))
            return Bid(1, face) if Bid(1, face) in bids else bids[0]
        return bids[0]

    # -- transitions ----------------------------------------------------------------------
    def _first_seat(self, seat: int) -> list[Event]:
        return [_opener_chosen(seat), *self._start_round(seat)]

    def _apply(self, seat: int, action: Action) -> list[Event]:
        phase = self.phase
        if phase == "bid":
            assert self.turn is not None
            seat = self.turn  # == seat (apply checked), as the int the events and history keep
            if isinstance(action, Bid):
                return self._bid(seat, action)
            if isinstance(action, Challenge):
                return self._challenge(seat)
            if isinstance(action, SetAside):
                return self._set_aside(seat, action)
        elif phase == "roll" and isinstance(action, Roll):
            return self._roll(action)
        elif phase == "reroll" and isinstance(action, Reroll):
            return self._reroll(action)
        raise IllegalAction("wrong_phase", action=type(action).__name__, phase=phase)

    def _start_round(self, opener: int) -> list[Event]:
        self.round += 1
        self.opener = self.turn = opener
        n = len(self.players)
        self.hidden = [None] * n
        if any(self.aside) or len(self.aside) != n:  # else the empty lists stay (never changed in place)
            self.aside = [[] for _ in range(n)]
        self.bid = self.bidder = None
        self.history = []
        self.must_raise = False
        self.phase = "roll"
        events: list[Event] = [_round_started(self.round, opener, sum(self.dice))]
        if self.palifico_round:
            events.append(PalificoStarted(opener))
        return events

    def _next_to_roll(self) -> int:
        hidden = self.hidden
        for seat, dice in enumerate(self.dice):
            if dice and hidden[seat] is None:
                return seat
        raise AssertionError("a roll phase always has a seat left to roll")

    @staticmethod
    def _check_faces(dice: tuple[int, ...], expected: int) -> None:
        if len(dice) != expected:
            raise IllegalAction("wrong_dice_count", count=len(dice), expected=expected)
        if _INT_ONLY.issuperset(map(type, dice)) and _FACE_SET.issuperset(dice):
            return  # the common case, checked in C
        for d in dice:
            if type(d) is not int or not 1 <= d <= 6:
                raise IllegalAction("bad_face", face=d)

    def _roll(self, action: Roll) -> list[Event]:
        expected = self._next_to_roll()
        if action.seat != expected:
            raise IllegalAction("roll_out_of_order", seat=action.seat, expected=expected)
        dice = self.dice
        if len(action.dice) != dice[expected] or _DRAWN.get(id(action)) is not action:
            self._check_faces(action.dice, dice[expected])  # not a Roll the rules drew
        hidden = self.hidden
        hidden[expected] = sorted(action.dice)
        for seat in range(expected + 1, len(dice)):  # the seats before it have rolled
            if dice[seat] and hidden[seat] is None:
                break
        else:
            self.phase = "bid"  # every seat still in has rolled
        return [_dice_rolled(expected, dice[expected])]

    def _set_aside(self, seat: int, action: SetAside) -> list[Event]:
        if not self.rules.set_aside:
            raise IllegalAction("set_aside_not_allowed", ruleset=self.rules.ruleset)
        if self.must_raise:
            raise IllegalAction("already_set_aside")
        if not self._can_raise():
            raise IllegalAction("no_raise_possible", dice_in_play=self.dice_in_play)
        hidden = self.hidden[seat] or []
        if not action.dice:
            raise IllegalAction("set_aside_nothing")
        missing = Counter(action.dice) - Counter(hidden)
        if missing:
            raise IllegalAction("dice_not_held", dice=sorted(missing.elements()), hidden=list(hidden))
        left = list((Counter(hidden) - Counter(action.dice)).elements())
        self.aside[seat] = sorted(self.aside[seat] + list(action.dice))
        self.hidden[seat] = sorted(left)
        self.must_raise = True
        if left:
            self.phase = "reroll"
        return [DiceSetAside(seat, sorted_dice(action.dice), len(left))]

    def _reroll(self, action: Reroll) -> list[Event]:
        assert self.turn is not None
        if action.seat != self.turn:
            raise IllegalAction("roll_out_of_order", seat=action.seat, expected=self.turn)
        self._check_faces(action.dice, len(self.hidden[self.turn] or []))
        self.hidden[self.turn] = sorted(action.dice)
        self.phase = "bid"
        return [DiceRerolled(self.turn, len(action.dice))]

    def _bid(self, seat: int, action: Bid) -> list[Event]:
        rungs, start = self._ladder()
        count, face = action.count, action.face
        # A legal bid is one on the ladder at or above `start`: found by identity when it
        # came from legal_actions, else by value (ints only: True == 1 hashes alike).
        at = rungs.by_id.get(id(action), -1)
        if at < 0 or rungs.bids[at] is not action:
            at = rungs.position.get(action, -1) if type(count) is int and type(face) is int else -1
        if at < start:
            raise self._refusal(action, rungs, start)
        bid = rungs.bids[at]  # the ladder's own (equal) object, which the memo below knows
        memo = self._rungs  # (standing, dice in play, palifico, ladder, start) from _ladder()
        if self.bid is not None and memo is not None:
            # A raise stays on the same ladder (dice in play, palifico and its face are fixed
            # once a bid stands), so the next lowest raise is the next rung: no search.
            self._rungs = (bid, memo[1], memo[2], rungs, at + 1)
        self.bid, self.bidder = bid, seat
        self.history.append((seat, count, face))
        self.must_raise = False
        self.turn = next_active(seat, self.dice)
        return [_bid_made(seat, count, rungs.labels[at])]

    def _refusal(self, action: Bid, rungs: Ladder, start: int) -> IllegalAction:
        """The most useful reason a bid is not allowed."""
        if isinstance(action.face, bool) or action.face not in FACES:
            return IllegalAction("bad_face", face=action.face)
        count = action.count
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= self.dice_in_play:
            return IllegalAction("bid_out_of_range", count=action.count, max=self.dice_in_play)
        if start == len(rungs.bids):
            return IllegalAction("no_raise_possible", dice_in_play=self.dice_in_play)
        lowest = rungs.bids[start]
        if self.palifico_face is not None and action.face != self.palifico_face:
            return IllegalAction("palifico_face_fixed", face=self.palifico_face)
        if self.bid is None and is_wild_bid(action.face, self.rules, self.palifico_round):
            return IllegalAction("no_wild_opening")
        return IllegalAction(
            "bid_too_low",
            count=self.bid.count if self.bid else 0,
            face=self._label(self.bid.face) if self.bid else "",
            min_count=lowest.count,
            min_face=self._label(lowest.face),
        )

    def _challenge(self, seat: int) -> list[Event]:
        bid, bidder = self.bid, self.bidder
        if bid is None or bidder is None:
            raise IllegalAction("nothing_to_challenge")
        if self.must_raise:
            raise IllegalAction("must_raise_after_set_aside")
        rules, palifico, dice, aside = self.game.rules, self.palifico_round, self.dice, self.aside
        count, face = bid.count, bid.face
        wild = is_wild_bid(face, rules, palifico)
        label = rules.wild_label if wild else str(face)  # face_label()
        hidden = self.hidden
        if any(aside):  # cup and set-aside together, per seat
            cups = [sorted((cup or []) + out) if d else () for cup, out, d in zip(hidden, aside, dice, strict=True)]
        else:
            cups = [sorted(cup or ()) if d else () for cup, d in zip(hidden, dice, strict=True)]
        shown = tuple(map(tuple, cups))
        # matching(), on tuples: counted in C
        actual = sum(map(tuple.count, shown, repeat(face)))
        if not palifico and not wild:
            actual += sum(map(tuple.count, shown, repeat(rules.wild_face)))
        events: list[Event] = [_challenged(seat, bidder, count, label), _revealed(count, label, actual, shown)]

        one_or_difference = 1 if rules.penalty == "one" else abs(actual - count)
        if actual < count:
            losers, lose, reason = [bidder], one_or_difference, "under"
        elif actual > count:
            losers, lose, reason = [seat], one_or_difference, "over"
        elif rules.exact == "all_others":
            losers, lose, reason = [s for s, d in enumerate(dice) if d and s != bidder], 1, "exact"
        else:
            losers, lose, reason = [seat], 1, "exact"

        # [decided here] nobody pays more dice than they own
        paid = [(loser, min(lose, dice[loser])) for loser in losers]  # in seat order
        self.last_reveal = {
            "round": self.round,
            "bid": {"count": count, "face": face, "wild": wild},
            "bidder": bidder,
            "challenger": seat,
            "actual": actual,
            "dice": list(map(list, shown)),
            "losses": {str(loser): lost for loser, lost in paid},
            "reason": reason,
        }
        dropped_to_one: list[int] = []
        for loser, lost in paid:
            left = dice[loser] = dice[loser] - lost
            events.append(_dice_lost(loser, lost, left, reason))
            if not left:
                self.eliminated_round[loser] = self.round
                events.append(_eliminated(loser, self.round))
            elif left == 1 and not self.palifico_used[loser]:
                dropped_to_one.append(loser)

        still_in = list(compress(range(len(dice)), dice))
        if len(still_in) <= 1:
            self.phase = "over"
            self.turn = None
            events.append(_match_over(tuple(still_in), tuple(dice)))
            return events

        # [decided] (spec) the player who lost dice opens; on an exact hit the seat after the
        # bidder (the challenger), in each case skipping players who are out.
        opener = seat if reason == "exact" else losers[0]
        if not dice[opener]:
            opener = next_active(opener, dice)
        # [decided here] Palifico follows the first drop to one die; if several players drop
        # at once (only possible with exact=all_others) they all use up their palifico.
        self.palifico_round = rules.palifico and bool(dropped_to_one)
        if self.palifico_round:
            for s in dropped_to_one:
                self.palifico_used[s] = True
        events += self._start_round(opener)
        return events

    # -- views and results ----------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        public: dict[str, Any] = {
            "game": "dice_bluff",
            "players": list(self.players),
            "phase": self.phase,
            "round": self.round,
            "rules": dict(self.game.rules_json),
            "dice": list(self.dice),
            "active": self.active,
            "eliminated_round": list(self.eliminated_round),
            "hidden_counts": [len(h) if h is not None else 0 for h in self.hidden],
            "aside": [list(a) for a in self.aside],
            "dice_in_play": self.dice_in_play,
            "opener": self.opener,
            "turn": self.turn,
            "bid": None,
            "history": [list(h) for h in self.history],
            "must_raise": self.must_raise,
            "palifico_round": self.palifico_round,
            "palifico_face": self.palifico_face,
            "palifico_used": list(self.palifico_used),
            "to_act": sorted(self.to_act()),
            "last_reveal": self.last_reveal,
        }
        if self.bid is not None:
            public["bid"] = {
                "count": self.bid.count,
                "face": self.bid.face,
                "wild": is_wild_bid(self.bid.face, self.rules, self.palifico_round),
                "bidder": self.bidder,
            }
        if seat is not None and 0 <= seat < len(self.players):
            public["seat"] = seat
            hidden = self.hidden[seat]
            public["hidden"] = list(hidden) if hidden is not None else None
        return public

    def scores(self) -> list[int]:
        return list(self.dice)

    def _rank_key(self, seat: int) -> tuple[int, int]:
        """Survivors first; then by elimination order, later is better. [decided here] Players
        out in the same challenge (an exact hit can take several) share a rank."""
        out = self.eliminated_round[seat]
        return (0, 0) if out is None else (1, -out)

    def _eliminated(self, seat: int) -> bool:
        return self.eliminated_round[seat] is not None

    def _row(self, seat: int, rank: int) -> dict[str, Any]:
        return {
            "rank": rank,
            "seat": seat,
            "name": self.players[seat],
            "winner": self.is_over and self.eliminated_round[seat] is None,
            "dice": self.dice[seat],
            "eliminated_round": self.eliminated_round[seat],
        }

    def _result_extra(self) -> dict[str, Any]:
        return {"round": self.round}


@lru_cache(maxsize=4096)
def _set_asides(hidden: tuple[int, ...]) -> tuple[SetAside, ...]:
    """Every distinct pick of dice from a (sorted) cup, fewest first: cups repeat, so kept."""
    picks = {c for k in range(1, len(hidden) + 1) for c in combinations(hidden, k)}  # sorted tuples
    return tuple(SetAside(p) for p in sorted(picks, key=lambda p: (len(p), p)))
