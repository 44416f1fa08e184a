"""A Braff bot that plays from its own view only, as a fair player would.

It knows its own character and cards, the public table (meter, character table, deck,
face-up discards) and nothing else. Another player's cup is modelled exactly: a uniformly
random character other than its own, with a hand drawn from the deck (a multivariate
hypergeometric over colour counts, 252 cases for 5 cards from 6 colours).

* Discard: the discard with the best expected cup after the draw, minus its cost, and
  minus a penalty for keeping a black card on a character that "fake!" exposes.
* Open / bet: claim about its real cup (sometimes one more), call when its cup reaches the
  claim or the call is cheap and the claim only one cup above, raise when it really is bigger.
* Doubt: "fake!" or "not enough!", whichever is likelier to expose the receiver.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from mcbridge.core import Action, Rng
from mcbridge.core.legal import ActionRange
from mcbridge.games.braff.actions import AllIn, Call, Discard, Doubt, Drop, Raise, Stand
from mcbridge.games.braff.cards import (
    COLOURS,
    PACK_BITS,
    PACK_MASK,
    Character,
    character_from_option,
    cup_ordinal,
    pack_counts,
)

#: Claim one cup more than the real one this often (a bluff).
BLUFF_RATE = 0.2
#: Chips a discarded card may cost per expected cup gained.
CHIPS_PER_CUP = 2.0
#: Expected cups given up by keeping a fake card on a character "fake!" exposes.
FAKE_RISK = 1.5


@lru_cache(maxsize=256)
def _draws(pool: tuple[tuple[str, int], ...], size: int) -> tuple[tuple[int, float], ...]:
    """Every hand of `size` cards drawn from `pool` (colour -> cards), packed
    (cards.pack_counts), with its probability (a multivariate hypergeometric)."""
    counts = dict(pool)
    colours = [(i, counts[c]) for i, c in enumerate(COLOURS) if counts.get(c, 0) > 0]
    total = math.comb(sum(n for _, n in colours), size)
    out: list[tuple[int, float]] = []

    def walk(j: int, left: int, code: int, ways: int) -> None:
        if left == 0:
            out.append((code, ways / total))
            return
        if j == len(colours):
            return
        i, n = colours[j]
        for take in range(min(left, n), -1, -1):
            walk(j + 1, left - take, code + (take << (PACK_BITS * i)), ways * math.comb(n, take))

    walk(0, size, 0, 1)
    return tuple(out)


@lru_cache(maxsize=64)
def _character_of(row: str) -> Character:
    """The character a view's table row (as sorted JSON) describes, built once."""
    return character_from_option(json.loads(row))


@lru_cache(maxsize=256)
def _worths(row: str, bonus: int, risky_bits: int) -> dict[int, float]:
    """Packed hand -> its worth to the character of `row` with this dealer bonus: the cup,
    less FAKE_RISK when it holds a risky colour. Filled as hands are asked about and kept
    across decisions: there are only a few hundred hands."""
    return {}


@lru_cache(maxsize=64)
def _other_player(
    table_json: str, deck_items: tuple[tuple[str, int], ...], size: int, mine: str, fakes: tuple[str, ...]
) -> tuple[dict[int, float], float]:
    """(P(cup = k), P(exposed by "fake!")) for a random other player, before any dealer bonus."""
    characters = [character_from_option(c) for c in json.loads(table_json) if c["id"] != mine]
    hands = _draws(deck_items, size)
    fake_bits = pack_counts([PACK_MASK if c in fakes else 0 for c in COLOURS])
    cups: dict[int, float] = {}
    exposable = 0.0
    weight = 1 / len(characters)
    for character in characters:
        for code, p in hands:
            cup = character.cup_of_packed(code)
            cups[cup] = cups.get(cup, 0.0) + p * weight
            if character.exposed_by_fake and code & fake_bits:
                exposable += p * weight
    return cups, exposable


