"""The interpreter's thread switch interval for a controller process (`mcbridge run`).

Why: the sync supervisor reads each batch's replies on an I/O thread while its main thread
does the tables' background work (`SupervisorProtocol.background`). Both need the
interpreter; at CPython's default interval (5 ms) a reply that arrives while the main
thread works waits up to 5 ms for each chunk the I/O thread receives and parses, so at 50
busy tables the replies were in hand 5.9 ms (p50) after the world sent them, against 0.9 ms
while the main thread was idle, and a cycle that should have fitted its tick missed it. At
1 ms the same lag was 1.9 ms (p50), 6.4 ms (p90, from 10.7); switching five times as often
costs the main thread nothing measurable (one check per millisecond).

[decided here] Only the application calls it (process-wide state is the program's choice,
not a library's): `mcbridge run` and the bench's controller, which stands for it.
"""

from __future__ import annotations

import sys

#: Seconds a thread runs before the interpreter hands over to another that waits.
SWITCH_INTERVAL = 0.001


def prefer_io_thread() -> float:
    """Let a waiting thread in within `SWITCH_INTERVAL`; returns the interval it replaced."""
    before = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    return before
