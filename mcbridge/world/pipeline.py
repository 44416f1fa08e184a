"""The reply-matching state machine, without I/O (the sync and asyncio shells share it).

RaspberryJuice replies carry no request id: they are matched to requests by order alone.
A query answers exactly one line; a setter answers nothing, except a stray `Fail` when it
throws; `entity.getName` with an unknown id answers nothing at all. So the stream can only
be parsed if the client knows, at every line, which command it belongs to. This module
keeps that knowledge as a queue of *units*, each expecting a known shape of lines:

* a query: exactly one line;
* a segment of setters closed by a **fence** (a `world.getBlockWithData`, the cheapest
  query on both servers, whose reply `id,data` is never `Fail`): zero or more `Fail`
  lines, then the fence reply. Any `Fail` before the fence belongs to the setters of that segment; with one setter
  per segment (the default) the culprit is named exactly;
* a guarded query (may stay silent): its reply then the fence, or the fence alone.

On a timeout or an unexpected line the queue is abandoned (every waiting reply gets the
error) and a *resync* fence is sent: a `world.getBlocks` of k blocks, with k chosen so
that no reply still in flight can have k comma-separated integers. Everything up to its
reply is discarded and the stream is in step again, with no reconnect and no lost events.
"""

from __future__ import annotations

import dataclasses
import logging
import math
from abc import ABC, abstractmethod
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from mcbridge.world.errors import (
    CommandFailed,
    ProtocolError,
    ReplyTimeout,
    WorldError,
)

T = TypeVar("T")
log = logging.getLogger(__name__)

FAIL = "Fail"
#: Integers in an ordinary fence's reply (`id,data`); resync fences read 8 or more blocks.
FENCE_SIZE = 2
#: Lines a RaspberryJuice session runs per tick (protocol/raspberryjuice.md §1).
COMMANDS_PER_TICK = 9000
#: The longest request line a server accepts (sakebomb's cap); ours are far shorter.
MAX_REQUEST_CHARS = 16_384
_RESYNC_SIZES = range(8, 72)


@dataclass(frozen=True, slots=True)
class Command:
    """One request line. Arguments are already sanitised text (see `commands.make`)."""

    name: str
    args: tuple[str, ...] = ()

    def __str__(self) -> str:
        return f"{self.name}({','.join(self.args)})"

    def wire(self) -> bytes:
        return (str(self) + "\n").encode("utf-8")


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
        if line == FAIL:
            self._fail(CommandFailed([str(self.command)], index=self.index))
            return
        try:
            value = self._parse(line) if self._parse is not None else None
        except (ValueError, IndexError) as exc:
            reason = f"{self.command}: cannot read the reply {line[:80]!r} ({exc})."
            self._fail(ProtocolError(reason))
            return
        self._value = value
        self.done = True

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


def fence_command(size: int, at: tuple[int, int, int]) -> Command:
    """A query whose reply is `size` integers and never `Fail`: `world.getBlockWithData` for
    the ordinary fence (size 2), a `world.getBlocks` of `size` blocks for a resync."""
    x, y, z = at
    if size == FENCE_SIZE:
        return Command("world.getBlockWithData", (str(x), str(y), str(z)))
    return Command("world.getBlocks", tuple(map(str, (x, y, z, x, y + size - 1, z))))


def is_fence_reply(line: str, size: int) -> bool:
    if line.count(",") != size - 1:
        return False
    return all(part.lstrip("-").isdigit() for part in line.split(","))