class BraffBot:
    def __init__(self, bluff_rate: float = BLUFF_RATE) -> None:
        self.bluff_rate = bluff_rate

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        phase = view["phase"]
        if phase == "discard":
            return self._discard(view, legal)
        if phase == "doubt":
            return self._doubt(view)
        if phase == "open":
            return self._open(view, legal, rng)
        return self._bet(view, legal, rng)

    # -- helpers --------------------------------------------------------------------------
    @staticmethod
    def _character(view: Mapping[str, Any]) -> tuple[str, Character]:
        """The seat's character, and its table row as sorted JSON (its cache key)."""
        row = next(c for c in view["character_table"] if c["id"] == view["character"])
        key = json.dumps(row, sort_keys=True)
        return key, _character_of(key)

    @staticmethod
    def _raises(legal: Sequence[Action]) -> dict[int, Raise]:
        """The cheapest raise for every cup on offer, by cup ordinal."""
        by_label: dict[str, Raise] = {}  # labels are canonical (Raise.__post_init__): one per cup
        for entry in legal:
            action = entry.first if type(entry) is ActionRange else entry  # its cheapest raise
            if type(action) is Raise:
                found = by_label.get(action.cup)
                if found is None or action.stake < found.stake:
                    by_label[action.cup] = action
        out: dict[int, Raise] = {}
        for label, action in by_label.items():
            cup = cup_ordinal(label)
            assert cup is not None
            out[cup] = action
        return out

    def _claim(self, cup: int, raises: Mapping[int, Raise], rng: Rng) -> Raise | None:
        """The raise whose cup is nearest at or below `cup` (a bluff adds one now and then)."""
        target = cup + (1 if rng.random() < self.bluff_rate else 0)
        at_or_below = [c for c in raises if c <= target]
        return raises[max(at_or_below)] if at_or_below else None

    # -- phases ---------------------------------------------------------------------------
    def _discard(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        row, character = self._character(view)
        bonus = int(view["dealer_bonus"]) if view["dealer"] == view["seat"] else 0
        pool = Counter({c: int(n) for c, n in view["deck"].items()})
        pool.subtract(view["hand"])
        for cards in view["discards"]:
            pool.subtract(cards or [])
        pool = +pool  # drop zero and negative counts
        pool_key = tuple(sorted(pool.items()))
        risky = set(view["fake_colours"]) if character.exposed_by_fake else set()
        cost = int(view["discard_cost"])
        # hands as packed colour counts: adding a draw is an int sum, and a hand's worth
        # is computed once however many discards (and decisions) lead to it
        held = pack_counts([view["hand"].count(c) for c in COLOURS])
        risky_bits = pack_counts([PACK_MASK if c in risky else 0 for c in COLOURS])
        values = _worths(row, bonus, risky_bits)
        known = values.get

        def value(code: int) -> float:
            found = known(code)
            if found is None:
                exposed = code & risky_bits
                found = values[code] = character.cup_of_packed(code, bonus) - (FAKE_RISK if exposed else 0.0)
            return found

        draws = {k: _draws(pool_key, k) for k in range(1, int(view["max_discard"]) + 1)}
        best: tuple[float, Action] | None = None
        for action in legal:
            assert isinstance(action, Discard)
            kept = held - pack_counts([action.cards.count(c) for c in COLOURS])
            if action.cards:
                expected = sum(
                    [p * (known(kept + drawn) or value(kept + drawn)) for drawn, p in draws[len(action.cards)]]
                )
            else:
                expected = value(kept)
            score = expected - len(action.cards) * cost / CHIPS_PER_CUP
            if best is None or score > best[0] + 1e-9:
                best = (score, action)
        assert best is not None
        return best[1]

    def _open(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        raises = self._raises(legal)
        if not raises:
            return legal[0]  # AllIn: the dealer cannot afford any cup
        return self._claim(int(view["cup"]), raises, rng) or raises[min(raises)]

    def _bet(self, view: Mapping[str, Any], legal: Sequence[Action], rng: Rng) -> Action:
        mine = int(view["cup"])
        highest = int(view["highest"]["ordinal"])
        raises = self._raises(legal)
        backed = {c: r for c, r in raises.items() if c <= mine}  # raises our real cup supports
        offered = {type(a) for a in legal}  # `Stand() in legal` and co. without comparing each entry
        if Stand in offered:  # play came back to us as the highest player
            if backed and rng.random() < 0.3:
                return backed[max(backed)]
            return Stand()
        if backed and rng.random() < 0.6:
            return backed[max(backed)]
        seat = int(view["seat"])
        cost = int(view["highest_stake"]) - int(view["stakes"][seat])
        stack = int(view["chips"][seat])
        cheap = cost <= max(2, stack // 5)
        willing = mine >= highest or cost == 0 or (mine == highest - 1 and cheap)
        if willing and Call in offered:
            return Call()
        if mine >= highest and AllIn in offered:
            return AllIn()
        return Drop()

    def _doubt(self, view: Mapping[str, Any]) -> Action:
        seat = int(view["seat"])
        live = view["in_round"]
        n = len(live)
        receiver = next((seat + k) % n for k in range(1, n + 1) if live[(seat + k) % n])
        table = json.dumps(view["character_table"], sort_keys=True)
        deck = tuple(sorted((c, int(k)) for c, k in view["deck"].items()))
        mine, fakes = str(view["character"]), tuple(view["fake_colours"])
        cups, exposable = _other_player(table, deck, int(view["hand_size"]), mine, fakes)
        bonus = int(view["dealer_bonus"]) if receiver == view["dealer"] else 0
        claimed = int(view["highest"]["ordinal"])
        short = sum(p for cup, p in cups.items() if cup + bonus < claimed)
        return Doubt("fake") if exposable > short else Doubt("not_enough")
