"""Fault injection for crash tests: SIGKILL the controller at an exact point.

`MCBRIDGE_KILL_AT=<match id>:<seq>` makes `mcbridge run` and `mcbridge demo` kill
themselves right after that action is journaled and before its effects are rendered:
the one moment a crash test cannot hit reliably from outside. Unset, nothing happens.
"""

from __future__ import annotations

import os
import signal

from mcbridge.tables.journal import Journal

ENV = "MCBRIDGE_KILL_AT"


def install_kill_points(journal: Journal) -> None:
    spec = os.environ.get(ENV, "").strip()
    if not spec:
        return
    match_text, _, seq_text = spec.partition(":")
    target = (int(match_text), int(seq_text))

    def maybe_kill(match_id: int, seq: int) -> None:
        if (match_id, seq) == target:
            os.kill(os.getpid(), signal.SIGKILL)

    journal.on_append.append(maybe_kill)
