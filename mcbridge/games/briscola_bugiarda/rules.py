"""One Briscola bugiarda match as a state machine (rules/briscola_bugiarda.md).

Phases: ``first_dealer`` (chance) -> per deal: ``shuffle`` (chance: the pack in order) ->
``auction`` (rank bids going down, solo, passes) -> ``trump`` (the declarer names a
suit; skipped after solo) -> ``play`` (eight may-follow tricks) -> scoring -> next deal
or ``over``.

The partner is never stored. It is *derived* from the cards: whoever holds (or has
played) the called card. So no field can leak it, and a test can move the called card to
another hand and prove every view stays the same until the card is played.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar

from mcbridge.core import Action, Event, IllegalAction, Rng, State
from mcbridge.core.game import NOBODY, ONLY_CHANCE, only
from mcbridge.core.seats import next_active
from mcbridge.games.briscola_bugiarda.actions import (
    PLAY_OF,
    Bid,
    BidMade,
    CallTrump,
    CardPlayed,
    ChipsChanged,
    DealScored,
    DealStarted,
    Dealt,
    DeclarerChosen,
    FirstDealerChosen,
    HiddenSoloRevealed,
    MatchOver,
    MustBid,
    PartnerRevealed,
    Pass,
    Passed,
    Play,
    Shuffle,
    Solo,
    SoloBid,
    TrickWon,
    TrumpCalled,
)
from mcbridge.games.briscola_bugiarda.cards import (
    DECK,
    POINTS,
    RANKS,
    SUITS,
    card,
    points_of,
    rank_of,
    sort_hand,
    strength,
    suit_of,
    trick_winner,
)
from mcbridge.games.briscola_bugiarda.scoring import settle

if TYPE_CHECKING:
    from mcbridge.games.briscola_bugiarda.game import BriscolaBugiarda

TRICKS = 8

# Legal lists are built from these shared, immutable actions: a table asks for one every
# action, and a frozen dataclass is slow to construct.
_BIDS = tuple(Bid(r) for r in RANKS)
_FORCED = (*_BIDS, Solo())
_CALLS = tuple(CallTrump(s) for s in SUITS)
_PASS = Pass()
#: (seat, card) -> its CardPlayed event, filled as cards are played (at most 40 per seat)
_CARD_PLAYED: dict[tuple[int, str], CardPlayed] = {}


class BriscolaState(State):
    game: BriscolaBugiarda
    deal: int
    dealer: int | None
    chips: list[int]
    hands: list[list[str]]
    turn: int | None
    # auction
    bids: list[tuple[int, str]]  # (seat, rank | "solo" | "pass") in order
    passed: list[bool]
    standing: tuple[int, str] | None  # (seat, rank) of the standing bid
    # contract
    declarer: int | None
    bid_rank: str | None
    solo: bool
    trump: str | None
    # play
    trick: list[tuple[int, str]]
    tricks: list[dict[str, Any]]  # {"leader", "cards": [[seat, card]], "winner", "points"}
    last_deal: dict[str, Any] | None
    # scratch (never saved): the frozen forms views share, with the field they were built from
    _tricks_frozen: tuple[list[dict[str, Any]], tuple[Mapping[str, Any], ...], tuple[int, ...]] | None
    _last_deal_frozen: tuple[dict[str, Any], Mapping[str, Any]] | None
    _deal_frozen: tuple[list[tuple[int, str]], tuple[int, int, str], Mapping[str, Any]] | None
    _reveal: tuple[list[dict[str, Any]], str, int, bool] | None  # (tricks, called card, seat, played it)

    phases = ("first_dealer", "shuffle", "auction", "trump", "play", "over")
    first_phase = "first_dealer"
    score_name = "chips"
    better = "higher"
    deadline_phases: ClassVar[Mapping[str, str]] = {"auction": "bid"}

    def __init__(self, game: BriscolaBugiarda, players: list[str], seed: int | str) -> None:
        super().__init__(game, players, seed)
        n = len(players)
        self.phase = "first_dealer"
        self.deal = 0
        self.dealer = None
        self.chips = [int(game.options["starting_chips"])] * n
        self.hands = [[] for _ in range(n)]
        self.turn = None
        self.bids = []
        self.passed = [False] * n
        self.standing = None
        self.declarer = None
        self.bid_rank = None
        self.solo = False
        self.trump = None
        self.trick = []
        self.tricks = []
        self.last_deal = None
        self._tricks_frozen = self._last_deal_frozen = self._deal_frozen = self._reveal = None

    # -- derived facts --------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def deals_total(self) -> int:
        return int(self.game.options["laps"]) * self.n

    @property
    def called_card(self) -> str | None:
        if self.solo or self.trump is None or self.bid_rank is None:
            return None
        return card(self.bid_rank, self.trump)

    def _played_by(self, code: str) -> int | None:
        """Who played `code` this deal (finished tricks, then the one on the table), if anyone."""
        for trick in self.tricks:
            for seat, c in trick["cards"]:
                if c == code:
                    return int(seat)
        return next((seat for seat, c in self.trick if c == code), None)

    def holder_of_called_card(self) -> int | None:
        """Who holds or played the called card (the partner, or the declarer in a hidden solo)."""
        return self._holder_of(self.called_card)

    def _holder_of(self, called: str | None) -> int | None:
        if called is None:
            return None
        for seat, hand in enumerate(self.hands):
            if called in hand:
                return seat
        return self._played_by(called)

    def partner(self) -> int | None:
        """The hidden partner (None for solo and hidden solo). Never shown before the reveal."""
        holder = self.holder_of_called_card()
        return None if holder == self.declarer else holder

    @property
    def called_card_played(self) -> bool:
        called = self.called_card
        return called is not None and self._played_by(called) is not None

    def points_won(self) -> list[int]:
        won = [0] * len(self.players)
        for t in self.tricks:
            won[t["winner"]] += t["points"]
        return won

    def _forced(self) -> bool:
        return self.standing is None and self.passed.count(False) == 1

    # -- contract -------------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        phase = self.phase
        if phase == "play" or phase == "auction":
            assert self.turn is not None
            return only(self.turn)
        if phase == "trump":
            assert self.declarer is not None
            return only(self.declarer)
        if phase == "over":
            return NOBODY
        return ONLY_CHANCE  # first_dealer, shuffle

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "play":
            hand = self.hands[seat]
            plays = list(map(PLAY_OF.get, hand))  # each card of the pack has its shared Play
            # all(): a Play is true, None is not (`None in plays` would call Play.__eq__ per card)
            return plays if all(plays) else [Play(c) for c in hand]  # type: ignore[return-value]
        if self.phase == "shuffle":
            return []  # 40! orders; see sample_chance
        if self.phase == "auction":
            if self._forced():
                return list(_FORCED)
            if self.standing is not None and self.standing[1] == RANKS[-1]:
                return [_PASS]
            below = RANKS.index(self.standing[1]) + 1 if self.standing else 0
            return [*_BIDS[below:], _FORCED[-1], _PASS]
        return list(_CALLS)  # trump

    def _sample_chance(self, rng: Rng) -> Action:
        if self.phase == "shuffle":
            return Shuffle(tuple(rng.shuffled(DECK)))
        raise IllegalAction("not_a_chance_node", phase=self.phase)

    def _timeout_action(self, seat: int) -> Action:
        """[decided here] A silent player passes (bids A when forced), names the suit where
        they hold the most card points, and plays their cheapest card."""
        hand = self.hands[seat]
        if self.phase == "auction":
            return Bid(RANKS[0]) if self._forced() else Pass()
        if self.phase == "trump":

            def weight(suit: str) -> tuple[int, int, int]:
                held = [c for c in hand if suit_of(c) == suit]
                return sum(points_of(c) for c in held), len(held), -SUITS.index(suit)

            return CallTrump(max(SUITS, key=weight))
        return Play(min(hand, key=lambda c: (points_of(c), suit_of(c) == self.trump, strength(c), c)))

    # -- transitions ----------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        if type(action) is Play and self.phase == "play":  # most actions are plays
            return self._play(seat, action)
        if isinstance(action, Shuffle) and self.phase == "shuffle":
            return self._shuffle(action)
        if isinstance(action, Bid) and self.phase == "auction":
            return self._bid(seat, action)
        if isinstance(action, Solo) and self.phase == "auction":
            return self._solo(seat)
        if isinstance(action, Pass) and self.phase == "auction":
            return self._pass(seat)
        if isinstance(action, CallTrump) and self.phase == "trump":
            return self._call_trump(seat, action)
        if isinstance(action, Play) and self.phase == "play":
            return self._play(seat, action)
        raise IllegalAction("wrong_phase", action=type(action).__name__, phase=self.phase)

    def _first_seat(self, seat: int) -> list[Event]:
        self.dealer = seat
        return [FirstDealerChosen(seat), *self._start_deal()]

    def _start_deal(self) -> list[Event]:
        assert self.dealer is not None
        self.deal += 1
        self.phase = "shuffle"
        self.turn = None
        self.bids = []
        self.passed = [False] * self.n
        self.standing = None
        self.declarer = self.bid_rank = self.trump = None
        self.solo = False
        self.trick = []
        self.tricks = []
        return [DealStarted(self.deal, self.dealer)]

    def _shuffle(self, action: Shuffle) -> list[Event]:
        cards = action.cards
        well_formed = isinstance(cards, tuple | list) and all(isinstance(c, str) for c in cards)
        if not well_formed or sorted(cards) != sorted(DECK):
            raise IllegalAction("bad_shuffle")
        assert self.dealer is not None
        each = len(DECK) // self.n
        self.hands = [sort_hand(action.cards[each * s : each * (s + 1)]) for s in range(self.n)]
        self.phase = "auction"
        self.turn = (self.dealer + 1) % self.n
        return [Dealt(each)]

    def _bid(self, seat: int, action: Bid) -> list[Event]:
        if action.rank not in RANKS:
            raise IllegalAction("unknown_rank", rank=action.rank, ranks=" ".join(RANKS))
        if self.standing is not None and RANKS.index(action.rank) <= RANKS.index(self.standing[1]):
            raise IllegalAction("bid_not_lower", rank=action.rank, standing=self.standing[1])
        self.standing = (seat, action.rank)
        self.bids.append((seat, action.rank))
        return [BidMade(seat, action.rank), *self._next_bidder(seat)]

    def _solo(self, seat: int) -> list[Event]:
        # [decided] after a bid of "2" the others may only pass (so no solo either)
        if self.standing is not None and self.standing[1] == RANKS[-1]:
            raise IllegalAction("only_pass", standing=self.standing[1])
        self.bids.append((seat, "solo"))
        self.declarer, self.solo = seat, True
        return [SoloBid(seat), *self._start_play()]

    def _pass(self, seat: int) -> list[Event]:
        if self._forced():
            raise IllegalAction("must_bid")
        self.passed[seat] = True
        self.bids.append((seat, "pass"))
        return [Passed(seat), *self._next_bidder(seat)]

    def _next_bidder(self, after: int) -> list[Event]:
        active = [not p for p in self.passed]
        if self.standing is not None and active.count(True) == 1:
            self.declarer, self.bid_rank = self.standing
            self.phase = "trump"
            self.turn = None
            return [DeclarerChosen(self.declarer, self.bid_rank)]
        self.turn = next_active(after, active)
        return [MustBid(self.turn)] if self._forced() else []

    def _call_trump(self, seat: int, action: CallTrump) -> list[Event]:
        if action.suit not in SUITS:
            raise IllegalAction("unknown_suit", suit=action.suit, suits=" ".join(SUITS))
        assert self.bid_rank is not None
        self.trump = action.suit
        called = card(self.bid_rank, action.suit)
        # nobody is told who holds the called card, not even whether it is a hidden solo
        return [TrumpCalled(seat, action.suit, self.bid_rank, called), *self._start_play()]

    def _start_play(self) -> list[Event]:
        self.phase = "play"
        self.turn = self.declarer  # the declarer leads the first trick
        return []

    def _play(self, seat: int, action: Play) -> list[Event]:
        code, hand, trick = action.card, self.hands[seat], self.trick
        if code not in hand:
            raise IllegalAction("card_not_held", card=code)
        # may-follow: any card in hand is legal
        hand.remove(code)
        trick.append((seat, code))
        played = _CARD_PLAYED.get((seat, code))
        if played is None:  # events are frozen, so one per seat and card serves every match
            played = _CARD_PLAYED[seat, code] = CardPlayed(seat, code, rank_of(code), suit_of(code))
        events: list[Event] = [played]
        if code[0] == self.bid_rank and code == self.called_card:  # a called card has the bid's rank
            if seat == self.declarer:
                events.append(HiddenSoloRevealed(seat, action.card))
            else:
                events.append(PartnerRevealed(seat, action.card))
        n = len(self.players)
        if len(trick) < n:
            self.turn = (seat + 1) % n
            return events
        winner = trick_winner(trick, self.trump)
        points = sum([POINTS[c[0]] for _, c in trick])  # what points_of answers
        tricks = self.tricks
        tricks.append({"leader": trick[0][0], "cards": [[s, c] for s, c in trick], "winner": winner, "points": points})
        self.trick = []
        self.turn = winner
        events.append(TrickWon(winner, len(tricks), points))
        if len(tricks) == TRICKS:
            events += self._score_deal()
        return events

    def _score_deal(self) -> list[Event]:
        assert self.declarer is not None
        partner = self.partner()
        won_by_seat = self.points_won()
        side = {self.declarer} | ({partner} if partner is not None else set())
        points = sum(won_by_seat[s] for s in side)
        won, unit, delta = settle(points, self.declarer, partner, self.n, self.game.options)
        kind = "solo" if self.solo else "partner" if partner is not None else "hidden_solo"
        events: list[Event] = [DealScored(self.declarer, points, unit, "won" if won else "lost", kind)]
        for seat, amount in enumerate(delta):
            self.chips[seat] += amount
            events.append(ChipsChanged(seat, amount, self.chips[seat]))
        self.last_deal = {
            "deal": self.deal,
            "dealer": self.dealer,
            "declarer": self.declarer,
            "bid": "solo" if self.solo else self.bid_rank,
            "trump": self.trump,
            "called_card": self.called_card,
            "partner": partner,
            "side": kind,
            "points": points,
            "points_by_seat": won_by_seat,
            "unit": unit,
            "won": won,
            "chips_change": delta,
        }
        return events + self._end_deal()

    def _end_deal(self) -> list[Event]:
        assert self.dealer is not None
        self.turn = None
        if self.deal >= self.deals_total:
            self.phase = "over"
            return [MatchOver(self.result().winners, tuple(self.chips))]
        self.dealer = (self.dealer + 1) % self.n
        return self._start_deal()

    # -- views and results ----------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        """A fresh top-level dict every time; inside it only fresh lists, tuples, read-only
        mappings and scalars, so a consumer cannot change the state (or the next view) through
        it. [decided here] What only bids, phases and deals change is built once per change
        (`_deal_view`), and finished tricks and the last deal's summary once per trick and
        deal (see `_frozen_tricks`); a view copies that and fills in what a card play changes."""
        deal_view = self._deal_view()
        called = deal_view["called_card"]
        revealed_by = self._revealed_by(called)
        trick = self.trick
        tricks, won = self._frozen_tricks()
        view = dict(deal_view)
        view["hand_sizes"] = tuple(map(len, self.hands))
        phase = self.phase  # to_act() without the frozenset and the sort (one seat or none)
        view["to_act"] = (
            [self.turn]
            if phase == "play" or phase == "auction"
            else [self.declarer]
            if phase == "trump"
            else sorted(self.to_act())
        )
        # who played the called card, once it is on the table
        view["called_card_played"] = revealed = revealed_by is not None
        view["partner"] = revealed_by if revealed and revealed_by != self.declarer else None
        view["hidden_solo"] = revealed and revealed_by == self.declarer
        view["trick"] = tuple(trick)  # (seat, card) tuples
        view["leader"] = trick[0][0] if trick else self.turn if phase == "play" else None
        view["tricks"] = tricks
        view["points_won"] = list(won)
        if seat is not None and 0 <= seat < len(self.players):
            view["seat"] = seat
            view["hand"] = tuple(self.hands[seat])
            view["role"] = self._role(seat, called, revealed_by)
        return view

    def _deal_view(self) -> Mapping[str, Any]:
        """The view's keys that change only with a bid, a pass, a phase or a deal, in view
        order (None where `_view` fills in the rest), built once per such change. The cache
        follows `bids` by identity (a new list every deal) and by length, and the phase."""
        key = (self.deal, len(self.bids), self.phase)
        cache = self._deal_frozen
        if cache is not None and cache[0] is self.bids and cache[1] == key:
            return cache[2]
        standing = self.standing
        built: dict[str, Any] = {
            "game": "briscola_bugiarda",
            "players": tuple(self.players),
            "phase": self.phase,
            "deal": self.deal,
            "deals": self.deals_total,
            "dealer": self.dealer,
            "chips": tuple(self.chips),
            "hand_sizes": None,
            "to_act": None,
            "bids": tuple(self.bids),  # (seat, bid) tuples
            "passed": tuple(self.passed),
            "standing": None if standing is None else MappingProxyType({"seat": standing[0], "rank": standing[1]}),
            "declarer": self.declarer,
            "bid_rank": self.bid_rank,
            "solo": self.solo,
            "trump": self.trump,
            "called_card": self.called_card,
            "called_card_played": None,
            "partner": None,
            "hidden_solo": None,
            "trick": None,
            "leader": None,
            "tricks": None,
            "points_won": None,
            "last_deal": self._frozen_last_deal(),
            **self.game.view_constants,
        }
        self._deal_frozen = (self.bids, key, built)
        return built

    def _revealed_by(self, called: str | None) -> int | None:
        """The seat that played the called card this deal; None while it is in a hand (or
        none is called). Once played it cannot change until the next deal; while held, it
        stays in the same hand until played. Both are kept, following `tricks` (a new list
        every deal) by identity; a holder that no longer holds it is looked for again."""
        if called is None:
            return None
        tricks, cache = self.tricks, self._reveal
        if cache is not None and cache[0] is tricks and cache[1] == called:
            if cache[3]:
                return cache[2]
            if called in self.hands[cache[2]]:
                return None
        for seat, hand in enumerate(self.hands):
            if called in hand:
                self._reveal = (tricks, called, seat, False)
                return None
        played_by = self._played_by(called)
        if played_by is not None:
            self._reveal = (tricks, called, played_by, True)
        return played_by

    def _frozen_tricks(self) -> tuple[tuple[Mapping[str, Any], ...], tuple[int, ...]]:
        """This deal's finished tricks as read-only mappings, frozen as each trick ends, with
        the points each seat won in them. The cache follows `tricks` by identity and length,
        so a new deal or a restore rebuilds it."""
        tricks, cache = self.tricks, self._tricks_frozen
        if cache is not None and cache[0] is tricks and len(cache[1]) == len(tricks):
            return cache[1], cache[2]  # most views: no trick ended since the last one
        if cache is None or cache[0] is not tricks or len(cache[1]) > len(tricks):
            cache = (tricks, (), (0,) * len(self.players))
        if len(cache[1]) < len(tricks):  # tricks are only ever added: freeze the new ones
            frozen, won = cache[1], list(cache[2])
            for trick in tricks[len(frozen) :]:
                won[trick["winner"]] += trick["points"]
            frozen += tuple(map(_freeze_trick, tricks[len(frozen) :]))
            cache = (tricks, frozen, tuple(won))
        self._tricks_frozen = cache
        return cache[1], cache[2]

    def _frozen_last_deal(self) -> Mapping[str, Any] | None:
        last = self.last_deal
        if last is None:
            return None
        cache = self._last_deal_frozen
        if cache is None or cache[0] is not last:
            frozen = MappingProxyType({k: tuple(v) if isinstance(v, list) else v for k, v in last.items()})
            self._last_deal_frozen = cache = (last, frozen)
        return cache[1]

    def _role(self, seat: int, called: str | None, revealed_by: int | None) -> str | None:
        """What `seat` knows of its own side, from its own cards: declarer, partner or defender."""
        if self.declarer is None:
            return None
        if seat == self.declarer:
            return "declarer"
        if called is None:
            return "defender" if self.solo else None  # before the trump is named
        return "partner" if revealed_by == seat or called in self.hands[seat] else "defender"

    def scores(self) -> list[int]:
        return list(self.chips)

    def _rank_key(self, seat: int) -> int:
        return -self.chips[seat]

    def _row(self, seat: int, rank: int) -> dict[str, Any]:
        return {"rank": rank, "seat": seat, "name": self.players[seat], "chips": self.chips[seat], "winner": rank == 1}

    def _result_extra(self) -> dict[str, Any]:
        return {"deal": self.deal}


def _freeze_trick(trick: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType({**trick, "cards": tuple(map(tuple, trick["cards"]))})
