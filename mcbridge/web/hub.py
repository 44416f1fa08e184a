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
from mcbridge.tables.table import Table
from mcbridge.web.spectator import TableWatch

log = logging.getLogger("mcbridge.web.operator")

#: Operator actions and whether they name a booth.
OPERATIONS = {"pause": False, "resume": False, "reset": False, "next_match": False,
              "unseat": True, "repair": False, "rebuild": False}


def _encode(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False).encode()


class PausableClock:
    """A table's clock that can stand still: while paused no timeout, countdown or hold
    advances, and on resume the table goes on as if no time had passed."""

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.offset = 0.0
        self.paused_at: float | None = None

    def __call__(self) -> float:
        return (self.paused_at if self.paused_at is not None else self.clock()) - self.offset

    def pause(self) -> None:
        if self.paused_at is None:
            self.paused_at = self.clock()

    def resume(self) -> None:
        if self.paused_at is not None:
            self.offset += self.clock() - self.paused_at
            self.paused_at = None


@dataclass(frozen=True)
class Command:
    action: str
    table: str
    booth: int | None
    by: str  # which operator connection asked (for the log)
    reply: Callable[[dict[str, Any]], None]


class WebHub:
    def __init__(self, tables: list[Table], *, rebuild: Callable[[Table], None] | None = None,
                 repair: Callable[[Table], None] | None = None) -> None:
        self.tables = {t.arena.name: t for t in tables}
        self.watches = {name: TableWatch(t) for name, t in self.tables.items()}
        self.clocks: dict[str, PausableClock] = {}
        for name, table in self.tables.items():
            self.clocks[name] = table.clock = PausableClock(table.clock)
        self.rebuild, self.repair = rebuild, repair
        self.commands: queue.SimpleQueue[Command] = queue.SimpleQueue()
        self.sink: Callable[[str, dict[str, bytes], float], None] | None = None
        self._keys: dict[str, Any] = {}
        #: table -> lang -> its last messages, encoded once for every spectator: state, map
        self.latest: dict[str, dict[str, bytes]] = {}
        self.maps: dict[str, bytes] = {}
        self.oplog: list[dict[str, Any]] = []
        #: table -> players an operator unseated during a match: kept away until it ends
        self.unseated: dict[str, set[str]] = {name: set() for name in self.tables}

    # -- on the tables' thread ---------------------------------------------------------------
    def cycle(self) -> bool:
        """Run once per supervisor cycle; returns False (as an `until` that never stops)."""
        while True:
            try:
                self._carry_out(self.commands.get_nowait())
            except queue.Empty:
                break
        self._keep_unseated()
        now_wall = time.monotonic()
        for name, watch in self.watches.items():
            table = watch.table
            fresh = watch.take_updates()
            now = table.clock()
            key = (table.match_id, table.seq, table.lobby_countdown(now), table.finished,
                   tuple((o.name, o.present) if o else None for o in table.occupants),
                   self._seconds_left(table, now), self.clocks[name].paused_at is not None)
            if not fresh and key == self._keys.get(name):
                continue
            self._keys[name] = key
            state = watch.state(now)
            state["paused"] = self.clocks[name].paused_at is not None
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

    def _keep_unseated(self) -> None:
        """An unseated player who is still online would be marked back by the next presence
        poll: keep them away (the rules play for them) until the match is over, then free
        the booth."""
        for name, players in self.unseated.items():
            table = self.tables[name]
            for booth, occ in enumerate(table.occupants):
                if occ is None or occ.name not in players:
                    continue
                if table.state is None:
                    table.occupants[booth] = None
                else:
                    occ.present, occ.away_since = False, -math.inf
            if table.state is None:
                players.clear()

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
        clock = self.clocks[cmd.table]
        if cmd.action == "pause":
            clock.pause()
            return "paused"
        if cmd.action == "resume":
            clock.resume()
            return "resumed"
        if cmd.action == "reset":
            return self._reset(table)
        if cmd.action == "next_match":
            if table.state is not None and not table.finished:
                return "refused: a match is running (reset it first)"
            if table.finished:
                self._reset(table)
            table.last_join = table.clock() - table.start_delay  # the countdown is over: start when enough sit
            return "starting when enough players sit"
        if cmd.action == "unseat":
            return self._unseat(table, cmd.booth, self.unseated[cmd.table])
        if cmd.action in ("repair", "rebuild"):
            hook = self.repair if cmd.action == "repair" else self.rebuild
            if hook is None:
                return f"refused: {cmd.action} needs the world connection (run or demo)"
            hook(table)
            return "done"
        raise AssertionError(cmd.action)

    @staticmethod
    def _reset(table: Table) -> str:
        """Abandon the running match (journaled as finished by the operator) and go back to
        the lobby; the players keep their booths."""
        if table.state is None:
            return "nothing to reset (no match)"
        if not table.finished and table.match_id is not None:
            table.journal.finish(table.match_id, {"standings": [], "aborted": "operator"})
        table._reset()  # [decided here] the runtime's own lobby reset; see the report
        return "back to the lobby"

    @staticmethod
    def _unseat(table: Table, booth: int | None, kept_away: set[str]) -> str:
        if booth is None or not 0 <= booth < len(table.occupants) or table.occupants[booth] is None:
            return "refused: nobody sits in that booth"
        occ = table.occupants[booth]
        assert occ is not None
        if table.state is None:
            table.occupants[booth] = None
            return f"{occ.name} unseated"
        # during a match: away for good, so the rules act for them at once and the booth is
        # freed when the match ends (the runtime's own way for a player who left)
        occ.present, occ.away_since = False, -math.inf
        kept_away.add(occ.name)
        return f"{occ.name} unseated (the rules play their turns until the match ends)"
