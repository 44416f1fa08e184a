"""One Braff match as a state machine (rules/braff.md).

Phases: ``first_dealer`` (chance) -> per round: ``shuffle`` (chance: both decks in order)
-> ``discard`` (from the dealer, one seat at a time) -> ``open`` (the dealer declares a
cup) -> ``bet`` (call / raise / all-in / drop, round and round until play returns to the
highest player and they stand) -> ``doubt`` (the chain, from the dealer) -> show (no
decision, resolved inside the last doubt) -> next round or ``over``.

Chips live in a `ChipStacks`: stacks plus this round's contributions (the stakes). The
pot is the sum of the stakes; chips carried from a no-game or odd chips sit in `carry`.
stacks + pot + carry is constant for the whole match (the conservation property).
Every guard runs before any mutation, so a refused action changes nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from mcbridge.core import Action, Event, IllegalAction, Rng, State
from mcbridge.core.chips import ChipStacks
from mcbridge.core.game import NOBODY, ONLY_CHANCE, only
from mcbridge.core.legal import MAX_LISTED, ActionRange
from mcbridge.core.seats import active_from, next_active
from mcbridge.games.braff.actions import (
    DOUBT_KINDS,
    AllIn,
    Call,
    Called,
    CardDiscarded,
    Carried,
    Dealt,
    Discard,
    Discarded,
    Doubt,
    DoubtGiven,
    Drop,
    Dropped,
    Exposed,
    FirstDealerChosen,
    MatchOver,
    NoGame,
    Opened,
    OpenedAllIn,
    PotWon,
    Raise,
    Raised,
    RoundStarted,
    Shown,
    Shuffle,
    Stand,
    Stood,
    WentAllIn,
    WonUnseen,
)
from mcbridge.games.braff.cards import COLOURS, cup_label, cup_ordinal, deck_cards, sort_cards
from mcbridge.games.braff.showdown import exposure, pots, settle

if TYPE_CHECKING:
    from mcbridge.games.braff.game import Braff


class BraffState(State):
    game: Braff
    round: int
    dealer: int | None
    chips: ChipStacks
    carry: int
    # this round's hidden deal (cleared when the round ends; the show record keeps what was revealed)
    characters: list[str | None]
    hands: list[list[str]]
    pile: list[str]
    # this round's public state
    discards: list[list[str] | None]
    queue: list[int]  # seats still to discard, or still to give a doubt card
    in_round: list[bool]  # False once dropped
    all_in: int | None
    highest_seat: int | None
    highest_cup: int | None
    turn: int | None  # whose bet it is
    doubts: list[tuple[int, int, str]]  # (giver, receiver, kind)
    last_round: dict[str, Any] | None

    phases = ("first_dealer", "shuffle", "discard", "open", "bet", "doubt", "over")
    first_phase = "first_dealer"
    score_name = "chips"
    better = "higher"
    deadline_phases: ClassVar[Mapping[str, str]] = {"open": "bet"}

    def __init__(self, game: Braff, players: list[str], seed: int | str) -> None:
        super().__init__(game, players, seed)
        n = len(players)
        self.phase = "first_dealer"
        self.round = 0
        self.dealer = None
        self.chips = ChipStacks([int(game.options["starting_chips"])] * n)
        self.carry = 0
        self.characters = [None] * n
        self.hands = [[] for _ in range(n)]
        self.pile = []
        self.discards = [None] * n
        self.queue = []
        self.in_round = [True] * n
        self.all_in = None
        self.highest_seat = None
        self.highest_cup = None
        self.turn = None
        self.doubts = []
        self.last_round = None

    # -- helpers --------------------------------------------------------------------------
    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def lap(self) -> int:
        return (max(self.round, 1) - 1) // self.n + 1

    @property
    def discard_cost(self) -> int:
        """Chips per discarded card: L in lap L (only pattern 2 goes past lap 1)."""
        return self.lap

    @property
    def rounds_limit(self) -> int:
        laps = 1 if self.game.options["end_pattern"] == 1 else int(self.game.options["max_laps"])
        return self.n * laps

    def live_seats(self) -> list[int]:
        return [s for s in range(self.n) if self.in_round[s]]

    @property
    def highest_stake(self) -> int:
        return max((self.chips.contributions[s] for s in self.live_seats()), default=0)

    def _total(self, seat: int) -> int:
        """What a seat could stake in all: chips already in plus chips in front of them."""
        return self.chips.stacks[seat] + self.chips.contributions[seat]

    def _required(self, minimum: int) -> int:
        # [decided] a raise needs max(cup minimum, highest stake). [decided here] the dealer's
        # opening follows the same rule, so a larger discard stake must be matched too: the
        # highest player then always holds the highest stake, and all stakes still in are
        # level when betting ends (only the one all-in player can be short).
        return max(minimum, self.highest_stake)

    def _cups_above(self, seat: int) -> list[tuple[int, int]]:
        """(cup, required stake) for every meter cup above the highest that `seat` can afford."""
        floor = self.highest_cup if self.highest_cup is not None else -(10**9)
        total = self._total(seat)
        highest = self.highest_stake  # _required(minimum), without asking for it per cup
        return [
            (cup, required)
            for cup, minimum in self.game.meter
            if cup > floor and (required := max(minimum, highest)) <= total
        ]

    def required_stake(self, cup: str) -> int | None:
        """The least total stake that declares `cup` now; None if the cup is not on the meter."""
        ordinal = cup_ordinal(cup)
        minimum = self.game.meter_minimum.get(ordinal) if ordinal is not None else None
        return None if minimum is None else self._required(minimum)

    def _call_cost(self, seat: int) -> int:
        return self.highest_stake - self.chips.contributions[seat]

    def cup_of(self, seat: int) -> int | None:
        """The seat's real cup now (character + cards, + the dealer's bonus); None if not dealt."""
        character_id = self.characters[seat]
        if character_id is None:
            return None
        bonus = int(self.game.options["dealer_bonus"]) if seat == self.dealer else 0
        return self.game.characters[character_id].cup(self.hands[seat], bonus)

    # -- contract -------------------------------------------------------------------------
    def to_act(self) -> frozenset[int]:
        phase = self.phase
        if phase == "bet" or phase == "open":
            assert self.turn is not None
            return only(self.turn)
        if phase == "discard" or phase == "doubt":
            return only(self.queue[0])
        return NOBODY if phase == "over" else ONLY_CHANCE  # first_dealer, shuffle

    def _legal_actions(self, seat: int) -> list[Action]:
        if self.phase == "shuffle":
            return []  # too many orders to list; see sample_chance
        if self.phase == "discard":
            return self._discard_options(seat)
        if self.phase == "doubt":
            return [Doubt(kind) for kind in DOUBT_KINDS]
        raises = self._raises(seat)
        if self.phase == "open":
            return raises or [AllIn()]
        if seat == self.highest_seat:
            return [*raises, Stand()]
        options: list[Action] = []
        if self._call_cost(seat) <= self.chips.stacks[seat]:
            options.append(Call())
        elif self.all_in is None:
            options.append(AllIn())
        return [*options, *raises, Drop()]

    def _raises(self, seat: int) -> list[Action]:
        """The raises `seat` can afford now (see `_raise_list`)."""
        return list(_raise_list(tuple(self._cups_above(seat)), self._total(seat)))

    def _discard_options(self, seat: int) -> list[Action]:
        most = min(int(self.game.options["max_discard"]), self.chips.stacks[seat] // self.discard_cost)
        return list(_discard_list(tuple(self.hands[seat]), most))

    def _sample_chance(self, rng: Rng) -> Action:
        if self.phase == "shuffle":
            characters = rng.shuffled(list(self.game.characters))
            cards = rng.shuffled(deck_cards(self.game.options["deck"]))
            return Shuffle(tuple(characters), tuple(cards))
        raise IllegalAction("not_a_chance_node", phase=self.phase)

    def _timeout_action(self, seat: int) -> Action:
        """[decided here] A silent player keeps their cards, opens with the cheapest cup,
        calls only when it is free (else drops), stands when highest, and says "not enough!"."""
        if self.phase == "discard":
            return Discard(())
        if self.phase == "doubt":
            return Doubt("not_enough")
        if self.phase == "open":
            cups = self._cups_above(seat)
            return Raise(cup_label(cups[0][0]), cups[0][1]) if cups else AllIn()
        if seat == self.highest_seat:
            return Stand()
        return Call() if self._call_cost(seat) == 0 else Drop()

    # -- transitions ----------------------------------------------------------------------
    def _apply(self, seat: int, action: Action) -> list[Event]:
        if isinstance(action, Shuffle) and self.phase == "shuffle":
            return self._shuffle(action)
        if isinstance(action, Discard) and self.phase == "discard":
            return self._discard(seat, action)
        if isinstance(action, Raise) and self.phase in ("open", "bet"):
            return self._raise(seat, action)
        if isinstance(action, AllIn) and self.phase in ("open", "bet"):
            return self._all_in_action(seat)
        if isinstance(action, Call) and self.phase == "bet":
            return self._call(seat)
        if isinstance(action, Drop) and self.phase == "bet":
            return self._drop(seat)
        if isinstance(action, Stand) and self.phase == "bet":
            return self._stand(seat)
        if isinstance(action, Doubt) and self.phase == "doubt":
            return self._doubt(seat, action)
        raise IllegalAction("wrong_phase", action=type(action).__name__, phase=self.phase)

    def _first_seat(self, seat: int) -> list[Event]:
        self.dealer = seat
        return [FirstDealerChosen(seat), *self._start_round()]

    def _start_round(self) -> list[Event]:
        assert self.dealer is not None
        self.round += 1
        self.phase = "shuffle"
        self.discards = [None] * self.n
        self.in_round = [True] * self.n
        self.all_in = self.highest_seat = self.highest_cup = self.turn = None
        self.doubts = []
        self.queue = []
        return [RoundStarted(self.round, self.lap, self.dealer, self.discard_cost)]

    def _shuffle(self, action: Shuffle) -> list[Event]:
        if not _strings(action.characters) or sorted(action.characters) != self.game.sorted_characters:
            raise IllegalAction("bad_shuffle", deck="characters")
        if not _strings(action.cards) or sorted(action.cards) != self.game.sorted_deck:
            raise IllegalAction("bad_shuffle", deck="cards")
        assert self.dealer is not None
        size = int(self.game.options["hand_size"])
        self.characters = list(action.characters[: self.n])
        self.hands = [list(sort_cards(action.cards[size * s : size * (s + 1)])) for s in range(self.n)]
        self.pile = list(action.cards[size * self.n :])
        self.queue = active_from(self.dealer, [True] * self.n)
        self.phase = "discard"
        return [Dealt(size)]

    def _discard(self, seat: int, action: Discard) -> list[Event]:
        limit = int(self.game.options["max_discard"])
        if len(action.cards) > limit:
            raise IllegalAction("too_many_discards", count=len(action.cards), max=limit)
        hand = self.hands[seat]
        kept = list(hand)
        for colour in action.cards:  # in COLOURS order (Discard.__post_init__)
            if colour not in kept:
                count, held = action.cards.count(colour), hand.count(colour)
                raise IllegalAction("card_not_held", colour=colour, count=count, held=held)
            kept.remove(colour)
        cost = len(action.cards) * self.discard_cost
        if cost > self.chips.stacks[seat]:
            raise IllegalAction("cannot_pay_discard", cost=cost, have=self.chips.stacks[seat])
        if len(action.cards) > len(self.pile):  # guarded by the option check; kept for safety
            raise IllegalAction("pile_empty", count=len(action.cards), left=len(self.pile))
        drawn, self.pile = self.pile[: len(action.cards)], self.pile[len(action.cards) :]
        self.hands[seat] = list(sort_cards([*kept, *drawn]))
        self.chips.put_in(seat, cost)
        self.discards[seat] = list(action.cards)
        self.queue.pop(0)
        events: list[Event] = [CardDiscarded(seat, colour) for colour in action.cards]
        events.append(Discarded(seat, len(action.cards), cost))
        if not self.queue:
            self.phase = "open"
            self.turn = self.dealer
        return events

    def _check_raise(self, seat: int, action: Raise) -> tuple[int, int]:
        """Validate a raise (or the opening); returns (cup ordinal, chips to put in)."""
        cup = cup_ordinal(action.cup) if isinstance(action.cup, str) else None
        minimum = self.game.meter_minimum.get(cup) if cup is not None else None
        if cup is None or minimum is None:
            raise IllegalAction("not_on_meter", cup=action.cup, cups=self.game.meter_labels)
        if self.highest_cup is not None and cup <= self.highest_cup:
            raise IllegalAction("cup_not_bigger", cup=action.cup, highest=cup_label(self.highest_cup))
        required = self._required(minimum)
        if not _is_int(action.stake) or action.stake < required:
            raise IllegalAction("stake_too_low", stake=action.stake, min=required)
        if action.stake > self._total(seat):
            raise IllegalAction("not_enough_chips", have=self._total(seat), need=action.stake)
        return cup, action.stake - self.chips.contributions[seat]

    def _raise(self, seat: int, action: Raise) -> list[Event]:
        cup, pay = self._check_raise(seat, action)
        self.chips.put_in(seat, pay)
        opening = self.phase == "open"
        self.highest_seat, self.highest_cup = seat, cup
        self.phase = "bet"
        label = cup_label(cup)
        stake = self.chips.contributions[seat]
        event: Event = Opened(seat, label, stake) if opening else Raised(seat, label, stake)
        return [event, *self._advance(seat)]

    def _all_in_action(self, seat: int) -> list[Event]:
        if self.phase == "open":
            # [decided here] A dealer who cannot afford any cup on the meter opens the lowest
            # cup with every chip; that is the round's one all-in.
            if self._cups_above(seat):
                raise IllegalAction("can_open", cups=", ".join(cup_label(c) for c, _ in self._cups_above(seat)))
            self.chips.put_in(seat, self.chips.stacks[seat])
            self.all_in = seat
            self.highest_seat, self.highest_cup = seat, self.game.meter[0][0]
            self.phase = "bet"
            opened = OpenedAllIn(seat, cup_label(self.highest_cup), self.chips.contributions[seat])
            return [opened, *self._advance(seat)]
        if seat == self.highest_seat:
            raise IllegalAction("highest_cannot_call")
        cost = self._call_cost(seat)
        if cost <= self.chips.stacks[seat]:
            raise IllegalAction("can_call", cost=cost)
        if self.all_in is not None:
            raise IllegalAction("all_in_taken", seat=self.all_in)
        self.chips.put_in(seat, self.chips.stacks[seat])
        self.all_in = seat
        return [WentAllIn(seat, self.chips.contributions[seat]), *self._advance(seat)]

    def _call(self, seat: int) -> list[Event]:
        if seat == self.highest_seat:
            raise IllegalAction("highest_cannot_call")
        cost = self._call_cost(seat)
        if cost > self.chips.stacks[seat]:
            raise IllegalAction("not_enough_chips", have=self.chips.stacks[seat], need=cost)
        self.chips.put_in(seat, cost)
        assert self.highest_cup is not None
        called = Called(seat, cup_label(self.highest_cup), self.chips.contributions[seat])
        return [called, *self._advance(seat)]

    def _drop(self, seat: int) -> list[Event]:
        # [decided here] the highest player cannot drop: when play returns to them they
        # raise or stand (the seed offers nothing else at that point).
        if seat == self.highest_seat:
            raise IllegalAction("highest_cannot_drop")
        self.in_round[seat] = False
        return [Dropped(seat), *self._advance(seat)]

    def _stand(self, seat: int) -> list[Event]:
        if seat != self.highest_seat:
            raise IllegalAction("not_highest", highest=self.highest_seat)
        assert self.highest_cup is not None
        return [Stood(seat, cup_label(self.highest_cup)), *self._end_betting()]

    def _advance(self, after: int) -> list[Event]:
        """Pass the bet on: skip dropped seats and the all-in seat; stop at the highest."""
        live = self.live_seats()
        if len(live) == 1:
            return self._win_unseen(live[0])
        for step in range(1, self.n + 1):
            seat = (after + step) % self.n
            if seat == self.highest_seat:
                if seat != self.all_in and self._cups_above(seat):
                    self.turn = seat
                    return []
                return self._end_betting()  # the highest player could only stand
            if self.in_round[seat] and seat != self.all_in:
                self.turn = seat
                return []
        raise AssertionError("the highest seat is always still in the round")

    def _end_betting(self) -> list[Event]:
        assert self.dealer is not None
        self.turn = None
        self.phase = "doubt"
        self.queue = active_from(self.dealer, self.in_round)
        return []

    def _doubt(self, seat: int, action: Doubt) -> list[Event]:
        if action.kind not in DOUBT_KINDS:
            raise IllegalAction("unknown_doubt", kind=action.kind)
        receiver = next_active(seat, self.in_round)
        self.doubts.append((seat, receiver, action.kind))
        self.queue.pop(0)
        events: list[Event] = [DoubtGiven(seat, receiver, action.kind)]
        if not self.queue:
            events += self._show()
        return events

    # -- settling the round ---------------------------------------------------------------
    def _win_unseen(self, winner: int) -> list[Event]:
        amount = self.chips.pot_total + self.carry
        self.chips.stacks[winner] += amount
        self.chips.clear_pot()
        self.carry = 0
        self.last_round = self._round_record("unseen", shown=[], won={winner: amount})
        return [WonUnseen(winner, amount), *self._end_round()]

    def _show(self) -> list[Event]:
        live = self.live_seats()
        received = {receiver: kind for _, receiver, kind in self.doubts}
        assert self.highest_cup is not None
        events: list[Event] = []
        cups: dict[int, int] = {}
        exposed: dict[int, str] = {}
        for seat in live:
            character_id = self.characters[seat]
            cup = self.cup_of(seat)
            assert character_id is not None and cup is not None
            cups[seat] = cup
            events.append(Shown(seat, character_id, tuple(self.hands[seat]), cup, cup_label(cup), seat == self.dealer))
            character = self.game.characters[character_id]
            fakes = self.game.options["fake_colours"]
            reason = exposure(character, self.hands[seat], cup, received.get(seat), self.highest_cup, fakes)
            if reason is not None:
                exposed[seat] = reason
                events.append(Exposed(seat, reason))
        survivors = {s for s in live if s not in exposed}
        won, carry = settle(pots(self.chips.contributions, live, self.carry), survivors, cups)
        for seat, amount in won.items():
            self.chips.stacks[seat] += amount
        self.chips.clear_pot()
        self.carry = carry
        for seat, amount in sorted(won.items()):
            best = cups[seat]
            shared = sum(1 for s in won if cups[s] == best) > 1
            events.append(PotWon(seat, amount, cup_label(best), shared))
        if not survivors:
            events.append(NoGame(carry))
        elif carry:
            events.append(Carried(carry))
        shown = [
            {
                "seat": s,
                "character": self.characters[s],
                "cards": list(self.hands[s]),
                "cup": cups[s],
                "cup_label": cup_label(cups[s]),
                "doubt": received.get(s),
                "exposed": exposed.get(s),
            }
            for s in live
        ]
        self.last_round = self._round_record("show", shown=shown, won=won)
        return events + self._end_round()

    def _round_record(self, outcome: str, shown: list[dict[str, Any]], won: Mapping[int, int]) -> dict[str, Any]:
        assert self.highest_cup is not None
        return {
            "round": self.round,
            "dealer": self.dealer,
            "outcome": outcome,
            "meter_cup": cup_label(self.highest_cup),
            "highest": self.highest_seat,
            "doubts": [list(d) for d in self.doubts],
            "shown": shown,
            "won": [[seat, amount] for seat, amount in sorted(won.items())],
            "carry": self.carry,
        }

    def _end_round(self) -> list[Event]:
        assert self.dealer is not None
        self.characters = [None] * self.n
        self.hands = [[] for _ in range(self.n)]
        self.pile = []
        self.turn = None
        self.queue = []
        if min(self.chips.stacks) == 0 or self.round >= self.rounds_limit:
            self.phase = "over"
            return [MatchOver(self.result().winners, tuple(self.chips.stacks), self.carry)]
        self.dealer = (self.dealer + 1) % self.n
        return self._start_round()

    # -- views and results ----------------------------------------------------------------
    def _view(self, seat: int | None) -> dict[str, Any]:
        o = self.game.options
        public: dict[str, Any] = {
            "game": "braff",
            "players": list(self.players),
            "phase": self.phase,
            "round": self.round,
            "rounds": self.rounds_limit,
            "lap": self.lap,
            "end_pattern": o["end_pattern"],
            "dealer": self.dealer,
            "discard_cost": self.discard_cost,
            "chips": list(self.chips.stacks),
            "stakes": list(self.chips.contributions),
            "pot": self.chips.pot_total,
            "carry": self.carry,
            "in_round": list(self.in_round),
            "all_in": self.all_in,
            "highest": None
            if self.highest_cup is None
            else {"seat": self.highest_seat, "cup": cup_label(self.highest_cup), "ordinal": self.highest_cup},
            "highest_stake": self.highest_stake if self.phase in ("open", "bet", "doubt") else None,
            "discards": [list(d) if d is not None else None for d in self.discards],
            "doubts": [list(d) for d in self.doubts],
            "to_act": sorted(self.to_act()),
            "last_round": self.last_round,
            # public game data: the meter, the character table and the deck
            "meter": [[label, minimum] for label, minimum in self.game.meter_rows],
            "character_table": self.game.character_table(),
            "deck": dict(o["deck"]),
            "fake_colours": list(o["fake_colours"]),
            "dealer_bonus": int(o["dealer_bonus"]),
            "hand_size": int(o["hand_size"]),
            "max_discard": int(o["max_discard"]),
        }
        if seat is not None and 0 <= seat < self.n:
            cup = self.cup_of(seat)
            public["seat"] = seat
            public["character"] = self.characters[seat]
            public["hand"] = list(self.hands[seat])
            public["cup"] = cup
            public["cup_label"] = cup_label(cup) if cup is not None else None
        return public

    def scores(self) -> list[int]:
        return list(self.chips.stacks)

    def _rank_key(self, seat: int) -> int:
        return -self.chips.stacks[seat]

    def _row(self, seat: int, rank: int) -> dict[str, Any]:
        chips = self.chips.stacks[seat]
        return {"rank": rank, "seat": seat, "name": self.players[seat], "chips": chips, "winner": rank == 1}

    def _result_extra(self) -> dict[str, Any]:
        return {"round": self.round, "carry": self.carry}


# Legal lists depend on few inputs and repeat across turns and matches, so each is built
# once (actions are frozen, so the lists can share them).
@lru_cache(maxsize=1024)
def _raise_list(cups: tuple[tuple[int, int], ...], total: int) -> tuple[Action, ...]:
    """One Raise per (cup, required stake) of `cups` and stake up to `total`; [decided here]
    one ActionRange per cup instead when that would list more than MAX_LISTED actions (deep
    stacks), so the list stays small."""
    labelled = [(cup_label(cup), required) for cup, required in cups]
    if sum(total - required + 1 for _, required in labelled) > MAX_LISTED:
        return tuple(ActionRange(Raise(label, required), "stake", total) for label, required in labelled)
    return tuple(Raise(label, stake) for label, required in labelled for stake in range(required, total + 1))


@lru_cache(maxsize=1024)
def _discard_list(hand: tuple[str, ...], most: int) -> tuple[Discard, ...]:
    """Every distinct discard of 0..`most` cards from `hand`, fewest cards first."""
    held = Counter(hand)
    options: set[tuple[str, ...]] = {()}
    for _ in range(most):
        options |= {
            sort_cards((*cards, colour))
            for cards in options
            for colour in held
            if Counter(cards)[colour] < held[colour]
        }
    return tuple(Discard(cards) for cards in sorted(options, key=lambda c: (len(c), [COLOURS.index(x) for x in c])))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _strings(values: object) -> bool:
    """A tuple of plain strings (what a well-formed chance action carries)."""
    return isinstance(values, tuple | list) and all(isinstance(v, str) for v in values)
