"""The bridge between the tables' thread and the web server's event loop.

The supervisor loop calls `WebHub.cycle()` once per cycle (the one-line hook: `run`
passes it as the loop's `until`, the demo as its `on_cycle`). In that call, on the
tables' own thread, the hub (1) carries out the operator commands the server queued,
and (2) builds each changed table's public state once per language and hands the encoded
messages to the loop with `call_soon_threadsafe`. The table never waits for the web: the
hub's work is a few dict builds when something changed, nothing when nothing did.
"""

from __future__ import annotations

import json
import logging
import math
import queue
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mcbridge.i18n import LANGUAGES
from mcbridge.tables.pause import OPERATOR, Pauses
from mcbridge.tables.table import Table
from mcbridge.web.spectator import TableWatch

log = logging.getLogger("mcbridge.web.operator")

#: Operator actions and whether they name a booth.
OPERATIONS = {"pause": False, "resume": False, "reset": False, "next_match": False,
              "unseat": True, "repair": False, "rebuild": False}


def _encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False).encode()


@dataclass(frozen=True)
class Command:
    action: str
    table: str
    booth: int | None
    by: str  # which operator connection asked (for the log)
    reply: Callable[[dict[str, Any]], None]


class WebHub:
    def __init__(self, tables: list[Table], *, pauses: Pauses | None = None,
                 rebuild: Callable[[Table], None] | None = None,
                 repair: Callable[[Table], None] | None = None) -> None:
        """`pauses`: the supervisor's, so an operator's pause is one more reason beside a
        world outage or journal trouble (`mcbridge.tables.pause`); without a supervisor
        (tests, the bench) the hub keeps its own."""
        self.tables = {t.arena.name: t for t in tables}
        self.watches = {name: TableWatch(t) for name, t in self.tables.items()}
        self.pauses = pauses if pauses is not None else Pauses(tables)
        self.pause_index = {name: self.pauses.index(t) for name, t in self.tables.items()}
        self.rebuild, self.repair = rebuild, repair
        self.commands: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self.sink: Callable[[str, dict[str, bytes], float], None] | None = None
        self._keys: dict[str, Any] = {}
        #: table -> lang -> its last messages, encoded once for every spectator: state, map
        self.latest: dict[str, dict[str, bytes]] = {}
        self.maps: dict[str, bytes] = {}
        self.oplog: list[dict[str, Any]] = []

    # -- on the tables' thread ---------------------------------------------------------------
    def cycle(self) -> bool:
        """Run once per supervisor cycle; returns False (as an `until` that never stops)."""
        while True:
            try:
                self._carry_out(self.commands.get_nowait())
            except queue.Empty:
                break
        now_wall = time.monotonic()
        for name, watch in self.watches.items():
            table = watch.table
            fresh = watch.take_updates()
            index = self.pause_index[name]
            reasons = sorted(self.pauses.reasons(index))
            since = self.pauses.since(index)
            now = table.clock() if since is None else since  # a paused table's timers stand still
            key = (table.match_id, table.seq, table.lobby_countdown(now), table.finished,
                   tuple((o.name, o.present) if o else None for o in table.occupants),
                   self._seconds_left(table, now), tuple(reasons))
            if not fresh and key == self._keys.get(name):
                continue
            self._keys[name] = key
            state = watch.state(now)
            state["paused"], state["pause_reasons"] = bool(reasons), reasons
            messages = {}
            for lang in LANGUAGES:
                lines = [line["text"][lang] for line in fresh]
                messages[lang] = _encode({"type": "table", **state, "log": lines})
            self.latest[name] = messages
            drawn = _encode(watch.map_message())
            if drawn != self.maps.get(name):  # the map goes out only when it changed
                self.maps[name] = drawn
                if self.sink is not None:
                    self.sink(name, dict.fromkeys(LANGUAGES, drawn), now_wall)
            if self.sink is not None:
                self.sink(name, messages, now_wall)
        return False

    @staticmethod
    def _seconds_left(table: Table, now: float) -> tuple[int, ...]:
        return tuple(math.ceil(d - now) for d in table.deadlines.values() if not math.isinf(d))

    def history(self, name: str, lang: str) -> list[str]:
        return [line["text"][lang] for line in self.watches[name].log]

    # -- operator commands ----------------------------------------------------------------
    def submit(self, command: Command) -> None:
        """From the server's thread: queued, carried out at the next cycle."""
        self.commands.put(command)

    def _carry_out(self, cmd: Command) -> None:
        table = self.tables[cmd.table]
        try:
            done = self._operate(table, cmd)
        except Exception as exc:  # an operator action must never stop the tables
            log.exception("operator %s: %s on %s failed", cmd.by, cmd.action, cmd.table)
            done = f"failed: {exc}"
        entry = {"at": time.time(), "by": cmd.by, "action": cmd.action, "table": cmd.table,
                 "booth": cmd.booth, "result": done}
        self.oplog.append(entry)
        del self.oplog[:-100]
        log.info("operator %s: %s table=%s booth=%s -> %s", cmd.by, cmd.action, cmd.table, cmd.booth, done)
        cmd.reply({"type": "op_done", **entry})

    def _operate(self, table: Table, cmd: Command) -> str:
        if cmd.action in ("pause", "resume"):
            return self._pause(cmd.table, cmd.action == "pause")
        if cmd.action == "reset":
            return "back to the lobby" if table.reset_match(OPERATOR) else "nothing to reset (no match)"
        if cmd.action == "next_match":
            if table.state is not None and not table.finished:
                return "refused: a match is running (reset it first)"
            table.reset_match(OPERATOR)  # the standings' hold, if any, is over
            table.last_join = table.clock() - table.start_delay  # the countdown is over: start when enough sit
            return "starting when enough players sit"
        if cmd.action == "unseat":
            name = table.unseat(cmd.booth, OPERATOR) if cmd.booth is not None else None
            if name is None:
                return "refused: nobody sits in that booth"
            if table.state is None:
                return f"{name} unseated"
            return f"{name} unseated (the rules play their turns until the match ends)"
        if cmd.action in ("repair", "rebuild"):
            hook = self.repair if cmd.action == "repair" else self.rebuild
            if hook is None:
                return f"refused: {cmd.action} needs the world connection (run or demo)"
            hook(table)
            return "done"
        raise AssertionError(cmd.action)

    def _pause(self, name: str, on: bool) -> str:
        """The operator's reason to pause, beside any other; resuming lifts only that one."""
        index = self.pause_index[name]
        if on == (OPERATOR in self.pauses.reasons(index)):
            return "already paused" if on else "refused: not paused by an operator"
        self.pauses.set(index, OPERATOR, on)
        if on:
            return "paused"
        others = self.pauses.reasons(index)
        return f"resumed; still paused: {', '.join(sorted(others))}" if others else "resumed"
