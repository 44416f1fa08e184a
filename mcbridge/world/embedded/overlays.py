"""Per-player overlays (private blocks and signs) and placement records, the state behind
the ``private`` and ``placements`` extensions (commands in :mod:`.private`).

The flying-squid bridge shows a private block to one client only (server/lib/private.js);
here there are no clients, so "what a player sees" is the world with that player's
overlays on top: :func:`seen_block` and :func:`seen_sign` are what a simulated player
would read from its chunk data. Everybody else reads the neutral world block. Overlays are
kept per exact player name (a rejoin finds them again) and are not saved with the world.

Wire format and commands: :mod:`.private`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .storage import Position

if TYPE_CHECKING:
    from .world import World

PLAYER_NAME = re.compile(r"[A-Za-z0-9_]{1,16}")
MAX_PER_PLAYER = 65536
MAX_OWNERS = 4096


class OverlayRefused(ValueError):
    """An overlay the caps or the name rule refuse (the command answers ``Fail``)."""


@dataclass
class Overlay:
    """What the owner sees at one position: a block state, and sign text for a sign."""

    state: int
    lines: list[str] | None = None


@dataclass(frozen=True)
class BlockChange:
    """A block a player placed (``state`` = the new block) or broke (the block it was)."""

    position: Position  # absolute
    entity_id: int
    state: int


class PrivateView:
    """Every player's overlays, by exact name."""

    def __init__(self) -> None:
        self.by_owner: dict[str, dict[Position, Overlay]] = {}

    def set(
        self, owner: str, position: Position, state: int, lines: dict[int, str] | None = None
    ) -> None:
        _check_owner(owner)
        mine = self.by_owner.get(owner)
        if mine is None:
            if len(self.by_owner) >= MAX_OWNERS:
                raise OverlayRefused(f"over {MAX_OWNERS} players hold private blocks")
            mine = self.by_owner[owner] = {}
        old = mine.get(position)
        if old is None and len(mine) >= MAX_PER_PLAYER:
            raise OverlayRefused(f"{owner} already has {MAX_PER_PLAYER} private blocks")
        text = None
        if lines is not None:
            # Lines not given keep the text of the same private sign, as world.setSign does.
            kept = old.lines if old is not None and old.state >> 4 == state >> 4 else None
            text = list(kept) if kept is not None else ["", "", "", ""]
            for index, line in lines.items():
                text[index] = line
        mine[position] = Overlay(state, text)

    def clear(
        self, owner: str, low: Position | None = None, high: Position | None = None
    ) -> None:
        _check_owner(owner)
        mine = self.by_owner.get(owner, {})
        for position in list(mine):
            if low is None or high is None or all(
                lo <= p <= hi for lo, p, hi in zip(low, position, high, strict=True)
            ):
                del mine[position]
        if not mine:
            self.by_owner.pop(owner, None)

    def overlay(self, owner: str, position: Position) -> Overlay | None:
        return self.by_owner.get(owner, {}).get(position)


def _check_owner(owner: str) -> None:
    if not PLAYER_NAME.fullmatch(owner):
        raise OverlayRefused(f"{owner[:20]!r} is not a player name")


def seen_state(world: World, player_name: str, position: Position) -> int:
    """The block state this player's client shows at an absolute position."""
    overlay = world.private.overlay(player_name, position)
    return overlay.state if overlay is not None else world.store.get(*position)


def seen_block(world: World, player_name: str, position: Position) -> tuple[int, int]:
    state = seen_state(world, player_name, position)
    return state >> 4, state & 0xF


def seen_sign(
    world: World, player_name: str, position: Position
) -> tuple[str, str, str, str] | None:
    """The sign text this player's client shows there (None where it sees no sign)."""
    overlay = world.private.overlay(player_name, position)
    if overlay is None:
        return world.sign_lines(position)
    if overlay.lines is None:
        return None
    a, b, c, d = overlay.lines
    return (a, b, c, d)
