"""The reply-matching state machine, without I/O (the sync and asyncio shells share it).

RaspberryJuice replies carry no request id: they are matched to requests by order alone.
A query answers exactly one line; a setter answers nothing, except a stray `Fail` when it
throws; `entity.getName` with an unknown id answers nothing at all. So the stream can only
be parsed if the client knows, at every line, which command it belongs to. This module
keeps that knowledge as a queue of *units*, each expecting a known shape of lines:

* a query: exactly one line;
* a segment of setters closed by a **fence** (a `world.getBlocks` of a short row, 6 to 13
  blocks, cheap on both servers and never `Fail`): zero or more `Fail` lines, then the
  fence reply. Any `Fail` before the fence belongs to the setters of that segment; with
  one setter per segment (the default) the culprit is named exactly;
* a guarded query (may stay silent): its reply then the fence, or the fence alone;
* between two queries, a *marker*: a fence of its own size.

Every line is checked against its command's reply shape (`shapes`). Fences and markers
take turns among eight sizes and never share one with a neighbouring reply, so every line's
neighbours have other shapes: a dropped, duplicated or cut line puts a line of the wrong
shape into the very next slot, and is caught there, even when several faults hit one batch
(a duplicate and a drop could otherwise cancel out over a run of same-shaped replies).
Every batch ends with a *closing fence*: a `world.getBlocks` of k blocks, k chosen so that no other reply in
flight can have k comma-separated integers (and no chat line can hold that many). A batch's
values count only once its closing fence arrives in its place: a dropped, duplicated or
cut line anywhere in the batch shifts some line onto the closing fence's slot (or leaves it
empty until the timeout), so a shift that kept every shape is still caught and the whole
batch fails with a typed error instead of handing out a neighbour's value.

On a timeout or an unexpected line the queue is abandoned (every waiting reply, and every
reply of a batch not yet closed, gets the error) and a *resync* fence of another unique
size is sent. Everything up to its reply is discarded and the stream is in step again,
with no reconnect and no lost events.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import math
import re
from abc import ABC, abstractmethod
from collections import Counter, deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from mcbridge.world import shapes
from mcbridge.world.errors import (
    CommandFailed,
    ProtocolError,
    ReplyTimeout,
    WorldError,
)

T = TypeVar("T")
log = logging.getLogger(__name__)

FAIL = "Fail"
#: Ordinary fences and markers read a row of this many blocks (a size in turn).
_SMALL_SIZES = range(6, 14)
#: Lines a RaspberryJuice session runs per tick (protocol/raspberryjuice.md §1).
COMMANDS_PER_TICK = 9000
#: The longest request line a server accepts (sakebomb's cap); ours are far shorter.
MAX_REQUEST_CHARS = 16_384
#: Closing and resync fences read a 16 x k rectangle: 160 to 400 blocks. A chat reply is at
#: most about 260 characters, too short for 160 integers, so no player can type one.
_UNIQUE_WIDTH = 16
_UNIQUE_SIZES = [_UNIQUE_WIDTH * k for k in range(10, 26)]


@dataclass(frozen=True, slots=True)
class Command:
    """One request line. Arguments are already sanitised text (see `commands.make`)."""

    name: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.name}({','.join(self.args)})"

    def wire(self) -> bytes:
        return f"{self.name}({','.join(self.args)})\n".encode()


class Reply(Generic[T]):
    """A slot for one command's outcome, filled when its batch is flushed.

    `result()` returns the parsed reply (None for a setter) or raises the stored
    `WorldError` (`CommandFailed`, `ReplyTimeout`, `ConnectionLost`, `ProtocolError`).
    """

    __slots__ = ("_error", "_parse", "_value", "command", "done", "index", "is_setter")

    def __init__(
        self,
        command: Command,
        parse: Callable[[str], T] | None,
        index: int = 0,
    ) -> None:
        self.command = command
        self._parse = parse
        self.index = index
        self.is_setter = parse is None
        self.done = False
        self._value: T | None = None
        self._error: WorldError | None = None

    def result(self) -> T:
        if not self.done:
            raise WorldError(f"{self.command}: no result yet; flush its batch first.")
        if self._error is not None:
            raise self._error
        return self._value  # type: ignore[return-value]

    @property
    def error(self) -> WorldError | None:
        return self._error

    @property
    def ok(self) -> bool:
        return self.done and self._error is None

    def _set_line(self, line: str) -> None:
        """Take this command's reply line; a line of the wrong shape raises `Desync`."""
        if line == FAIL:
            self._fail(CommandFailed([str(self.command)], index=self.index))
            return
        wanted = shapes.problem(self.command, line)
        if wanted is not None:
            raise Desync(f"{self.command} expects {wanted}, got {line[:80]!r}")
        try:
            value = self._parse(line) if self._parse is not None else None
        except (ValueError, IndexError) as exc:
            raise Desync(f"{self.command}: cannot read the reply {line[:80]!r} ({exc})") from exc
        self._value = value
        self.done = True

    def _invalidate(self, error: WorldError) -> None:
        """A value taken from a batch that later proved out of step is withdrawn."""
        self._value = None
        self._error = error
        self.done = True

    def _reset(self) -> None:
        """Empty the slot before the command is sent again (a retried batch)."""
        self._value = None
        self._error = None
        self.done = False

    def _succeed(self) -> None:
        self.done = True

    def _fail(self, error: WorldError) -> None:
        if not self.done:
            self._error = error
            self.done = True

    def __repr__(self) -> str:
        state = "pending" if not self.done else ("failed" if self._error else "ok")
        return f"<Reply {self.command} {state}>"


