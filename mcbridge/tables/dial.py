"""Connect to the world the way an operator can follow: where, which attempt, when the next one is.

`mcbridge run` is often started before the server (a service manager starts both, or the
server is still loading its world). Instead of a traceback after five silent seconds, it
says where it is connecting, waits with growing pauses, and after `attempts` tries stops
with one line that says what to check.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from mcbridge.world.connection import Connection
from mcbridge.world.errors import ConnectionLost

#: [decided here] 1, 2, 4, 8, 15, 15... seconds between tries: a starting flying-squid
#: (about 10 s) is caught on the 3rd or 4th try; the default 8 tries span about 1.5 minutes.
FIRST_PAUSE, MAX_PAUSE = 1.0, 15.0
DEFAULT_ATTEMPTS = 8
#: How long one attempt keeps knocking (refused connections are retried within it).
ATTEMPT_SECONDS = 2.0


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def dial(
    host: str,
    port: int,
    *,
    attempts: int | None = DEFAULT_ATTEMPTS,
    attempt_seconds: float = ATTEMPT_SECONDS,
    say: Callable[[str], None] = _say,
    sleep: Callable[[float], None] = time.sleep,
    connect: Callable[..., Connection] = Connection,
) -> Connection:
    """A connected `Connection`, or ConnectionLost after `attempts` tries (0 = keep trying, None = default)."""
    attempts = DEFAULT_ATTEMPTS if attempts is None else attempts
    pause = FIRST_PAUSE
    attempt = 0
    while True:
        attempt += 1
        of = f" of {attempts}" if attempts else ""
        say(f"connecting to the RaspberryJuice server at {host}:{port} (attempt {attempt}{of})")
        try:
            return connect(host, port, connect_timeout=attempt_seconds)
        except ConnectionLost as exc:
            cause = exc.__cause__
            reason = getattr(cause, "strerror", None) or str(cause or exc)
            if attempts and attempt >= attempts:
                raise ConnectionLost(
                    f"no RaspberryJuice server answered at {host}:{port} after {attempt} attempt(s) ({reason}); "
                    f"start it (`mcbridge server`, or `mcbridge world serve --port {port}`) or check --host/--port"
                ) from None
            say(f"  {host}:{port}: {reason}; next try in {pause:g} s")
            sleep(pause)
            pause = min(pause * 2, MAX_PAUSE)
