"""Simulated players for the embedded world (the :mod:`mcbridge.world.driver` protocols).

A simulated player does what a person at a Minecraft client does -- join, walk, hold an
item, right-click a block, place, break, chat -- and remembers what such a person would
have seen: public chat, private messages, the inventory. Every action runs on the
server's loop thread between ticks (as a real client's packets run on the main thread),
so its effect is visible to the very next protocol command. Methods can be called from
any thread; they block until the action has happened.

Behaviour worth knowing: players play in survival (placing uses up the item), walking is
instantaneous (no physics, no collision), breaking yields no drop, and ``right_click``
never places the held block -- use :meth:`EmbeddedPlayer.place` for that.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TypeVar

from .overlays import seen_block, seen_sign
from .server import EmbeddedServer
from .storage import Position
from .world import Player

T = TypeVar("T")
#: Runs a function on the server's loop thread and returns its result.
LoopCall = Callable[[Callable[[], T]], T]


class EmbeddedPlayer:
    """One simulated player (implements :class:`mcbridge.world.driver.SimPlayer`)."""

    def __init__(self, server: EmbeddedServer, call: LoopCall, player: Player) -> None:
        self._server = server
        self._call = call
        self._player = player
        self.name = player.player_name

    def __repr__(self) -> str:
        return f"EmbeddedPlayer({self.name!r}, entity_id={self.entity_id})"

    @property
    def entity_id(self) -> int:
        return self._player.entity_id

    def position(self) -> tuple[float, float, float]:
        def read() -> tuple[float, float, float]:
            ox, oy, oz = self._server.origin
            return (self._player.x - ox, self._player.y - oy, self._player.z - oz)

        return self._call(read)

    def walk_to(self, x: float, y: float, z: float, timeout: float = 10.0) -> None:
        if not all(math.isfinite(v) for v in (x, y, z)):
            raise ValueError("walk_to needs finite coordinates.")

        def move() -> None:
            self._server.world.require_online(self._player)
            ox, oy, oz = self._server.origin
            self._player.x, self._player.y, self._player.z = x + ox, y + oy, z + oz

        self._call(move)

    def hold(self, item_id: int, data: int = 0) -> None:
        self._call(lambda: self._server.world.hold(self._player, (item_id, data)))

    def right_click(self, x: int, y: int, z: int, face: int = 1) -> None:
        self._call(lambda: self._server.world.right_click(self._player, self._abs(x, y, z), face))

    def place(self, x: int, y: int, z: int, item_id: int, data: int = 0) -> None:
        self._call(
            lambda: self._server.world.place(self._player, self._abs(x, y, z), (item_id, data))
        )

    def break_block(self, x: int, y: int, z: int) -> None:
        self._call(lambda: self._server.world.break_block(self._player, self._abs(x, y, z)))

    def chat(self, text: str) -> None:
        self._call(lambda: self._server.world.chat(self._player, text))

    def inventory(self) -> dict[tuple[int, int], int]:
        return self._call(lambda: dict(self._player.inventory))

    def held(self) -> tuple[int, int]:
        return self._call(lambda: self._player.held)

    def private_messages(self) -> list[str]:
        return self._call(lambda: list(self._player.private_messages))

    def seen_block(self, x: int, y: int, z: int) -> tuple[int, int]:
        """(id, data) this player's client would show: its private blocks over the world."""
        world = self._server.world
        return self._call(lambda: seen_block(world, self.name, self._abs(x, y, z)))

    def seen_sign(self, x: int, y: int, z: int) -> tuple[str, str, str, str] | None:
        """The sign text this player's client would show there (None: it sees no sign)."""
        world = self._server.world
        return self._call(lambda: seen_sign(world, self.name, self._abs(x, y, z)))

    def chat_heard(self) -> list[str]:
        return self._call(lambda: list(self._player.chat_heard))

    def leave(self) -> None:
        self._call(lambda: self._server.world.leave(self._player))

    @property
    def online(self) -> bool:
        return self._player.online

    def _abs(self, x: int, y: int, z: int) -> Position:
        ox, oy, oz = self._server.origin
        return (int(x) + ox, int(y) + oy, int(z) + oz)


class EmbeddedPlayers:
    """Creates simulated players (implements :class:`mcbridge.world.driver.PlayerDriver`)."""

    def __init__(self, server: EmbeddedServer, call: LoopCall) -> None:
        self._server = server
        self._call = call

    def join(self, name: str, timeout: float = 10.0) -> EmbeddedPlayer:
        """Join at once; the player is listed (``world.getPlayerId`` works) on return."""
        player = self._call(lambda: self._server.world.join(name))
        return EmbeddedPlayer(self._server, self._call, player)

    def online(self) -> list[str]:
        return self._call(lambda: [p.player_name for p in self._server.world.players])
