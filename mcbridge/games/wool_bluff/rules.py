"""One Wool Bluff match as a state machine (rules/wool_bluff.md).

Phases: ``first_predictor`` (chance) -> per turn: ``deal`` (chance, one seat at a time) ->
``discard`` (simultaneous, only seats with torches) -> ``bid`` / ``respond`` (alternating)
-> ``reveal`` (chance: the walls are read, possibly with tamper reports) -> next turn or
``over``. Every guard runs before any mutation so a refused action changes nothing.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mcbridge.core import Action, Event, IllegalAction, Rng, State
from mcbridge.core.game import NOBODY, ONLY_CHANCE, only
from mcbridge.core.seats import next_active, others_in_order
from mcbridge.games.wool_bluff.actions import (
    COLOURS,
    WILD,
    Bid,
    BidMade,
    Bluff,
    BluffCalled,
    Deal,
    Discard,
    DiscardRequired,
    Eliminated,
    FirstPredictorChosen,
    MatchOver,
    Penalised,
    Reveal,
    Revealed,
    TamperReported,
    Through,
    ThroughSaid,
    TurnStarted,
    WoolDealt,
    WoolDiscarded,
    wool_pairs,
)

if TYPE_CHECKING:
    from mcbridge.games.wool_bluff.game import WoolBluff

Hand = dict[str, int]
#: The one Through and Bluff that legal lists hand out (actions are immutable).
THROUGH, BLUFF, REVEAL = Through(), Bluff(), Reveal()


def count_for(colour: str, hands: list[Hand]) -> int:
    """Wool that counts for a bid: the colour plus white, or only white for a white bid."""
    total = sum(h.get(colour, 0) for h in hands)
    if colour != WILD:
        total += sum(h.get(WILD, 0) for h in hands)
    return total


class WoolBluffState(State):
    game: WoolBluff
    turn: int
    torches: list[int]
    eliminated_turn: list[int | None]
    forfeited: list[bool]
    drawn: list[Hand | None]  # this turn's deal (before discards)
    hands: list[Hand | None]  # this turn's wool in play
    discard_due: dict[int, int]
    predictor: int | None
    bid: dict[str, Any] | None  # {"colour", "count", "bidder"} (+ "caller" once called)
    responders: list[int]
    responses: list[tuple[int, str]]
    last_reveal: dict[str, Any] | None
    #: scratch: (wool per seat this turn, wool in play), worked out once after each change
    #: to the hands or to who is in (every view and bid asks); None = not worked out yet
    _wool: tuple[list[int | None], int] | None

    phases = ("first_predictor", "deal", "discard", "bid", "respond", "reveal", "over")
    first_phase = "first_predictor"
    score_name = "torches"
    better = "lower"

    def __init__(self, game: WoolBluff, players: list[str], seed: int | str) -> None:
        super().__init__(game, players, seed)
        n = len(players)
        self.phase = "first_predictor"
        self.turn = 0
        self.torches = [0] * n
        self.eliminated_turn = [None] * n
        self.forfeited = [False] * n
        self.drawn = [None] * n
        self.hands = [None] * n
        self.discard_due = {}
        self.predictor = None
        self.bid = None
        self.responders = []
        self.responses = []
        self.last_reveal = None
        self._wool = None

    # -- helpers --------------------------------------------------------------------------
    @property
    def hand_size(self) -> int:
        return self.game.hand_size

    @property
    def active(self) -> list[bool]:
        return [t is None for t in self.eliminated_turn]

    def active_seats(self) -> list[int]:
        return [s for s, t in enumerate(self.eliminated_turn) if t is None]

    @property
    def wool_in_play(self) -> int:
        return self._wool_counts()[1]

    def _wool_counts(self) -> tuple[list[int | None], int]:
        """Each seat's wool this turn (None before its deal) and the wool in play (seats
        still in); kept until a transition changes the hands or who is in."""
        found = self._wool
        if found is None:
            sizes = [sum(h.values()) if h is not None else None for h in self.hands]
            in_play = sum([n for n, t in zip(sizes, self.eliminated_turn, strict=True) if n and t is None])
            found = self._wool = (sizes, in_play)
        return found

    def _min_count(self) -> int:
        return 1 if self.bid is None else int(self.bid["count"]) + 1

    def _can_raise(self) -> bool:
        return self._min_count() <= self.wool_in_play

    # -- contract -------------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        phase = self.phase
        if phase == "bid":
            assert self.predictor is not None
            return only(self.predictor)
        if phase == "respond":
            return only(self.responders[0])
        if phase == "discard":
            return frozenset(self.discard_due)
        return NOBODY if phase == "over" else ONLY_CHANCE  # first_predictor, deal, reveal

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "bid":
            lowest, highest = self._min_count(), self.wool_in_play
            if lowest > highest:
                return [BLUFF]
            # [decided here] as in Dice Bluff: a few bids listed one by one, more as one
            # count range per colour (6 entries instead of up to 480)
            return list(self.game.bids(lowest, highest))
        if self.phase == "respond":
            return [THROUGH, BLUFF]
        if self.phase == "discard":
            drawn = self.drawn[seat] or {}
            due = self.discard_due[seat]
            # more of a colour than the discard takes changes nothing: capped, hands that
            # differ only there share one kept list (a small discard caps most colours)
            return list(_discards(tuple([min(drawn.get(c, 0), due) for c in COLOURS]), due))
        if self.phase == "reveal":
            return [REVEAL]
        return []  # deal: too many outcomes to list; see sample_chance

    def _sample_chance(self, rng: Rng) -> Action:
        if self.phase == "deal":
            game = self.game
            tally = rng.weighted_tally(game.options["weights"], game.hand_size)
            return Deal.canonical_for(self._next_to_deal(), game.dealt(tally))
        if self.phase == "reveal":
            return REVEAL
        raise IllegalAction("not_a_chance_node", phase=self.phase)

    def _timeout_action(self, seat: int) -> Action:
        if self.phase == "discard":
            rng = Rng.derived(self.seed, "timeout-discard", self.turn, seat)
            drawn = self.drawn[seat] or {}
            # COLOURS order, not dict order: a restored state (JSON sorts keys) must draw the same
            pool = [c for c in COLOURS for _ in range(drawn.get(c, 0))]
            chosen = rng.sample(pool, self.discard_due[seat])
            return Discard(wool_pairs({c: chosen.count(c) for c in set(chosen)}))
        if self.phase == "respond":
            return Through()
        # bid phase: the smallest legal raise, else BLUFF
        if not self._can_raise():
            return Bluff()
        if self.bid is not None:
            return Bid(str(self.bid["colour"]), self._min_count())
        hand = self.hands[seat] or {}
        colour = max(COLOURS, key=lambda c: (hand.get(c, 0), -COLOURS.index(c)))
        return Bid(colour, 1)

    # -- transitions ----------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Deal) and self.phase == "deal":
            return self._deal(action)
        if isinstance(action, Discard) and self.phase == "discard":
            return self._discard(seat, action)
        if isinstance(action, Bid) and self.phase == "bid":
            return self._bid(seat, action)
        if isinstance(action, Bluff) and self.phase in ("bid", "respond"):
            return self._bluff(seat)
        if isinstance(action, Through) and self.phase == "respond":
            return self._through(seat)
        if isinstance(action, Reveal) and self.phase == "reveal":
            return self._reveal(action)
        raise IllegalAction("wrong_phase", action=type(action).__name__, phase=self.phase)

    def _first_seat(self, seat: int) -> list[Event]:
        return [FirstPredictorChosen(seat), *self._start_turn(seat)]

    def _start_turn(self, predictor: int) -> list[Event]:
        self.turn += 1
        self.predictor = predictor
        self.bid = None
        self.responders = []
        self.responses = []
        self.drawn = [None] * len(self.players)
        self.hands = [None] * len(self.players)
        self.discard_due = {}
        self._wool = None
        self.phase = "deal"
        return [TurnStarted(self.turn, predictor)]

    def _next_to_deal(self) -> int:
        drawn = self.drawn
        for seat, out in enumerate(self.eliminated_turn):
            if out is None and drawn[seat] is None:
                return seat
        raise AssertionError("a deal phase always has a seat left to deal")

    def _deal(self, action: Deal) -> list[Event]:
        seat = action.seat
        expected = self._next_to_deal()
        if seat != expected:
            raise IllegalAction("deal_out_of_order", seat=seat, expected=expected)
        wool = dict(action.wool)  # canonical pairs: one count per colour
        total, size = sum(wool.values()), self.game.hand_size
        if total != size:
            raise IllegalAction("deal_wrong_size", count=total, hand_size=size)
        drawn = self.drawn
        drawn[seat] = wool
        self.hands[seat] = wool.copy()
        self._wool = None
        events: list[Event] = [WoolDealt(seat, total)]
        out = self.eliminated_turn
        if None not in [d for d, t in zip(drawn, out, strict=True) if t is None]:  # every seat still in is dealt
            torches = self.torches
            self.discard_due = {s: min(n, size) for s, n in enumerate(torches) if n > 0 and out[s] is None}
            events += [DiscardRequired(s, n) for s, n in sorted(self.discard_due.items())]
            self.phase = "discard" if self.discard_due else "bid"
        return events

    def _discard(self, seat: int, action: Discard) -> list[Event]:
        due = self.discard_due[seat]
        drawn = self.drawn[seat] or {}
        taken = dict(action.wool)  # canonical pairs: one count per colour
        total = sum(taken.values())
        if total != due:
            raise IllegalAction("discard_wrong_count", count=total, required=due)
        for colour, n in action.wool:
            if n > drawn.get(colour, 0):
                raise IllegalAction("discard_not_held", colour=colour, count=n, held=drawn.get(colour, 0))
        # COLOURS order, no zeros (as a deal holds it, whichever order a restore read)
        get = taken.get
        self.hands[seat] = {c: left for c in COLOURS if (left := drawn.get(c, 0) - get(c, 0))}
        self._wool = None
        del self.discard_due[seat]
        if not self.discard_due:
            self.phase = "bid"
        return [WoolDiscarded(seat, due)]

    def _bid(self, seat: int, action: Bid) -> list[Event]:
        if action.colour not in COLOURS:
            raise IllegalAction("unknown_colour", colour=action.colour, colours=list(COLOURS))
        lo, hi = self._min_count(), self.wool_in_play
        if lo > hi:  # not _can_raise()
            raise IllegalAction("no_raise_possible", wool_in_play=hi)
        if isinstance(action.count, bool) or not isinstance(action.count, int) or not lo <= action.count <= hi:
            raise IllegalAction("bid_out_of_range", count=action.count, min=lo, max=hi)
        self.bid = {"colour": action.colour, "count": action.count, "bidder": seat}
        self.responders = others_in_order(seat, self.active)
        self.responses = []
        self.phase = "respond"
        return [BidMade(seat, action.colour, action.count)]

    def _through(self, seat: int) -> list[Event]:
        self.responders.pop(0)
        self.responses.append((seat, "through"))
        events: list[Event] = [ThroughSaid(seat)]
        if not self.responders:
            assert self.predictor is not None
            self.predictor = next_active(self.predictor, self.active)
            self.phase = "bid"
        return events

    def _bluff(self, seat: int) -> list[Event]:
        if self.phase == "bid" and self._can_raise():
            raise IllegalAction("must_raise", min=self._min_count(), max=self.wool_in_play)
        assert self.bid is not None
        self.responses.append((seat, "bluff"))
        self.bid["caller"] = seat
        self.responders = []
        self.phase = "reveal"
        return [BluffCalled(seat, int(self.bid["bidder"]), str(self.bid["colour"]), int(self.bid["count"]))]

    def _reveal(self, action: Reveal) -> list[Event]:
        seen: set[int] = set()
        for seat, difference in action.tampered:
            if not 0 <= seat < len(self.players) or not self.active[seat] or seat in seen:
                raise IllegalAction("bad_tamper_report", seat=seat)
            seen.add(seat)
            try:
                wool_pairs({c: abs(n) for c, n in difference})  # colours and counts checked
            except (TypeError, ValueError):
                raise IllegalAction("bad_tamper_report", seat=seat, difference=difference) from None
        assert self.bid is not None
        colour, count = str(self.bid["colour"]), int(self.bid["count"])
        bidder, caller = int(self.bid["bidder"]), int(self.bid["caller"])
        active_seats = self.active_seats()
        hands = [self.hands[s] or {} for s in active_seats]
        actual = count_for(colour, hands)
        m = self.game.white_multiplier if colour == WILD else 1
        events: list[Event] = [
            Revealed(colour, count, actual, tuple([_pairs(h) for h in self.hands]))
        ]
        self.last_reveal = {
            "turn": self.turn,
            "colour": colour,
            "count": count,
            "actual": actual,
            "bidder": bidder,
            "caller": caller,
            "hands": [_copy(h) if t is None else None for h, t in zip(self.hands, self.eliminated_turn, strict=True)],
            "penalties": {},
            "tampered": [[s, dict(d)] for s, d in action.tampered],
        }
        if actual > count:
            penalties = {caller: (actual - count) * m}
            reason = "over"
        elif actual < count:
            penalties = {bidder: (count - actual) * m}
            reason = "under"
        else:
            penalties = {s: m for s in active_seats if s != bidder}
            reason = "exact"
        for seat, torches in sorted(penalties.items()):
            self.torches[seat] += torches
            events.append(Penalised(seat, torches, self.torches[seat], reason))
        self.last_reveal["penalties"] = {str(s): t for s, t in penalties.items()}
        for seat, difference in action.tampered:
            events.append(TamperReported(seat, difference))
            if self.game.options["tamper"] == "forfeit":
                self.forfeited[seat] = True
                self.eliminated_turn[seat] = self.turn
                events.append(Eliminated(seat, self.turn, forfeit=True))
        for seat in active_seats:
            if self.eliminated_turn[seat] is None and self.torches[seat] >= self.hand_size:
                self.eliminated_turn[seat] = self.turn
                events.append(Eliminated(seat, self.turn))
        self._wool = None  # seats may be out from here on
        return events + self._end_turn(bidder)

    def _end_turn(self, last_predictor: int) -> list[Event]:
        if self.turn >= self.game.turns or len(self.active_seats()) <= 1:
            self.phase = "over"
            self.predictor = None
            return [MatchOver(self.result().winners, tuple(self.torches))]
        return self._start_turn(next_active(last_predictor, self.active))

    # -- views and results ----------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        # every bot step reads a view: each list is built once here, copied in C where it
        # can be (no property or helper calls); every list and dict is the view's own
        out = self.eliminated_turn
        hand_sizes, wool_in_play = self._wool_counts()
        phase, bid, game = self.phase, self.bid, self.game
        min_count: int | None = None
        can_raise: bool | None = None
        if phase == "bid":
            min_count = 1 if bid is None else int(bid["count"]) + 1
            can_raise = min_count <= wool_in_play
        public: dict[str, Any] = {
            "game": "wool_bluff",
            "players": self.players.copy(),
            "phase": phase,
            "turn": self.turn,
            "turns": game.turns,
            "hand_size": game.hand_size,
            "torches": self.torches.copy(),
            "active": [t is None for t in out],
            "eliminated_turn": out.copy(),
            "forfeited": self.forfeited.copy(),
            "wool_counts": hand_sizes.copy(),
            "wool_in_play": wool_in_play,
            "predictor": self.predictor,
            "bid": bid.copy() if bid else None,
            "min_count": min_count,
            "can_raise": can_raise,
            "responses": list(map(list, self.responses)),
            "discard_pending": sorted(self.discard_due),
            "to_act": sorted(self.to_act()),
            "last_reveal": self.last_reveal,
            "weights": game.options["weights"].copy(),
            "white_multiplier": game.white_multiplier,
        }
        if seat is not None and 0 <= seat < len(self.players):
            hand, drawn = self.hands[seat], self.drawn[seat]
            public["seat"] = seat
            public["hand"] = hand.copy() if hand else None
            public["drawn"] = drawn.copy() if drawn else None
            public["must_discard"] = self.discard_due.get(seat, 0)
        return public

    def scores(self) -> list[int]:
        return list(self.torches)

    def _rank_key(self, seat: int) -> tuple[int, ...]:
        """Survivors, then the eliminated (later is better), then forfeits; fewer torches first."""
        if self.forfeited[seat]:
            return (2, 0, self.torches[seat])
        turn = self.eliminated_turn[seat]
        if turn is None:
            return (0, 0, self.torches[seat])
        return (1, -turn, self.torches[seat])

    def _eliminated(self, seat: int) -> bool:
        return self.eliminated_turn[seat] is not None

    def _row(self, seat: int, rank: int) -> dict[str, Any]:
        prize = self.game.options["prize"]
        winner = rank == 1 and not self.forfeited[seat]
        return {
            "rank": rank,
            "seat": seat,
            "name": self.players[seat],
            "torches": self.torches[seat],
            "eliminated_turn": self.eliminated_turn[seat],
            "forfeited": self.forfeited[seat],
            "winner": winner,
            "prize": {
                "item": prize["item"],
                "count": 0 if self.forfeited[seat] else prize["winner"] if winner else prize["others"],
            },
        }

    def _result_extra(self) -> dict[str, Any]:
        return {"turn": self.turn}


def _pairs(hand: Hand | None) -> tuple[tuple[str, int], ...]:
    """`wool_pairs` of a hand the rules built (known colours and counts: nothing to check)."""
    if not hand:
        return ()
    get = hand.get
    return tuple([(c, n) for c in COLOURS if (n := get(c))])


def _copy(hand: Hand | None) -> Hand | None:
    return dict(hand) if hand else None


@lru_cache(maxsize=8192)
def _discards(counts: tuple[int, ...], size: int) -> tuple[Action, ...]:
    """Every way to discard `size` wool from a hand (counts in COLOURS order), most of the
    first colour first. Hands repeat across turns and matches, so the list is kept.

    A hand not seen before still costs a walk over its ways: six nested count loops (one
    per colour, each bounded by what the later colours can still take, so every path ends
    in a way) and one look-up of the shared action per way, with no recursion and no
    tuple built per partial way (the earlier recursive form cost twice as much per hand).
    """
    c0, c1, c2, c3, c4, c5 = counts  # COLOURS: six colours, checked below the function
    r4 = c5  # what colours 5.., 4.., ... can take at most
    r3 = c4 + r4
    r2 = c3 + r3
    r1 = c2 + r2
    r0 = c1 + r1
    made, out = _DISCARDS, []
    if len(made) > MAX_DISCARDS_KEPT:  # big hands: keep the memo bounded
        made.clear()
    get = made.get
    # each colour takes from the most it can (its count, or what is left) down to the least
    # that leaves no more than the later colours can take (conditionals, not min/max calls)
    for t0 in range(c0 if c0 < size else size, (size - r0 if size > r0 else 0) - 1, -1):
        s1 = size - t0
        for t1 in range(c1 if c1 < s1 else s1, (s1 - r1 if s1 > r1 else 0) - 1, -1):
            s2 = s1 - t1
            for t2 in range(c2 if c2 < s2 else s2, (s2 - r2 if s2 > r2 else 0) - 1, -1):
                s3 = s2 - t2
                for t3 in range(c3 if c3 < s3 else s3, (s3 - r3 if s3 > r3 else 0) - 1, -1):
                    s4 = s3 - t3
                    for t4 in range(c4 if c4 < s4 else s4, (s4 - r4 if s4 > r4 else 0) - 1, -1):
                        way = (t0, t1, t2, t3, t4, s4 - t4)
                        action = get(way)
                        if action is None:  # canonical pairs: COLOURS order, no zeros
                            pairs = tuple([(c, n) for c, n in zip(COLOURS, way, strict=True) if n])
                            action = made[way] = Discard.canonical(pairs)
                        out.append(action)
    return tuple(out)


if len(COLOURS) != 6:  # pragma: no cover - `_discards` has one loop per colour
    raise AssertionError("_discards walks exactly six colours")

#: One Discard object per way to discard (counts in COLOURS order), shared by every list
#: that holds it (actions are immutable; with the default hands there are a few thousand).
_DISCARDS: dict[tuple[int, ...], Discard] = {}
MAX_DISCARDS_KEPT = 100_000
