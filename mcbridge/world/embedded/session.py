"""One RaspberryJuice connection: its line reader, input queue, event queues and origin.

This mirrors RJ's ``RemoteSession``: lines wait in an input queue until the server tick
runs them (at most ``max_commands_per_tick`` per tick), replies go out in request order,
and block hits and chat posts are copied into *every open session's own* queues when they
happen, so a connection opened later never sees earlier events. The origin is fixed on the
session's first tick.
"""

from __future__ import annotations

import codecs
import logging
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from .overlays import BlockChange
from .storage import Position
from .world import BlockHit, ChatPost, Player

log = logging.getLogger("mcbridge.world.embedded")

#: Lines longer than this are not kept (RJ has no cap; a cap keeps memory bounded: 200
#: connections each holding an unterminated line cost at most 200 x 64 KiB). The client's
#: longest request is 16 KiB (`pipeline.MAX_REQUEST_CHARS`). The line is answered
#: ``Fail``, so a client waiting for a reply still gets exactly one line.
MAX_LINE_CHARS = 1 << 16
#: Event queues keep at most this many events per kind; the oldest are dropped beyond it.
MAX_QUEUED_EVENTS = 100_000
#: Stands in for an over-long line in the input queue.
OVERLONG_LINE = "\x00overlong"


class LineSplitter:
    """Java ``BufferedReader.readLine`` over a byte stream: CR, LF and CRLF end a line,
    bytes are UTF-8 and invalid sequences become U+FFFD."""

    def __init__(self, max_chars: int = MAX_LINE_CHARS) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._partial: list[str] = []
        self._partial_len = 0
        self._overlong = False
        self._after_cr = False
        self._max = max_chars

    def feed(self, data: bytes) -> list[str]:
        return self._split(self._decoder.decode(data))

    def finish(self) -> list[str]:
        """At end of stream: the unterminated last line, if any (readLine returns it)."""
        lines = self._split(self._decoder.decode(b"", final=True))
        if self._partial_len or self._overlong:
            lines.append(self._take())
        return lines

    def _split(self, text: str) -> list[str]:
        lines: list[str] = []
        if not text:
            return lines
        start = 0
        if self._after_cr and text.startswith("\n"):
            start = 1
        self._after_cr = False
        length = len(text)
        while start < length:
            cr, lf = text.find("\r", start), text.find("\n", start)
            ends = [i for i in (cr, lf) if i >= 0]
            if not ends:
                self._append(text[start:])
                break
            end = min(ends)
            self._append(text[start:end])
            lines.append(self._take())
            if text[end] == "\r":
                if end + 1 < length and text[end + 1] == "\n":
                    end += 1
                elif end + 1 == length:
                    self._after_cr = True
            start = end + 1
        return lines

    def _append(self, piece: str) -> None:
        if self._overlong:
            return
        self._partial_len += len(piece)
        if self._partial_len > self._max:
            self._overlong = True
            self._partial.clear()
        else:
            self._partial.append(piece)

    def _take(self) -> str:
        line = OVERLONG_LINE if self._overlong else "".join(self._partial)
        self._partial.clear()
        self._partial_len = 0
        self._overlong = False
        return line


@dataclass(eq=False)
class Session:
    """Protocol state of one connection; the server owns its socket."""

    number: int
    write: Callable[[bytes], None]
    output_backlog: Callable[[], int] = lambda: 0
    close: Callable[[], None] = lambda: None
    origin: tuple[float, float, float] | None = None
    block_origin: Position = (0, 0, 0)
    attached_player: Player | None = None
    in_queue: deque[str] = field(default_factory=deque)
    hits: deque[BlockHit] = field(default_factory=lambda: deque(maxlen=MAX_QUEUED_EVENTS))
    chats: deque[ChatPost] = field(default_factory=lambda: deque(maxlen=MAX_QUEUED_EVENTS))
    placed: deque[BlockChange] = field(default_factory=lambda: deque(maxlen=MAX_QUEUED_EVENTS))
    broken: deque[BlockChange] = field(default_factory=lambda: deque(maxlen=MAX_QUEUED_EVENTS))
    end_of_input: bool = False
    pending_removal: bool = False
    queued_chars: int = 0
    #: False until the shared secret was given, when the server has one.
    authenticated: bool = True
    #: Block positions as this session's lines spell them (x, y, z texts) -> absolute: a
    #: controller names the same few thousand cells tick after tick (see `Call.block_at`).
    positions: dict[tuple[str, str, str], Position] = field(default_factory=dict)

    def queue_lines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.in_queue.append(line)
            self.queued_chars += len(line)

    def next_line(self) -> str:
        line = self.in_queue.popleft()
        self.queued_chars -= len(line)
        return line

    # The world calls these (through the server) when a player acts.
    def block_hit(self, hit: BlockHit) -> None:
        self.hits.append(hit)

    def chat_posted(self, post: ChatPost) -> None:
        self.chats.append(post)

    def block_placed(self, change: BlockChange) -> None:
        self.placed.append(change)

    def block_broken(self, change: BlockChange) -> None:
        self.broken.append(change)

    def set_origin(self, origin: Position) -> None:
        """Fixed on the session's first tick (RJ: the spawn, or 0,0,0 when ABSOLUTE)."""
        self.block_origin = origin
        self.origin = (float(origin[0]), float(origin[1]), float(origin[2]))
        self.positions.clear()

    def send_lines(self, replies: list[str]) -> None:
        if replies:
            self.write(("\n".join(replies) + "\n").encode("utf-8", errors="replace"))
