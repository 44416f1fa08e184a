"""`dial`: connecting to a world that is not up yet, on real sockets (the embedded world starts late)."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator

import pytest

from mcbridge.tables.dial import FIRST_PAUSE, MAX_PAUSE, dial
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.errors import ConnectionLost


@pytest.fixture
def holder() -> Iterator[socket.socket]:
    """Keeps the world's port refusing (bound, not listening) until the late world takes it."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock


@pytest.fixture
def port(holder: socket.socket) -> int:
    return int(holder.getsockname()[1])


class LateWorld:
    """A `sleep` for dial that records the pauses and starts the world after `up_after` of them."""

    def __init__(self, holder: socket.socket, up_after: int | None) -> None:
        self.holder, self.up_after = holder, up_after
        self.pauses: list[float] = []
        self.said: list[str] = []
        self.handle: EmbeddedHandle | None = None

    def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)
        if len(self.pauses) == self.up_after:
            port = self.holder.getsockname()[1]
            self.holder.close()
            self.handle = start_embedded(port=port, tps=0)


@pytest.fixture
def late(holder: socket.socket) -> Iterator[Callable[[int | None], LateWorld]]:
    made: list[LateWorld] = []

    def factory(up_after: int | None) -> LateWorld:
        made.append(LateWorld(holder, up_after))
        return made[-1]

    yield factory
    for world in made:
        if world.handle is not None:
            world.handle.stop()


def test_dial_waits_for_a_late_world_saying_where_and_when(port: int, late: Callable[[int | None], LateWorld]) -> None:
    world = late(2)
    with dial("127.0.0.1", port, attempts=5, attempt_seconds=0.2, say=world.said.append, sleep=world.sleep) as conn:
        assert conn.sendReceive("world.getBlock", 0, 0, 0).isdigit()  # really connected
    assert world.pauses == [FIRST_PAUSE, FIRST_PAUSE * 2]
    assert world.said[0] == f"connecting to the RaspberryJuice server at 127.0.0.1:{port} (attempt 1 of 5)"
    assert world.said[1] == f"  127.0.0.1:{port}: Connection refused; next try in 1 s"
    assert world.said[-1].endswith("(attempt 3 of 5)") and len(world.said) == 5


def test_dial_gives_up_after_its_attempts_with_one_line(port: int, late: Callable[[int | None], LateWorld]) -> None:
    world = late(None)
    with pytest.raises(ConnectionLost) as exc:
        dial("127.0.0.1", port, attempts=3, attempt_seconds=0.1, say=world.said.append, sleep=world.sleep)
    message = str(exc.value)
    assert f"no RaspberryJuice server answered at 127.0.0.1:{port} after 3 attempt(s) (Connection refused)" in message
    assert "\n" not in message and world.pauses == [1, 2]


def test_dial_zero_attempts_keeps_trying_with_capped_pauses(port: int, late: Callable[[int | None], LateWorld]) -> None:
    world = late(7)
    with dial("127.0.0.1", port, attempts=0, attempt_seconds=0.05, say=world.said.append, sleep=world.sleep):
        pass
    assert world.pauses == [1, 2, 4, 8, MAX_PAUSE, MAX_PAUSE, MAX_PAUSE]
    assert world.said[-1].endswith("(attempt 8)")  # no "of N": there is no limit