class _Unit(ABC):
    """A group of replies that expects a known shape of lines."""

    __slots__ = ("complete",)

    def __init__(self) -> None:
        self.complete = False

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
                        reason="the server stayed silent (RaspberryJuice does this for an "
                        "unknown entity id)",
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
    fences: int = 0  # extra lines written to confirm setters or guard queries
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
        self._in_flight_volumes: dict[int, int] = {}
        self._resync_turn = 0
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
        reads its reply. With an `owner` (a thread or task id) the setters are
        fire-and-forget (mcpi's `send`): their failures wait in `unclaimed` until that owner
        next waits on the connection.
        """
        if fence_every < 1:
            raise ValueError("fence_every must be at least 1.")
        parts: list[bytes] = []
        units: list[_Unit] = []
        fence = fence_command(FENCE_SIZE, self.fence_at).wire()
        on_unclaimed = None if owner is None else self._unclaimed_for(owner)
        segment: list[Reply[None]] = []

        def close_segment() -> None:
            if segment:
                units.append(_SegmentUnit(list(segment), FENCE_SIZE, on_unclaimed))
                parts.append(fence)
                segment.clear()

        for item in items:
            if item.reply.is_setter:
                parts.append(item.command.wire())
                segment.append(item.reply)  # type: ignore[arg-type]
                if len(segment) >= fence_every:
                    close_segment()
                continue
            close_segment()  # the fence must go out before the query it guards against
            parts.append(item.command.wire())
            if item.guarded:
                units.append(_GuardedUnit(item.reply, FENCE_SIZE))
                parts.append(fence)
            else:
                units.append(_QueryUnit(item.reply))
            self._note_volume(item.command, +1)
        close_segment()
        self._units.extend(units)
        fences = len(parts) - len(items)
        self.stats.commands += len(items)
        self.stats.fences += fences
        self._lines_since_wait += len(parts)
        if parts:
            self.stats.writes += 1
        return b"".join(parts), (units[-1] if units else None)

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
            if isinstance(unit, _QueryUnit):
                self._note_volume(unit.reply.command, -1)

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

    def abandon(self, error_for: Callable[[str, bool], WorldError]) -> None:
        """Fail every waiting reply: `error_for(head_command, is_head)` makes each error."""
        head = True
        while self._units:
            unit = self._units.popleft()
            if not isinstance(unit, _ResyncUnit):
                unit.abandon(error_for(unit.head_command(), head))
                head = False
        self._in_flight_volumes.clear()

    def begin_resync(self, cause: WorldError, culprit: str) -> bytes:
        """After a timeout or desync: fail what waits, then send a fence nobody else matches."""
        self.stats.resyncs += 1
        in_flight = set(self._in_flight_volumes)

        def error_for(command: str, is_head: bool) -> WorldError:
            if is_head:
                return cause
            lost = f"{command}: reply lost: the stream was resynchronised after {culprit}."
            if isinstance(cause, ReplyTimeout):
                return ReplyTimeout(lost)
            return ProtocolError(lost, desync=True)

        self.abandon(error_for)
        size = self._resync_size(in_flight)
        self._units.append(_ResyncUnit(size))
        self.stats.fences += 1
        return fence_command(size, self.fence_at).wire()

    def unread_units(self) -> int:
        return len(self._units)

    def resync_pending(self) -> bool:
        return any(isinstance(u, _ResyncUnit) for u in self._units)

    def head_command(self) -> str:
        return self._units[0].head_command() if self._units else "nothing"

    def _resync_size(self, in_flight: set[int]) -> int:
        sizes = [s for s in _RESYNC_SIZES if s not in in_flight]
        self._resync_turn += 1
        return sizes[self._resync_turn % len(sizes)]

    def _note_volume(self, command: Command, delta: int) -> None:
        """Remember getBlocks volumes in flight: a resync fence must not share one."""
        if command.name != "world.getBlocks" or len(command.args) != 6:
            return
        try:
            x1, y1, z1, x2, y2, z2 = (int(a) for a in command.args)
        except ValueError:
            return
        volume = (abs(x2 - x1) + 1) * (abs(y2 - y1) + 1) * (abs(z2 - z1) + 1)
        count = self._in_flight_volumes.get(volume, 0) + delta
        if count > 0:
            self._in_flight_volumes[volume] = count
        else:
            self._in_flight_volumes.pop(volume, None)


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
    return CommandFailed(
        first.commands, index=first.index, failed_count=first.failed_count, others=rest
    )
