"""What the every-game contract suite needs to know about each game; this module holds no tests.

A game joins the suite by being registered in `mcbridge.games.GAMES`; the suite then refuses
to pass until the game has an entry in `HOOKS` here: how to build twins (the same match with
only hidden information changed, so equal views prove that nothing leaks), which quantities
the rules conserve, which numbers never go down, and which event each player action must
produce. The hooks read game attributes directly: they are white-box on purpose, since
"nothing hidden is in the view" can only be proved by changing what is hidden.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from collections.abc import Callable
from typing import Any, ClassVar

from mcbridge.core import Action, Event, Rng, State

#: A law: name -> (actual, expected), compared at every step of every match.
Laws = dict[str, tuple[Any, Any]]


@dataclasses.dataclass(frozen=True)
class Twin:
    """`state` differs from the match only in `what`; only `may_notice` may see the difference."""

    state: State
    may_notice: frozenset[int]
    what: str


def copy_of(state: State) -> Any:
    """A restored copy to change hidden fields on (typed Any: the hooks know the game). It
    reuses the match's game object: `from_json` would rebuild the game from its seed file for
    every twin, and the suite checks `from_json` itself at every step anyway."""
    return type(state).restore(state.game, json.loads(state.to_json())["state"])


class Hooks:
    """Defaults: no hidden information, no law, no monotone number, no action→event rule."""

    #: a bound on the journal length; a match longer than this did not terminate
    max_actions = 5000
    #: random playthroughs per run (fewer for games whose matches are long)
    examples = 8
    #: player action type -> event types of which one must be emitted by the acting seat
    action_events: ClassVar[dict[str, tuple[str, ...]]] = {}
    #: chance action types whose `legal_actions(CHANCE)` lists only some of the outcomes
    unlisted_chance: ClassVar[frozenset[str]] = frozenset()

    def twins(self, state: Any, rng: Rng) -> list[Twin]:
        return []

    def canonical(self, action: Any) -> Action:
        """The listed spelling of an action that `apply` takes in several spellings (the dice of a
        set-aside in any order, say). [finding] Such actions are accepted but not listed as
        sent; normalising them in the action's __post_init__ (as Braff's Discard does) would
        make accepted == listed exactly, and journals would hold one spelling."""
        return action

    def laws(self, state: Any) -> Laws:
        return {}

    def never_decreasing(self, state: Any) -> tuple[int, ...]:
        return ()

    def after_action(self, before: Any, after: Any, seat: int, action: Action, events: list[Event]) -> None:
        """Game-specific checks of an accepted action (raise AssertionError)."""


class WoolBluffHooks(Hooks):
    unlisted_chance = frozenset({"Reveal"})  # lists the untampered reveal; the walls may differ
    action_events: ClassVar[dict[str, tuple[str, ...]]] = {
        "Bid": ("BidMade",),
        "Through": ("ThroughSaid",),
        "Bluff": ("BluffCalled",),
        "Discard": ("WoolDiscarded",),
    }

    def twins(self, state: Any, rng: Rng) -> list[Twin]:
        from mcbridge.games.wool_bluff import COLOURS

        holders = [s for s in state.active_seats() if state.hands[s]]
        if not holders:
            return []
        seat = rng.pick(holders)
        twin = copy_of(state)
        old = next(c for c in COLOURS if state.hands[seat].get(c, 0) > 0)
        new = COLOURS[(COLOURS.index(old) + 1) % len(COLOURS)]
        for wool in (twin.drawn[seat], twin.hands[seat]):
            if wool is None or not wool.get(old):
                continue
            wool[new] = wool.get(new, 0) + 1
            wool[old] -= 1
            if not wool[old]:
                del wool[old]
        return [Twin(twin, frozenset({seat}), f"seat {seat}: one {old} wool is {new}")]

    def laws(self, state: Any) -> Laws:
        within = {"turn within the limit": (state.turn <= int(state.game.options["turns"]), True)}
        if state.phase not in ("bid", "respond", "reveal"):
            return within
        # every active player keeps H - min(t, H) of the H wool drawn this turn
        hand = state.hand_size
        kept = sum(hand - min(t, hand) for s, t in enumerate(state.torches) if state.active[s])
        return {
            **within,
            "wool in play": (state.wool_in_play, kept),
            "public wool count": (state.view(None)["wool_in_play"], kept),
        }

    def never_decreasing(self, state: Any) -> tuple[int, ...]:
        return (state.turn, *state.torches)


class DiceBluffHooks(Hooks):
    max_actions = 20_000
    action_events: ClassVar[dict[str, tuple[str, ...]]] = {
        "Bid": ("BidMade",),
        "Challenge": ("Challenged",),
        "SetAside": ("DiceSetAside",),
    }

    def twins(self, state: Any, rng: Rng) -> list[Twin]:
        found = []
        for seat, cup in enumerate(state.hidden):
            if cup:
                twin = copy_of(state)
                twin.hidden[seat] = [d % 6 + 1 for d in cup]
                found.append(Twin(twin, frozenset({seat}), f"seat {seat}'s cup"))
        return found

    def canonical(self, action: Any) -> Action:
        if type(action).__name__ == "SetAside" and isinstance(action.dice, tuple):
            return dataclasses.replace(action, dice=tuple(sorted(action.dice, key=repr)))
        return action

    def laws(self, state: Any) -> Laws:
        if state.is_over:  # the last cups stay up after the match
            return {}
        laws: Laws = {
            f"dice of seat {s}": (len(cup) + len(state.aside[s]), state.dice[s])
            for s, cup in enumerate(state.hidden)
            if cup is not None
        }
        faces = [d for cup in state.hidden if cup for d in cup] + [d for aside in state.aside for d in aside]
        laws["faces 1 to 6"] = (all(type(d) is int and 1 <= d <= 6 for d in faces), True)
        return laws

    def never_decreasing(self, state: Any) -> tuple[int, ...]:
        return (state.round, *(-d for d in state.dice))


class BriberyHooks(Hooks):
    max_actions = 20_000
    action_events: ClassVar[dict[str, tuple[str, ...]]] = {
        "Pass": ("Passed",),
        "Fold": ("Folded",),
        "Raise": ("Raised",),
        "Call": ("Called",),
        "AllIn": ("WentAllIn",),
    }

    def twins(self, state: Any, rng: Rng) -> list[Twin]:
        def other(card: int) -> int:
            return (card + 100) % 600  # another card value (500 -> informant, informant -> 100)

        def change_first(cards: list[int]) -> list[int]:
            return [other(cards[0]), *cards[1:]]

        changes: list[tuple[frozenset[int], str, Callable[[Any], None]]] = []
        for seat in range(len(state.players)):
            mine = frozenset({seat})
            if state.hands[seat]:

                def hand(t: Any, s: int = seat) -> None:
                    t.hands[s] = sorted(change_first(t.hands[s]))

                changes.append((mine, f"seat {seat}'s hand", hand))
            if len(state.played[seat]) > state.shown[seat]:

                def face_down(t: Any, s: int = seat) -> None:
                    k = t.shown[s]
                    t.played[s] = t.played[s][:k] + change_first(t.played[s][k:])

                changes.append((mine, f"seat {seat}'s face-down cards", face_down))
        if state.pile:
            changes.append((frozenset(), "the luck pile", lambda t: setattr(t, "pile", change_first(t.pile))))
        if state.discard:
            changes.append(
                (frozenset(), "the discards", lambda t: setattr(t, "discard", sorted(change_first(t.discard))))
            )
        if state.unseen and state.influencer_pile:

            def unseen(t: Any) -> None:
                t.unseen[0], t.influencer_pile[0] = t.influencer_pile[0], t.unseen[0]

            changes.append((frozenset(), "the unseen influencer", unseen))
        found = []
        for may_notice, what, change in changes:
            twin = copy_of(state)
            change(twin)
            found.append(Twin(twin, may_notice, what))
        return found

    def canonical(self, action: Any) -> Action:
        if type(action).__name__ in ("Raise", "Call") and isinstance(action.cards, tuple):
            return dataclasses.replace(action, cards=tuple(sorted(action.cards, key=repr)))
        return action

    def laws(self, state: Any) -> Laws:
        from mcbridge.games.bribery import INFORMANT
        from mcbridge.games.bribery.options import luck_deck

        options = state.game.options
        cards = Counter(state.pile) + Counter(state.discard)
        for seat in range(len(state.players)):
            cards += Counter(state.hands[seat]) + Counter(state.played[seat])
        laws: Laws = {"informants": (cards.pop(INFORMANT, 0) + state.supply, int(options["informants"]))}
        laws["luck cards"] = (cards, Counter(luck_deck(options, len(state.players))))
        if state.phase != "arrange":
            owned = Counter(state.influencer_pile + state.unseen + state.removed + state.stake)
            for cards_owned in state.owned:
                owned += Counter(cards_owned)
            laws["influencer cards"] = (owned, Counter(list(state.game.influencers)))
        return laws

    def never_decreasing(self, state: Any) -> tuple[int, ...]:
        return (state.round, *(len(cards) for cards in state.owned))


class BraffHooks(Hooks):
    action_events: ClassVar[dict[str, tuple[str, ...]]] = {
        "Discard": ("Discarded",),
        "Raise": ("Raised", "Opened"),
        "Call": ("Called",),
        "AllIn": ("WentAllIn", "OpenedAllIn"),
        "Drop": ("Dropped",),
        "Stand": ("Stood",),
        "Doubt": ("DoubtGiven",),
    }

    def twins(self, state: Any, rng: Rng) -> list[Twin]:
        dealt = [s for s in range(len(state.players)) if state.characters[s] is not None]
        if len(dealt) < 2:
            return []
        a, b = rng.sample(dealt, 2)
        twin = copy_of(state)
        for field in (twin.characters, twin.hands):
            field[a], field[b] = field[b], field[a]
        rng.shuffle(twin.pile)
        if twin.to_json() == state.to_json():  # two equal deals: nothing hidden differs
            return []
        return [Twin(twin, frozenset({a, b}), f"seats {a} and {b} swap their deal; the pile is reshuffled")]

    def canonical(self, action: Any) -> Action:
        from mcbridge.games.braff.cards import cup_label, cup_ordinal

        if type(action).__name__ == "Raise" and isinstance(action.cup, str):
            ordinal = cup_ordinal(action.cup)
            return action if ordinal is None else dataclasses.replace(action, cup=cup_label(ordinal))
        return action

    def laws(self, state: Any) -> Laws:
        from mcbridge.games.braff.cards import deck_cards

        total = int(state.game.options["starting_chips"]) * len(state.players)
        laws: Laws = {
            "chips": (sum(state.chips.stacks) + state.chips.pot_total + state.carry, total),
            "no negative stack": (min(state.chips.stacks) >= 0 and state.carry >= 0, True),
        }
        dealt = Counter(c for c in state.characters if c is not None)
        laws["characters from the game's set"] = (dealt - Counter(list(state.game.characters)), Counter())
        if any(state.hands):
            cards = Counter(state.pile) + sum((Counter(h) for h in state.hands), Counter())
            cards += sum((Counter(d) for d in state.discards if d), Counter())
            laws["cards"] = (cards, Counter(deck_cards(state.game.options["deck"])))
        return laws

    def never_decreasing(self, state: Any) -> tuple[int, ...]:
        return (state.round,)

    def after_action(self, before: Any, after: Any, seat: int, action: Action, events: list[Event]) -> None:
        assert not {"hand", "hands", "character", "characters", "cup"} & set(after.view(None))
        if type(action).__name__ == "Discard":
            done = next(e for e in events if type(e).__name__ == "Discarded")
            assert done.count == len(action.cards)  # type: ignore[attr-defined]


class BriscolaHooks(Hooks):
    examples = 4  # a match is five full deals of 40 cards
    action_events: ClassVar[dict[str, tuple[str, ...]]] = {
        "Bid": ("BidMade",),
        "Solo": ("SoloBid",),
        "Pass": ("Passed",),
        "CallTrump": ("TrumpCalled",),
        "Play": ("CardPlayed",),
    }

    def twins(self, state: Any, rng: Rng) -> list[Twin]:
        holding = [s for s in range(len(state.players)) if state.hands[s]]
        if len(holding) < 2:
            return []
        a, b = rng.sample(holding, 2)
        # prefer moving the called card: that changes who the partner is
        called = state.called_card
        card_a = called if called in state.hands[a] else rng.pick(state.hands[a])
        card_b = rng.pick(state.hands[b])
        twin = copy_of(state)
        hand_a, hand_b = twin.hands[a], twin.hands[b]
        hand_a[hand_a.index(card_a)] = card_b
        hand_b[hand_b.index(card_b)] = card_a
        return [Twin(twin, frozenset({a, b}), f"seat {a}'s {card_a} swapped with seat {b}'s {card_b}")]

    def laws(self, state: Any) -> Laws:
        from mcbridge.games.briscola_bugiarda import DECK

        total = int(state.game.options["starting_chips"]) * len(state.players)
        in_hands = sum(len(h) for h in state.hands)
        played = len(state.trick) + sum(len(t["cards"]) for t in state.tricks)
        return {"chips": (sum(state.chips), total), "cards": (in_hands + played in (0, len(DECK)), True)}

    def never_decreasing(self, state: Any) -> tuple[int, ...]:
        return (state.deal,)

    def after_action(self, before: Any, after: Any, seat: int, action: Action, events: list[Event]) -> None:
        assert not {"hand", "hands"} & set(after.view(None))
        if type(action).__name__ == "Play":
            card = action.card  # type: ignore[attr-defined]
            assert card in before.hands[seat] and card not in after.hands[seat]


#: game name -> its hooks. A registered game without an entry fails the suite.
HOOKS: dict[str, Hooks] = {
    "wool_bluff": WoolBluffHooks(),
    "dice_bluff": DiceBluffHooks(),
    "bribery": BriberyHooks(),
    "braff": BraffHooks(),
    "briscola_bugiarda": BriscolaHooks(),
}
