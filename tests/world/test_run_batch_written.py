"""`Connection.run_batch(..., on_written=...)` and the sync supervisor's wait for it.

Why it matters: `Supervisor.step` sends the cycle's batch on its I/O thread and meanwhile
runs the tables' `background` work on its own. Both share the interpreter, so work started
before the batch is encoded and written could make that write miss the tick (and with it
every click the batch answers). `run_batch` therefore signals `on_written` once the batch's
bytes are handed to the socket, before it waits for the replies, and `step` waits for that
signal (at most `supervisor.WRITE_WAIT`) before `background`.

Asserted on the embedded world (20 TPS, its tick clock paused where the order must not
depend on timing):

* `on_written` runs exactly once, on the first attempt only (not when a timed-out batch is
  sent again), once the lines are on their way (the paused server then holds all of them
  without a tick) and before any reply arrived or `run_batch` returned;
* `Supervisor.step` runs `background` only after the batch was written, every cycle (a
  deliberately slow write cannot let `background` overtake it); a write that hangs past
  `WRITE_WAIT` does not hold `background` back; a write that fails before anything is
  written (a `Fail`, a lost link) releases the wait at once.
"""

from __future__ import annotations

import itertools
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from mcbridge import CONFIG_DIR
from mcbridge.tables import supervisor as supervisor_module
from mcbridge.tables.config import load_arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Item
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.errors import CommandFailed, ConnectionLost
from mcbridge.world.geometry import Pos

BOUND = 5.0  # seconds any wait of this file may take at most
CYCLE_SECONDS = 0.05


