"""The show, as pure functions: who a doubt card exposes, the pots, and who wins what.

Kept apart from the state machine so the money rules read in one place and are easy to
check: the pots come from the stakes alone (core.chips.side_pots), and every chip ends
with a winner or in the carry.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from mcbridge.core.chips import SidePot, side_pots, split_evenly
from mcbridge.games.braff.cards import Character


def exposure(
    character: Character,
    hand: Sequence[str],
    cup: int,
    doubt: str | None,
    meter_cup: int,
    fake_colours: Collection[str],
) -> str | None:
    """Why the doubt card a player received puts them out ("fake" / "not_enough"), or None.

    "fake!" exposes only characters the rules name (AAA, A, C) holding a fake colour;
    [decided] only black is such a colour, white never is. "not enough!" exposes a cup
    (dealer bonus included) below the meter's cup.
    """
    if doubt == "fake" and character.exposed_by_fake and set(fake_colours) & set(hand):
        return "fake"
    if doubt == "not_enough" and cup < meter_cup:
        return "not_enough"
    return None


def pots(contributions: Sequence[int], live: Collection[int], carry: int) -> list[SidePot]:
    """Side pots from the stakes, with carried chips joining the bottom pot.

    Stakes still in are level when betting ends, so only the round's one all-in player can
    cut a lower pot: they win at most their own stake from each other player [decided].
    The carry joins the bottom pot, the one every live seat may win [decided here].
    """
    layers = side_pots(contributions, live) or [SidePot(0, frozenset(live))]
    layers[0] = SidePot(layers[0].amount + carry, layers[0].eligible)
    return layers


def settle(
    layers: Sequence[SidePot], survivors: Collection[int], cups: Mapping[int, int]
) -> tuple[dict[int, int], int]:
    """(chips won per seat, chips carried over). Per pot, the biggest cup among its
    surviving contenders wins (a lone survivor wins whatever their cup); ties split and the
    odd chips carry; a pot with no surviving contender carries whole (a no-game)."""
    won: dict[int, int] = {}
    carry = 0
    for pot in layers:
        contenders = sorted(s for s in pot.eligible if s in survivors)
        if not contenders:
            carry += pot.amount
            continue
        best = max(cups[s] for s in contenders)
        shares, odd = split_evenly(pot.amount, [s for s in contenders if cups[s] == best])
        for seat, share in shares.items():
            won[seat] = won.get(seat, 0) + share
        carry += odd
    return won, carry
