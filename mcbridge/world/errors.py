"""Typed errors of the world layer.

Everything the connection raises is a `WorldError`, so a table can catch one type and
re-render, while tests can tell a lost socket from a refused command from a silent server.
`CommandFailed` is also mcpi's `RequestError`, so code written against stock mcpi that
catches `RequestError` keeps working on our connection.
"""

from __future__ import annotations

from collections.abc import Sequence

from mcpi.connection import RequestError


class WorldError(Exception):
    """Base class: something went wrong talking to the Minecraft server."""


class ConnectionLost(WorldError, ConnectionError):
    """The socket closed or broke. Commands in flight have an unknown outcome.

    The connection reconnects (with backoff) on its next use and then runs its
    `on_reconnect` hooks, so upper layers can render the world again.
    """


class ReplyTimeout(WorldError, TimeoutError):
    """A reply did not arrive in time. The stream has been resynchronised since."""


class ProtocolError(WorldError):
    """The server sent a reply we cannot parse, or one we did not expect.

    `desync` is True when the reply stream had lost its place: it was resynchronised and
    every reply then in flight was lost (a flush raises those; a reply that merely failed to
    parse stays in its slot).
    """

    def __init__(self, message: str, *, desync: bool = False) -> None:
        super().__init__(message)
        self.desync = desync


class Unsupported(WorldError):
    """The server lacks a command or extension (plain RaspberryJuice has no private channel)."""


class CommandFailed(WorldError, RequestError):
    """The server answered `Fail` to a command; `commands` names the command(s) responsible.

    When fences are sparser than one per setter (`fence_every > 1`), a `Fail` can only be
    pinned to a segment: then `commands` lists every candidate and `failed_count` says how
    many of them failed.
    """

    def __init__(
        self,
        commands: Sequence[str],
        *,
        index: int | None = None,
        failed_count: int = 1,
        reason: str = "the server replied Fail",
        others: Sequence[CommandFailed] = (),
    ) -> None:
        self.commands = tuple(commands)
        self.index = index
        self.failed_count = failed_count
        self.reason = reason
        self.others = tuple(others)
        super().__init__(self._describe())

    @property
    def command(self) -> str:
        """The failed command (the first candidate when attribution is to a segment)."""
        return self.commands[0]

    @property
    def exact(self) -> bool:
        return len(self.commands) == self.failed_count

    def _describe(self) -> str:
        where = f" (command #{self.index} of its batch)" if self.index is not None else ""
        if self.exact and len(self.commands) == 1:
            text = f"{self.commands[0]} failed{where}: {self.reason}."
        else:
            shown = ", ".join(self.commands[:3]) + (", ..." if len(self.commands) > 3 else "")
            text = (
                f"{self.failed_count} of {len(self.commands)} commands failed{where}: "
                f"{self.reason}; candidates: {shown}. Use fence_every=1 to name the exact one."
            )
        if self.others:
            text += f" {len(self.others)} more command(s) of the same batch failed too."
        return text

    def all(self) -> tuple[CommandFailed, ...]:
        """This failure and the others of the same batch, in command order."""
        return (self, *self.others)