class StepClock:
    """The table's clock, advanced by the test one cycle at a time."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def wait_for(done: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + BOUND
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {BOUND} s: {what}")
        time.sleep(0.002)


@pytest.fixture
def world() -> Iterator[EmbeddedHandle]:
    with start_embedded(port=0, tps=20) as handle:
        yield handle


class Runner:
    """`run_batch` on its own thread, with what `on_written` saw when it ran."""

    def __init__(self, conn: Connection, items: list[Item], fence_every: int, probe: Callable[[], object]) -> None:
        self.seen: list[tuple[float, object]] = []  # (when, probe()) at each on_written
        self.returned: float | None = None
        self.error: BaseException | None = None
        self.written = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(conn, items, fence_every, probe), daemon=True)
        self._thread.start()

    def _run(self, conn: Connection, items: list[Item], fence_every: int, probe: Callable[[], object]) -> None:
        def on_written() -> None:
            self.seen.append((time.monotonic(), probe()))
            self.written.set()

        try:
            conn.run_batch(items, fence_every, on_written=on_written)
        except BaseException as exc:
            self.error = exc
        self.returned = time.monotonic()

    def join(self) -> None:
        self._thread.join(BOUND)
        assert not self._thread.is_alive(), "run_batch did not return"


def test_on_written_runs_once_after_the_write_and_before_the_replies(world: EmbeddedHandle) -> None:
    with Connection(world.host, world.port) as conn:
        conn.capabilities()  # asked before the clock stops
        batch = conn.batch(fence_every=4)
        batch.set_block(Pos(3, 1, 3), Block(35, 14))
        colour = batch.get_block_with_data(Pos(3, 1, 3))
        batch.set_block(Pos(4, 1, 3), Block(1))
        stone = batch.get_block(Pos(4, 1, 3))
        world.pause()
        try:
            runner = Runner(conn, batch.items, batch.fence_every, lambda: (colour.done, stone.done))
            assert runner.written.wait(BOUND), "on_written never ran"
            wait_for(lambda: world.queued_lines() >= len(batch.items), "the server has every line")
            assert runner.returned is None  # still waiting for its replies: no tick ran
            assert runner.seen[0][1] == (False, False)  # no reply when the bytes had just been written
            world.step()
        finally:
            world.resume()
        runner.join()
    assert runner.error is None
    assert len(runner.seen) == 1  # once
    assert runner.returned is not None and runner.seen[0][0] <= runner.returned
    assert colour.result() == Block(35, 14) and stone.result() == 1


def test_a_batch_sent_again_signals_only_its_first_write(world: EmbeddedHandle) -> None:
    """The tick clock stays stopped past the reply timeout: the batch (idempotent queries)
    times out, resynchronises and is sent again; `on_written` still ran once, for the first."""
    with Connection(world.host, world.port, reply_timeout=0.3) as conn:
        conn.capabilities()
        batch = conn.batch()
        reply = batch.get_block(Pos(0, 0, 0))
        writes = conn.stats.writes
        world.pause()
        try:
            runner = Runner(conn, batch.items, batch.fence_every, lambda: reply.done)
            assert runner.written.wait(BOUND)
            lines = world.queued_lines
            wait_for(lambda: lines() >= 2, "the query and its fence arrived")
            first = lines()
            wait_for(lambda: lines() > first, "the resync fence after the reply timeout")
            world.step()  # late replies and the resync fence's: the stream is in step again
            wait_for(lambda: lines() > 0, "the batch sent again")
            world.step()
        finally:
            world.resume()
        runner.join()
        assert runner.error is None and reply.result() == 0  # air, above the spawn's grass
        assert conn.stats.resyncs == 1 and conn.stats.writes - writes == 2  # written twice
    assert len(runner.seen) == 1 and runner.seen[0][1] is False


# --------------------------------------------------------------------------- the supervisor
@pytest.fixture
def clock() -> StepClock:
    return StepClock()


@pytest.fixture
def supervisor(world: EmbeddedHandle, tmp_path: Path, clock: StepClock) -> Iterator[Supervisor]:
    """One Wool Bluff table (the shipped arena, nobody seated) on its own connection."""
    journal = Journal(tmp_path / "j.sqlite")
    table = Table(load_arena(CONFIG_DIR / "arenas" / "wool_bluff.yaml"), journal, clock, seed=1, start_delay=0.0)
    with Connection(world.host, world.port) as conn:
        yield Supervisor(conn, [table])
    journal.close()


def record_order(supervisor: Supervisor, monkeypatch: pytest.MonkeyPatch,
                 before_write: Callable[[], object] = lambda: None) -> list[tuple[int, str]]:
    """(sequence number, what) for every write to the socket and every `background`."""
    order: list[tuple[int, str]] = []
    numbers = itertools.count()
    conn, protocol = supervisor.conn, supervisor.protocol
    send_bytes, background = conn._send_bytes, protocol.background

    def sending(sock: socket.socket, data: bytes) -> None:
        before_write()
        send_bytes(sock, data)
        order.append((next(numbers), "written"))

    def in_background(replies_in: Callable[[], bool] | None = None) -> None:
        order.append((next(numbers), "background"))
        background(replies_in)

    monkeypatch.setattr(conn, "_send_bytes", sending)
    monkeypatch.setattr(protocol, "background", in_background)
    return order


def test_background_runs_only_after_the_cycles_batch_was_written(
        supervisor: Supervisor, clock: StepClock, monkeypatch: pytest.MonkeyPatch) -> None:
    supervisor.conn.capabilities()
    # each write is slow to start: without the wait, `background` would run first
    order = record_order(supervisor, monkeypatch, before_write=lambda: time.sleep(0.03))
    for cycle in range(4):
        clock.now += CYCLE_SECONDS
        mark = len(order)
        supervisor.step()
        this_cycle = [what for _, what in order[mark:]]
        assert this_cycle.count("background") == 1, (cycle, this_cycle)
        assert "written" in this_cycle[: this_cycle.index("background")], (cycle, this_cycle)
    assert [n for n, _ in order] == list(range(len(order)))


def test_a_write_that_hangs_does_not_hold_background_past_the_bound(
        supervisor: Supervisor, monkeypatch: pytest.MonkeyPatch) -> None:
    supervisor.conn.capabilities()
    monkeypatch.setattr(supervisor_module, "WRITE_WAIT", 0.1)
    went_on = threading.Event()
    order = record_order(supervisor, monkeypatch, before_write=lambda: went_on.wait(BOUND))
    background = supervisor.protocol.background

    def released(replies_in: Callable[[], bool] | None = None) -> None:
        background(replies_in)
        went_on.set()  # only now may the write go on

    monkeypatch.setattr(supervisor.protocol, "background", released)
    started = time.monotonic()
    supervisor.step()
    assert time.monotonic() - started < BOUND  # the write did not wait for its own bound
    assert [what for _, what in order][:2] == ["background", "written"]


@pytest.mark.parametrize("failure", [CommandFailed(["world.setBlock(0,0,0,4000)"]),
                                     ConnectionLost("the test cut the link")])
def test_a_write_failing_before_anything_was_written_releases_the_wait_at_once(
        supervisor: Supervisor, monkeypatch: pytest.MonkeyPatch, failure: Exception) -> None:
    supervisor.conn.capabilities()
    monkeypatch.setattr(supervisor_module, "WRITE_WAIT", 4 * BOUND)  # longer than this test may take
    started: list[float] = []

    def failing(items: list[Item], fence_every: int, on_written: Callable[[], None] | None = None) -> None:
        raise failure

    background = supervisor.protocol.background

    def timed(replies_in: Callable[[], bool] | None = None) -> None:
        started.append(time.monotonic())
        background(replies_in)

    monkeypatch.setattr(supervisor.conn, "run_batch", failing)
    monkeypatch.setattr(supervisor.protocol, "background", timed)
    begun = time.monotonic()
    if isinstance(failure, CommandFailed):
        supervisor.step()  # a Fail is logged, the cycle goes on
    else:
        with pytest.raises(ConnectionLost):
            supervisor.step()  # a lost link is the caller's to handle (`Supervisor.run`)
    assert len(started) == 1 and started[0] - begun < BOUND
