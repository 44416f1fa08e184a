"""One Bribery match as a state machine (rules/bribery.md).

Phases: ``arrange`` (chance: remove an influencer unseen, order the pile) ->
``first_starter`` (chance) -> the deal, which needs the opening ``shuffle`` (chance) ->
per round: ``bet`` (one seat at a time; showdowns, ties and extensions resolve at once)
-> next round or ``over``. Draws that find the pile empty stop in ``shuffle`` until the
discards are shuffled into a new pile, then carry on where they were.

Before the opening shuffle every luck card waits in the discard pile, so the opening
shuffle and every later reshuffle are the same chance action. Every guard runs before any
mutation, so a refused action changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, TypeVar

from mcbridge.core import Action, Event, IllegalAction, Rng, State
from mcbridge.core.game import NOBODY, ONLY_CHANCE, only
from mcbridge.core.seats import active_from
from mcbridge.games.bribery.actions import (
    INFORMANT,
    REFILLS,
    AllIn,
    ArrangeInfluencers,
    Call,
    Called,
    CardsDiscarded,
    CardsDrawn,
    CardsShown,
    CarriedOver,
    DiscardsReshuffled,
    DrawShort,
    Fold,
    Folded,
    InfluencerRemoved,
    InfluencersArranged,
    InfluencerWon,
    LosersDraw,
    MatchOver,
    NoWinner,
    OutOfRound,
    Pass,
    Passed,
    PileShuffled,
    Raise,
    Raised,
    RoundStarted,
    Showdown,
    Shuffle,
    StartPlayerChosen,
    Tie,
    WentAllIn,
    WinnerDraws,
)
from mcbridge.games.bribery.bets import hand_bets
from mcbridge.games.bribery.options import Influencer, luck_deck

if TYPE_CHECKING:
    from mcbridge.games.bribery.game import Bribery


class BriberyState(State):
    game: Bribery
    round: int
    pile: list[int]  # the draw pile, top first (hidden)
    discard: list[int]  # face down (hidden); the box before setup
    supply: int  # face-up informants
    hands: list[list[int]]
    played: list[list[int]]  # this round, in the order played
    shown: list[int]  # how many of `played` are face up after a showdown
    status: list[str]  # this round: in | passed | folded | out (lost a tie)
    acted: list[bool]  # acted since the last raise
    highest: int  # the highest card count this round
    extension: int  # how many ties this round has gone through
    start: int | None
    turn: int | None
    influencer_pile: list[str]  # top first (hidden)
    unseen: list[str]  # removed unseen at setup (hidden)
    removed: list[str]  # left the game in play (public)
    stake: list[str]  # at stake this round, carried-over cards first
    owned: list[list[str]]
    pending: list[list[int]]  # [seat, cards still to draw], in order
    resume: str | None  # what follows the draws: deal_done | bet | round_done
    last_showdown: dict[str, Any] | None
    #: scratch (never saved): the read-only form views share, with the dict it was built from
    _showdown_frozen: tuple[dict[str, Any], Mapping[str, Any]] | None
    #: scratch: the view's part that bets, folds and passes leave alone (None: build it again)
    _round_frozen: dict[str, Any] | None
    #: scratch: each seat's VP, for `owned` (by identity) with these lengths
    _scores: tuple[list[list[str]], tuple[int, ...], tuple[int, ...]] | None

    phases = ("arrange", "first_starter", "shuffle", "bet", "over")
    first_phase = "first_starter"
    score_name = "vp"
    better = "higher"

    def __init__(self, game: Bribery, players: list[str], seed: int | str) -> None:
        super().__init__(game, players, seed)
        n = len(players)
        self.phase = "arrange"
        self.round = 0
        self.pile = []
        self.discard = luck_deck(game.options, n)
        self.supply = int(game.options["informants"])
        self.hands = [[] for _ in range(n)]
        self.played = [[] for _ in range(n)]
        self.shown = [0] * n
        self.status = ["in"] * n
        self.acted = [False] * n
        self.highest = 0
        self.extension = 0
        self.start = None
        self.turn = None
        self.influencer_pile = []
        self.unseen = []
        self.removed = []
        self.stake = []
        self.owned = [[] for _ in range(n)]
        self.pending = []
        self.resume = None
        self.last_showdown = None
        self._showdown_frozen = self._round_frozen = self._scores = None

    # -- helpers --------------------------------------------------------------------------
    @property
    def influencers(self) -> Mapping[str, Influencer]:
        return self.game.influencers

    def all_in(self, seat: int) -> bool:
        """Still in, no card left in hand, some played (all-in, as chip stacks would say: the
        hand is the stack, the cards played this round the pot)."""
        return self.status[seat] == "in" and not self.hands[seat] and bool(self.played[seat])

    def _next_to_act(self, after: int) -> int | None:
        """The next seat after `after` that must act: still in, not all-in, and either not yet
        acted since the last raise or short of the highest count (one pass, no helpers: it
        runs after every bet)."""
        status, hands, played, acted, highest = self.status, self.hands, self.played, self.acted, self.highest
        n = len(status)
        for step in range(1, n + 1):
            seat = (after + step) % n
            if status[seat] != "in" or (not hands[seat] and played[seat]):  # out, or all-in
                continue
            if not acted[seat] or len(played[seat]) < highest:
                return seat
        return None

    def vp(self, seat: int) -> int:
        return sum(map(self.game.vp_of.__getitem__, self.owned[seat]))

    # -- contract -------------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        if self.phase == "bet":
            assert self.turn is not None
            return only(self.turn)
        return NOBODY if self.phase == "over" else ONLY_CHANCE  # arrange, first_starter, shuffle

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase != "bet":
            return []  # arrangements and shuffles: too many to list; see sample_chance
        played = self.played[seat]
        return list(_legal_bets(tuple(self.hands[seat]), self.highest - len(played), not played, self.supply > 0))

    def _sample_chance(self, rng: Rng) -> Action:
        if self.phase == "arrange":
            cards = rng.shuffled(list(self.influencers))
            k = int(self.game.options["removed_influencers"])
            return ArrangeInfluencers(tuple(cards[:k]), tuple(cards[k:]))
        if self.phase == "shuffle":
            return Shuffle(tuple(rng.shuffled(self.discard)))
        raise IllegalAction("not_a_chance_node", phase=self.phase)

    def _timeout_action(self, seat: int) -> Action:
        """[decided here] A silent player makes the passive choice: pass for two cards on
        their first action (the closest thing to a check, which the game does not have),
        fold later. Deterministic, so no random stream is needed."""
        return Pass("two_cards") if not self.played[seat] else Fold()

    # -- transitions ----------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        """Bets, folds and passes change only what `_view` fills in itself, unless they end
        in a showdown (which drops `_round_frozen`); chance actions drop it here."""
        if self.phase == "bet":  # most actions are bets
            if isinstance(action, _BETS):
                return self._bet(seat, action)
            if isinstance(action, Pass):
                return self._pass(seat, action)
            if isinstance(action, Fold):
                self.status[seat] = "folded"
                return [_shared(Folded, seat), *self._advance(seat)]
        self._round_frozen = None
        if isinstance(action, ArrangeInfluencers) and self.phase == "arrange":
            return self._arrange(action)
        if isinstance(action, Shuffle) and self.phase == "shuffle":
            return self._shuffle(action)
        raise IllegalAction("wrong_phase", action=type(action).__name__, phase=self.phase)

    def _arrange(self, action: ArrangeInfluencers) -> list[Event]:
        k = int(self.game.options["removed_influencers"])
        everything = sorted(self.influencers)
        if len(action.removed) != k or sorted(action.removed + action.pile) != everything:
            raise IllegalAction("bad_arrangement", removed=k, cards=everything)
        self.unseen = list(action.removed)
        self.influencer_pile = list(action.pile)
        self.phase = "first_starter"
        return [InfluencersArranged(k, len(action.pile))]

    def _first_seat(self, seat: int) -> list[Event]:
        self._round_frozen = None
        self.start = seat
        # [decided here] the deal goes round from the start player, hand_size cards each
        hand_size = int(self.game.options["hand_size"])
        self.pending = [[s, hand_size] for s in active_from(seat, [True] * len(self.players))]
        self.resume = "deal_done"
        return [StartPlayerChosen(seat), *self._draw()]

    def _shuffle(self, action: Shuffle) -> list[Event]:
        if sorted(action.cards) != sorted(self.discard):
            raise IllegalAction("bad_shuffle", cards=len(action.cards), expected=len(self.discard))
        self.pile = list(action.cards)
        self.discard = []
        event: Event = PileShuffled(len(self.pile)) if self.round == 0 else DiscardsReshuffled(len(self.pile))
        return [event, *self._draw()]

    def _draw(self) -> list[Event]:
        """Serve the pending draws; stop in `shuffle` when the pile runs dry and discards exist.

        [decided here] The discards are reshuffled when a draw finds the pile empty (not the
        moment the pile empties), so every discard made by then joins the new pile.
        """
        events: list[Event] = []
        while self.pending:
            seat, want = self.pending[0]
            take = min(want, len(self.pile))
            if take:
                self.hands[seat] = sorted(self.hands[seat] + self.pile[:take])
                del self.pile[:take]
                events.append(_shared(CardsDrawn, seat, take))
            if want - take and self.discard:
                self.pending[0] = [seat, want - take]
                self.phase = "shuffle"
                return events
            if want - take:
                events.append(DrawShort(seat, want - take))  # [decided here] no cards anywhere: draw fewer
            self.pending.pop(0)
        resume, self.resume = self.resume, None
        if resume == "deal_done":
            return events + self._start_round()
        if resume == "bet":
            self.phase = "bet"
            assert self.turn is not None
            return events + self._advance(self.turn)
        return events + self._end_round()

    def _start_round(self) -> list[Event]:
        n = len(self.players)
        self.round += 1
        card = self.influencer_pile.pop(0)
        self.stake.append(card)
        self.played = [[] for _ in range(n)]
        self.shown = [0] * n
        self.status = ["in"] * n
        self.acted = [False] * n
        self.highest = 0
        self.extension = 0
        self.turn = self.start
        self.phase = "bet"
        assert self.start is not None
        return [_shared(RoundStarted, self.round, self.start, card, self.influencers[card].vp, len(self.stake))]

    def _pass(self, seat: int, action: Pass) -> list[Event]:
        if action.refill not in REFILLS:
            raise IllegalAction("unknown_refill", refill=action.refill, refills=list(REFILLS))
        if self.played[seat]:
            raise IllegalAction("pass_only_first")
        if action.refill == "card_and_informant" and self.supply == 0:
            raise IllegalAction("no_informant_left")  # [decided here] no half refill from an empty supply
        self.status[seat] = "passed"
        options = self.game.options
        if action.refill == "card_and_informant":
            self.supply -= 1
            self.hands[seat] = sorted([*self.hands[seat], INFORMANT])
            self.pending = [[seat, int(options["pass_draw_with_informant"])]]
        else:
            self.pending = [[seat, int(options["pass_draw"])]]
        self.resume = "bet"
        return [_shared(Passed, seat, action.refill), *self._draw()]

    def _bet(self, seat: int, action: Raise | Call | AllIn) -> list[Event]:
        hand, played, highest = self.hands[seat], self.played[seat], self.highest
        if isinstance(action, AllIn):
            if not hand:
                raise IllegalAction("empty_hand")
            cards: Sequence[int] = hand
            left: list[int] = []
            kind: type[Raised | Called | WentAllIn] = WentAllIn
        else:
            cards = action.cards  # whole numbers, ascending (the action's __post_init__)
            if not cards:
                raise IllegalAction("no_check")  # there is no check: a bet plays at least one card
            left = list(hand)
            for card in cards:
                if card not in left:
                    raise IllegalAction("cards_not_held", cards=_not_held(list(cards), hand), hand=list(hand))
                left.remove(card)
            count = len(played) + len(cards)
            if isinstance(action, Raise):
                if count <= highest:
                    raise IllegalAction("raise_too_small", count=count, highest=highest, need=highest - len(played) + 1)
                kind = Raised
            else:
                if count != highest:
                    raise IllegalAction("call_wrong_count", count=len(cards), need=highest - len(played))
                kind = Called
            left.sort()
        played += cards  # the state's own list: `hand` is replaced below, never extended
        self.hands[seat] = left
        count = len(played)
        if count > highest:
            self.highest = count
            self.acted = [False] * len(self.players)
        self.acted[seat] = True
        return [_shared(kind, seat, len(cards), count), *self._advance(seat)]

    def _advance(self, after: int) -> list[Event]:
        nxt = self._next_to_act(after)
        if nxt is None:
            return self._showdown()
        self.turn = nxt
        return []

    # -- showdown and resolution ----------------------------------------------------------
    def _showdown(self) -> list[Event]:
        self._round_frozen = None  # what follows changes the round's view
        if not any(self.played):
            return self._no_winner("nobody_bet")
        played, shown, status = self.played, self.shown, self.status
        counts = [cards.count(INFORMANT) for cards in played]  # informants per seat
        # luck values are at least 1 (options), so a sorted pick has its informants (0) first
        ordered = [sorted(cards) for cards in played]
        informants = sum(counts)
        mode = "low" if informants % 2 else "high"
        events: list[Event] = [_shared(Showdown, mode, informants)]
        contenders: list[int] = []
        totals: dict[int, int] = {}  # of the eligible: a luck card in play is needed to win
        # [decided here] Every card played this round turns face up, folded players' too:
        # their informants count, so the count must be checkable. After a tie only the new
        # cards are news.
        for s, cards in enumerate(played):
            total = sum(cards)  # luck_total: an informant is 0
            if len(cards) > shown[s]:
                shown[s] = len(cards)
                events.append(_shared(CardsShown, s, tuple(ordered[s][counts[s] :]), counts[s], total))
            if status[s] == "in":
                contenders.append(s)
                if len(cards) > counts[s]:  # informants alone never win
                    totals[s] = total
        eligible = list(totals)
        best = (min if mode == "low" else max)(totals.values()) if totals else None
        tied = [s for s, total in totals.items() if total == best]
        self.last_showdown = {
            "round": self.round,
            "extension": self.extension,
            "mode": mode,
            "informants": informants,
            "played": ordered,
            "contenders": contenders,
            "totals": {str(s): t for s, t in totals.items()},
            "tied": tied,
        }
        if not eligible:
            return events + self._no_winner("no_luck")
        if len(tied) == 1:
            return events + self._win(tied[0])
        if all(self.all_in(s) for s in tied):
            return events + self._no_winner("all_in_tie")
        return events + self._extend(tied, contenders, int(best or 0))

    def _extend(self, tied: list[int], contenders: list[int], total: int) -> list[Event]:
        """Tie: only the tied players bet again; every card stays in play, informants active."""
        events: list[Event] = [Tie(total, len(tied))]
        for s in contenders:
            if s not in tied:
                self.status[s] = "out"
                events.append(OutOfRound(s))
        self.extension += 1
        self.acted = [False] * len(self.players)
        # The tied players go on from their own counts; there is no check, so each must add
        # at least one card (or fold, or go all-in). Passing is over: it is not a first action.
        self.highest = max(len(self.played[s]) for s in tied)
        assert self.start is not None
        # [decided here] The extension's betting starts with the first tied player (able to
        # bet) in seat order from the round's start player.
        self.turn = self._next_to_act(self.start - 1)
        assert self.turn is not None  # not every tied player is all-in
        return events

    def _win(self, winner: int) -> list[Event]:
        won, self.stake = self.stake, []
        self.owned[winner] += won
        self.start = winner
        events: list[Event] = [_shared(InfluencerWon, winner, card, self.influencers[card].vp) for card in won]
        # [decided here] "Losers who bet": every other player who played a card this round
        # (folded or out of a tie too, passers not), drawing in seat order after the winner.
        bettors = [s for s in active_from(winner, [True] * len(self.players), include_start=False) if self.played[s]]
        events += self._discard_played()
        # [decided here] The seed's order (section 4): played cards to the discards, then the
        # effects, so a reshuffle for an effect's draw may include this round's cards.
        for card in won:
            effect = self.influencers[card]
            if effect.winner_draws:
                events.append(WinnerDraws(card, winner, effect.winner_draws))
                self.pending.append([winner, effect.winner_draws])
            if effect.losers_who_bet_draw and bettors:
                events.append(LosersDraw(card, effect.losers_who_bet_draw))
                self.pending += [[s, effect.losers_who_bet_draw] for s in bettors]
        self.resume = "round_done"
        return events + self._draw()

    def _no_winner(self, reason: str) -> list[Event]:
        """Nobody bet, or nobody with a luck card [decided here]: the stake carries over.
        All tied players all-in: the stake leaves the game. The start player stays."""
        events: list[Event] = [NoWinner(reason)]
        if reason == "all_in_tie":
            events += [InfluencerRemoved(card) for card in self.stake]
            self.removed += self.stake
            self.stake = []
        else:
            events += [CarriedOver(card) for card in self.stake]
        events += self._discard_played()
        self.resume = "round_done"
        return events + self._draw()

    def _discard_played(self) -> list[Event]:
        count = sum(len(cards) for cards in self.played)
        self.discard = sorted(self.discard + [c for cards in self.played for c in cards])
        self.played = [[] for _ in self.players]
        self.shown = [0] * len(self.players)
        return [_shared(CardsDiscarded, count)] if count else []

    def _end_round(self) -> list[Event]:
        if self.influencer_pile:
            return self._start_round()
        # [decided here] A stake still unclaimed after the last round leaves the game.
        events: list[Event] = [InfluencerRemoved(card) for card in self.stake]
        self.removed += self.stake
        self.stake = []
        self.phase = "over"
        self.turn = None
        self.status = ["in"] * len(self.players)
        return [*events, MatchOver(self.result().winners, tuple(self.vp(s) for s in range(len(self.players))))]

    # -- views and results ----------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        """A fresh dict whose lists are fresh; everything else in it is read-only (tuples,
        read-only mappings), so a consumer cannot change the state or the next view through
        it. [decided here] What only a showdown or a chance action changes is built once per
        change (`_round_view`); a view copies it and fills in what a bet, a fold or a pass
        changes."""
        status, hands, played = self.status, self.hands, self.played
        view = dict(self._round_view())
        view["phase"] = self.phase
        view["turn"] = self.turn
        view["to_act"] = [self.turn] if self.phase == "bet" else sorted(self.to_act())  # to_act() without the sort
        view["status"] = list(status)
        view["hand_counts"] = hand_counts = list(map(len, hands))  # (the keys keep the round view's order)
        view["all_in"] = (  # nobody is all-in while every hand holds a card, the usual case
            [st == "in" and not h and bool(p) for st, h, p in zip(status, hands, played, strict=True)]
            if 0 in hand_counts
            else [False] * len(hand_counts)
        )
        view["played_counts"] = counts = list(map(len, played))
        view["cards_on_table"] = sum(counts)
        view["highest"] = self.highest
        view["pile"] = len(self.pile)
        view["discard"] = len(self.discard)
        view["supply"] = self.supply
        if seat is not None and 0 <= seat < len(self.players):
            view["seat"] = seat
            view["hand"] = tuple(hands[seat])
            view["played"] = tuple(played[seat])
        return view

    def _round_view(self) -> Mapping[str, Any]:
        """The view's keys that bets, folds and passes leave alone, in view order (None where
        `_view` fills in the rest), kept until a chance action or a showdown drops it."""
        cached = self._round_frozen
        if cached is not None:
            return cached
        built: dict[str, Any] = {
            "game": "bribery",
            "players": tuple(self.players),
            "phase": None,
            "round": self.round,
            "rounds_left": len(self.influencer_pile),
            "start": self.start,
            "turn": None,
            "to_act": None,
            "status": None,
            "all_in": None,
            "hand_counts": None,
            "played_counts": None,
            "revealed": self._revealed(),
            "cards_on_table": None,
            "highest": None,
            "extension": self.extension,
            "stake": tuple(self.stake),
            "influencers": self.game.influencer_table,
            "influencer_pile": len(self.influencer_pile),
            "removed": tuple(self.removed),
            "removed_unseen": len(self.unseen),
            "owned": tuple(map(tuple, self.owned)),
            "vp": tuple(self.scores()),
            "pile": None,
            "discard": None,
            "supply": None,
            "last_showdown": self._frozen_showdown(),
        }
        self._round_frozen = built
        return built

    def _revealed(self) -> tuple[tuple[int, ...], ...]:
        """Each seat's face-up cards this round; none before the round's first showdown (most
        round views are built then, right after the deal)."""
        shown = self.shown
        if not any(shown):
            return ((),) * len(shown)
        return tuple([tuple(sorted(p[:k])) if k else () for p, k in zip(self.played, shown, strict=True)])

    def _frozen_showdown(self) -> Mapping[str, Any] | None:
        """The last showdown, read-only, frozen once per showdown (followed by identity)."""
        last = self.last_showdown
        if last is None:
            return None
        cache = self._showdown_frozen
        if cache is None or cache[0] is not last:
            frozen = MappingProxyType(
                {
                    **last,
                    "played": tuple(map(tuple, last["played"])),
                    "contenders": tuple(last["contenders"]),
                    "totals": MappingProxyType(dict(last["totals"])),
                    "tied": tuple(last["tied"]),
                }
            )
            self._showdown_frozen = cache = (last, frozen)
        return cache[1]

    def standing_key(self, seat: int) -> tuple[int, ...]:
        """Most VP; then most influencer cards; then who holds each tie-break card in order."""
        owned = self.owned[seat]
        return (self.vp(seat), len(owned), *(int(card in owned) for card in self.game.options["tiebreak"]))

    def scores(self) -> list[int]:
        """Each seat's VP. Every view's header asks, and cards are only ever added to `owned`,
        so the sums are kept while `owned` is the same list with the same lengths."""
        owned = self.owned
        lengths = tuple(map(len, owned))
        cache = self._scores
        if cache is None or cache[0] is not owned or cache[1] != lengths:
            vp_of = self.game.vp_of
            cache = self._scores = (owned, lengths, tuple([sum([vp_of[card] for card in cards]) for cards in owned]))
        return list(cache[2])

    def _rank_key(self, seat: int) -> tuple[int, ...]:
        return tuple(-k for k in self.standing_key(seat))

    def _row(self, seat: int, rank: int) -> dict[str, Any]:
        return {
            "rank": rank,
            "seat": seat,
            "name": self.players[seat],
            "winner": self.is_over and rank == 1,
            "vp": self.vp(seat),
            "influencers": len(self.owned[seat]),
            "cards": list(self.owned[seat]),
        }

    def _result_extra(self) -> dict[str, Any]:
        return {"round": self.round}


def _not_held(cards: list[int], hand: list[int]) -> list[int]:
    """The cards of a bet asked for more often than the hand holds them."""
    return sorted((Counter(cards) - Counter(hand)).elements())


_BETS = (Raise, Call, AllIn)
#: (event type, *fields) -> the event, filled as events happen. Events are frozen, so one per
#: kind and fields serves every match; their fields are seats, counts, totals, refills and
#: influencer names, and a showdown's sorted luck cards (multisets of a few values: some
#: thousands in practice, but custom decks could make more, hence `_SHARED_MAX`).
_EVENTS: dict[tuple[Any, ...], Any] = {}
_SHARED_MAX = 1 << 16  # [decided here] then start afresh: memory stays bounded on a long-running server
_E = TypeVar("_E", bound=Event)


def _shared(kind: type[_E], *fields: Any) -> _E:
    """The shared event of this kind with these fields (built once: a frozen dataclass costs
    a setattr per field, a showdown makes several)."""
    key = (kind, *fields)
    found = _EVENTS.get(key)
    if found is None:
        if len(_EVENTS) >= _SHARED_MAX:
            _EVENTS.clear()
        found = _EVENTS[key] = kind(*fields)
    return found


_PASS_TWO = Pass("two_cards")
_PASS_INFORMANT = Pass("card_and_informant")
_FOLD = Fold()
_ALL_IN = AllIn()


@lru_cache(maxsize=8192)
def _legal_bets(hand: tuple[int, ...], need: int, first: bool, informants_left: bool) -> tuple[Action, ...]:
    """Every legal action of a seat to bet, from what decides it: its (sorted) hand, how many
    more cards would equal the highest count, whether it has not played yet this round, and
    whether the informant supply is not empty. Built once per key from the hand's shared
    bets (keys repeat across turns and matches); `_legal_actions` hands out a fresh list."""
    actions: list[Action] = []
    if first:
        actions.append(_PASS_TWO)
        if informants_left:
            actions.append(_PASS_INFORMANT)
    actions.append(_FOLD)  # [decided here] at any time; as a first action it is a pass without refill
    actions += hand_bets(hand).bets(need)
    if hand:
        actions.append(_ALL_IN)  # also when it equals a raise or call with every card
    return tuple(actions)
