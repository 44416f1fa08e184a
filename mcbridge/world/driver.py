"""What tests, bots and the demo use to act as players on a server.

Two servers implement this: the embedded world's in-process player simulator
(`mcbridge.world.embedded`) and mineflayer bots on the real flying-squid server
(`mcbridge.world.realserver`). Tests written against these protocols run unchanged on both,
which is how the conformance suite keeps the two servers honest.

Coordinates are protocol coordinates: block positions relative to the server's
RaspberryJuice origin, exactly what `world.setBlock` and `events.block.hits` use.
Items are legacy (id, data) pairs as on a 1.12 server: a diamond sword is (276, 0), red
wool (35, 14). Every call that waits has a timeout and raises `TimeoutError` past it.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

DIAMOND_SWORD = 276
WOOL = 35


@runtime_checkable
class SimPlayer(Protocol):
    """One player in the world, driven by a test or a bot."""

    name: str

    @property
    def entity_id(self) -> int: ...

    def position(self) -> tuple[float, float, float]: ...

    def walk_to(self, x: float, y: float, z: float, timeout: float = 10.0) -> None: ...

    def hold(self, item_id: int, data: int = 0) -> None:
        """Put this item in the main hand (given to the player if they lack it)."""

    def right_click(self, x: int, y: int, z: int, face: int = 1) -> None:
        """Use the held item on a block. With a sword this is a RaspberryJuice block hit."""

    def place(self, x: int, y: int, z: int, item_id: int, data: int = 0) -> None:
        """Place one item from the inventory at x,y,z (the player must hold some)."""

    def break_block(self, x: int, y: int, z: int) -> None: ...

    def chat(self, text: str) -> None: ...

    def inventory(self) -> dict[tuple[int, int], int]:
        """Item counts by (id, data)."""

    def private_messages(self) -> list[str]:
        """Messages sent to this player only (server extension), oldest first."""

    def chat_heard(self) -> list[str]:
        """Public chat lines this player has seen, oldest first."""

    def leave(self) -> None: ...


@runtime_checkable
class PlayerDriver(Protocol):
    """Creates players on one server."""

    def join(self, name: str, timeout: float = 10.0) -> SimPlayer:
        """Join and return once the server lists the player (world.getPlayerId works)."""


@runtime_checkable
class ServerHandle(Protocol):
    """A running server with a RaspberryJuice endpoint on 127.0.0.1."""

    kind: str  # "embedded" or "flying-squid"
    host: str
    port: int

    @property
    def players(self) -> PlayerDriver: ...

    def stop(self) -> None: ...