class Desync(Exception):
    """Internal: a line arrived that no expected unit can take; the shell resyncs."""


@functools.cache
def fence_wire(size: int, at: tuple[int, int, int]) -> bytes:
    """`fence_command(size, at).wire()`: a few dozen distinct lines, sent over and over."""
    return fence_command(size, at).wire()


def fence_command(size: int, at: tuple[int, int, int]) -> Command:
    """A query whose reply is `size` integers and never `Fail`, in the always-loaded chunks
    at the origin: a row of `size` blocks for an ordinary fence or a marker, a 16-wide
    rectangle for a closing or resync fence."""
    x, y, z = at
    if size in _SMALL_SIZES:
        return Command("world.getBlocks", tuple(map(str, (x, y, z, x, y, z + size - 1))))
    if size % _UNIQUE_WIDTH:
        raise ValueError(f"a unique fence reads a multiple of {_UNIQUE_WIDTH} blocks")
    corner2 = (x + _UNIQUE_WIDTH - 1, y, z + size // _UNIQUE_WIDTH - 1)
    return Command("world.getBlocks", tuple(map(str, (x, y, z, *corner2))))


_INTS = re.compile(r"-?[0-9]+(?:,-?[0-9]+)*")


def is_fence_reply(line: str, size: int) -> bool:
    return line.count(",") == size - 1 and _INTS.fullmatch(line) is not None


class _Unit(ABC):
    """A group of replies that expects a known shape of lines."""

    __slots__ = ("closes", "complete")

    def __init__(self) -> None:
        self.complete = False
        #: The batch whose values this unit's reply confirms (its closing fence).
        self.closes: _OpenBatch | None = None

    @abstractmethod
    def feed(self, line: str) -> None:
        """Take the next reply line meant for this unit."""

    def abandon(self, error: WorldError) -> None:
        self.complete = True

    @abstractmethod
    def head_command(self) -> str:
        """The command whose reply this unit waits for next (for error messages)."""


class _QueryUnit(_Unit):
    __slots__ = ("reply",)

    def __init__(self, reply: Reply[object]) -> None:
        super().__init__()
        self.reply = reply

    def feed(self, line: str) -> None:
        self.reply._set_line(line)
        self.complete = True

    def abandon(self, error: WorldError) -> None:
        self.reply._fail(error)
        self.complete = True

    def head_command(self) -> str:
        return str(self.reply.command)


class _SegmentUnit(_Unit):
    """Setters then a fence: each `Fail` before the fence reply is one failed setter."""

    __slots__ = ("fails", "fence", "on_unclaimed", "setters")

    def __init__(
        self,
        setters: list[Reply[None]],
        fence: int,
        on_unclaimed: Callable[[CommandFailed], None] | None,
    ) -> None:
        super().__init__()
        self.setters = setters
        self.fence = fence
        self.fails = 0
        self.on_unclaimed = on_unclaimed

    def feed(self, line: str) -> None:
        if line == FAIL and self.fails < len(self.setters):
            self.fails += 1
            return
        if not is_fence_reply(line, self.fence):
            raise Desync(f"expected the fence after {self.head_command()}, got {line[:80]!r}")
        self.complete = True
        if not self.fails:
            for reply in self.setters:
                reply._succeed()
            return
        if self.fails == len(self.setters):
            errors = []
            for reply in self.setters:
                errors.append(CommandFailed([str(reply.command)], index=reply.index))
                reply._fail(errors[-1])
        else:
            commands = [str(r.command) for r in self.setters]
            error = CommandFailed(commands, index=self.setters[0].index, failed_count=self.fails)
            errors = [error]
            for reply in self.setters:
                reply._fail(error)
        if self.on_unclaimed is not None:
            for error in errors:
                self.on_unclaimed(error)

    def abandon(self, error: WorldError) -> None:
        for reply in self.setters:
            reply._fail(error)
        self.complete = True

    def head_command(self) -> str:
        return str(self.setters[0].command) if self.setters else "a fence"


class _GuardedUnit(_Unit):
    """A query that may never answer (entity.getName of an unknown id), then a fence."""

    __slots__ = ("fence", "reply")

    def __init__(self, reply: Reply[object], fence: int) -> None:
        super().__init__()
        self.reply = reply
        self.fence = fence

    def feed(self, line: str) -> None:
        if is_fence_reply(line, self.fence):
            if not self.reply.done:
                self.reply._fail(
                    CommandFailed(
                        [str(self.reply.command)],
                        index=self.reply.index,
                        reason="the server stayed silent (RaspberryJuice does this for an unknown entity id)",
                    )
                )
            self.complete = True
        elif self.reply.done:
            raise Desync(f"expected the fence after {self.reply.command}, got {line[:80]!r}")
        else:
            self.reply._set_line(line)

    def abandon(self, error: WorldError) -> None:
        self.reply._fail(error)
        self.complete = True

    def head_command(self) -> str:
        return str(self.reply.command)


class _CloseUnit(_Unit):
    """A marker between two queries, or a batch's closing fence after a query: exactly a
    reply of its size."""

    __slots__ = ("size",)

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def feed(self, line: str) -> None:
        if not is_fence_reply(line, self.size):
            raise Desync(f"expected {self.head_command()}, got {line[:80]!r}")
        self.complete = True

    def head_command(self) -> str:
        kind = "marker" if self.size in _SMALL_SIZES else "closing fence"
        return f"the {kind} ({self.size} blocks)"


@dataclass(eq=False, slots=True)
class _OpenBatch:
    """The replies of one batch whose closing fence has not arrived yet."""

    replies: list[Reply[object]]


class _ResyncUnit(_Unit):
    __slots__ = ("discarded", "size")

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self.discarded = 0

    def feed(self, line: str) -> None:
        if is_fence_reply(line, self.size):
            self.complete = True
        else:
            self.discarded += 1

    def head_command(self) -> str:
        return f"the resync fence ({self.size} blocks)"


@dataclass(slots=True)
class Stats:
    """What a connection did: benches and tables report commands and ticks from this."""

    commands: int = 0  # request lines written for callers
    fences: int = 0  # extra lines: setter fences, guards, markers, closing and resync fences
    writes: int = 0  # socket writes (one per batch)
    round_trips: int = 0  # times a caller waited for replies
    tick_waits: int = 0  # server ticks those waits needed at 9000 lines/tick (estimate)
    replies: int = 0  # lines read
    failures: int = 0  # Fail replies
    timeouts: int = 0
    resyncs: int = 0
    reconnects: int = 0

    def snapshot(self) -> Stats:
        return dataclasses.replace(self)

    def __sub__(self, other: Stats) -> Stats:
        names = [f.name for f in dataclasses.fields(self)]
        return Stats(**{n: getattr(self, n) - getattr(other, n) for n in names})


@dataclass(frozen=True, slots=True)
class Item:
    """One command of a batch: setter (parse None), query, or guarded query."""

    command: Command
    reply: Reply[object]
    guarded: bool = False


class Pipeline:
    """Expected reply shapes in wire order; feed it lines, it fills the `Reply` slots."""

    def __init__(self, fence_at: tuple[int, int, int] = (0, 0, 0)) -> None:
        self.fence_at = fence_at
        self._units: deque[_Unit] = deque()
        #: Reply sizes (getBlocks volumes, unique fences) of the lines still in flight.
        self._sizes_in_flight: Counter[int] = Counter()
        self._open: list[_OpenBatch] = []
        self._size_turn = 0
        self._small_turn = 0
        self._last_small = 0
        self._unclaimed: dict[Hashable, list[CommandFailed]] = {}
        self.stats = Stats()
        self._lines_since_wait = 0

    @property
    def idle(self) -> bool:
        return not self._units

    def encode(
        self, items: Sequence[Item], fence_every: int = 1, *, owner: Hashable | None = None
    ) -> tuple[bytes, _Unit | None]:
        """Queue the units for `items` and return the bytes to write plus the last unit.

        Setters are grouped `fence_every` at a time and each group is closed by a fence, so
        every setter is confirmed and a stray `Fail` is attributed before any later query
        reads its reply. The batch ends with a closing fence of a unique size (the last
        setter fence or guard fence becomes it, else one is added). With an `owner` (a
        thread or task id) the setters are fire-and-forget (mcpi's `send`): their failures
        wait in `unclaimed` until that owner next waits on the connection.
        """
        if fence_every < 1:
            raise ValueError("fence_every must be at least 1.")
        if not items:
            return b"", None
        parts: list[bytes] = []
        units: list[_Unit] = []
        on_unclaimed = None if owner is None else self._unclaimed_for(owner)
        segment: list[Reply[None]] = []
        volumes = [_volume(item.command) for item in items]

        def fence(around: int) -> int:
            """A fence line between items `around - 1` and `around`: sized unlike either."""
            near = {v for v in volumes[max(around - 1, 0) : around + 1] if v is not None}
            size = self._small_size(near)
            parts.append(fence_wire(size, self.fence_at))
            return size

        def close_segment(around: int) -> None:
            if segment:
                units.append(_SegmentUnit(list(segment), fence(around), on_unclaimed))
                segment.clear()

        for index, item in enumerate(items):
            if item.reply.is_setter:
                parts.append(item.command.wire())
                segment.append(item.reply)  # type: ignore[arg-type]
                if len(segment) >= fence_every:
                    close_segment(index + 1)
                continue
            close_segment(index)  # the fence must go out before the query it guards against
            if units and isinstance(units[-1], _QueryUnit):
                units.append(_CloseUnit(fence(index)))  # a marker between two queries
            parts.append(item.command.wire())
            if item.guarded:
                units.append(_GuardedUnit(item.reply, fence(index + 1)))
            else:
                units.append(_QueryUnit(item.reply))
            self._count_size(volumes[index], +1)
        close_segment(len(items))
        self._close_batch(items, units, parts)
        self._units.extend(units)
        fences = len(parts) - len(items)
        self.stats.commands += len(items)
        self.stats.fences += fences
        self._lines_since_wait += len(parts)
        self.stats.writes += 1
        return b"".join(parts), units[-1]

    def _close_batch(self, items: Sequence[Item], units: list[_Unit], parts: list[bytes]) -> None:
        """Make the batch's last line a fence of a size nothing else in flight has."""
        size = self._unique_size()
        closing = fence_wire(size, self.fence_at)
        last = units[-1]
        if isinstance(last, _SegmentUnit | _GuardedUnit):
            last.fence = size
            parts[-1] = closing
        else:
            last = _CloseUnit(size)
            units.append(last)
            parts.append(closing)
        self._count_size(size, +1)
        batch = _OpenBatch([item.reply for item in items])
        last.closes = batch
        self._open.append(batch)

    def feed(self, line: str) -> None:
        """Give the next reply line to the unit at the head of the queue."""
        self.stats.replies += 1
        if line == FAIL:
            self.stats.failures += 1
        if not self._units:
            raise Desync(f"a line arrived that no command asked for: {line[:80]!r}")
        unit = self._units[0]
        unit.feed(line)
        if unit.complete:
            self._units.popleft()
            self._unit_done(unit)

    def _unit_done(self, unit: _Unit) -> None:
        if isinstance(unit, _QueryUnit):
            self._count_size(_volume(unit.reply.command), -1)
        if isinstance(unit, _CloseUnit | _ResyncUnit) and unit.size not in _SMALL_SIZES:
            self._count_size(unit.size, -1)
        elif isinstance(unit, _SegmentUnit | _GuardedUnit) and unit.closes is not None:
            self._count_size(unit.fence, -1)
        if unit.closes is not None:
            self._open.remove(unit.closes)

    def waiting(self) -> None:
        """A caller starts waiting for replies: count a round trip and its ticks."""
        self.stats.round_trips += 1
        self.stats.tick_waits += max(1, math.ceil(self._lines_since_wait / COMMANDS_PER_TICK))
        self._lines_since_wait = 0

    def _unclaimed_for(self, owner: Hashable) -> Callable[[CommandFailed], None]:
        def record(error: CommandFailed) -> None:
            log.warning("%s (raised at the sender's next wait)", error)
            self._unclaimed.setdefault(owner, []).append(error)

        return record

    def take_unclaimed(self, owner: Hashable) -> CommandFailed | None:
        """Failures of `owner`'s fire-and-forget setters, as one error for it to raise."""
        failures = self._unclaimed.pop(owner, None)
        if not failures:
            return None
        first, *rest = failures
        if not rest:
            return first
        return CommandFailed(first.commands, failed_count=first.failed_count, others=rest)

    def abandon(
        self,
        error_for: Callable[[str, bool], WorldError],
        withdrawn: WorldError | None = None,
    ) -> None:
        """Fail every waiting reply: `error_for(head_command, is_head)` makes each error.

        Replies of batches whose closing fence has not arrived are withdrawn too (with
        `withdrawn`, by default their own `error_for`), even those already filled: the
        stream lost its place somewhere in their batch.
        """
        head = True
        while self._units:
            unit = self._units.popleft()
            if not isinstance(unit, _ResyncUnit):
                unit.abandon(error_for(unit.head_command(), head))
                head = False
        for batch in self._open:
            for reply in batch.replies:
                if reply.ok:
                    reply._invalidate(withdrawn or error_for(str(reply.command), False))
        self._open.clear()
        self._sizes_in_flight.clear()

    def begin_resync(self, cause: WorldError, culprit: str) -> bytes:
        """After a timeout or desync: fail what waits, then send a fence nobody else matches."""
        self.stats.resyncs += 1
        size = self._unique_size()  # chosen while the sizes in flight are still known

        def error_for(command: str, is_head: bool) -> WorldError:
            if is_head:
                return cause
            lost = f"{command}: reply lost: the stream was resynchronised after {culprit}."
            if isinstance(cause, ReplyTimeout):
                return ReplyTimeout(lost)
            return ProtocolError(lost, desync=True)

        self.abandon(error_for, withdrawn=cause)
        self._units.append(_ResyncUnit(size))
        self._count_size(size, +1)
        self.stats.fences += 1
        return fence_wire(size, self.fence_at)

    def unread_units(self) -> int:
        return len(self._units)

    def resync_pending(self) -> bool:
        return any(isinstance(u, _ResyncUnit) for u in self._units)

    def head_command(self) -> str:
        return self._units[0].head_command() if self._units else "nothing"

    def _small_size(self, near: set[int]) -> int:
        """The next fence or marker size: not the last one, nor a neighbouring getBlocks
        volume (eight sizes, at most three excluded: there is always one)."""
        sizes = [s for s in _SMALL_SIZES if s != self._last_small and s not in near]
        self._small_turn += 1
        self._last_small = sizes[self._small_turn % len(sizes)]
        return self._last_small

    def _unique_size(self) -> int:
        """A unique-fence size no reply in flight has, and not the one used just before."""
        self._size_turn += 1
        sizes = [s for s in _UNIQUE_SIZES if not self._sizes_in_flight[s]]
        if not sizes:  # cannot happen with fewer than 16 batches in flight
            sizes = _UNIQUE_SIZES
        return sizes[self._size_turn % len(sizes)]

    def _count_size(self, size: int | None, delta: int) -> None:
        if size is None:
            return
        count = self._sizes_in_flight[size] + delta
        if count > 0:
            self._sizes_in_flight[size] = count
        else:
            del self._sizes_in_flight[size]


def _volume(command: Command) -> int | None:
    """A getBlocks query's reply size: a closing fence must not share it."""
    if command.name != "world.getBlocks" or len(command.args) != 6:
        return None
    try:
        x1, y1, z1, x2, y2, z2 = (int(a) for a in command.args)
    except ValueError:
        return None
    return (abs(x2 - x1) + 1) * (abs(y2 - y1) + 1) * (abs(z2 - z1) + 1)


def timeout_error(command: str, seconds: float) -> ReplyTimeout:
    return ReplyTimeout(
        f"{command} got no reply within {seconds:g} s. The server may be stalled or "
        "overloaded; the connection resynchronised and can be used again."
    )


def batch_error(replies: Iterable[Reply[object]]) -> WorldError | None:
    """What a flush raises: a transport error first, else every failed setter at once.

    Failed *queries* are not raised here: their slots hold the error for `result()`.
    """
    failed_setters: list[CommandFailed] = []
    for reply in replies:
        error = reply.error
        if error is None:
            continue
        if not isinstance(error, CommandFailed):
            if isinstance(error, ProtocolError) and not error.desync:
                continue  # an unparsable query reply stays in its slot
            return error
        if reply.is_setter and error not in failed_setters:
            failed_setters.append(error)
    if not failed_setters:
        return None
    first, *rest = failed_setters
    if not rest:
        return first
    return CommandFailed(first.commands, index=first.index, failed_count=first.failed_count, others=rest)
