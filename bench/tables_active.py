"""Active play for bench/tables.py: 4 players per table acting as fast as the rules allow,
with the controller (one `Supervisor` over every table) in its own process.

Mixed rows (`--mode mixed`) deal the tables round-robin over every game with a table kit
(Wool Bluff, Dice Bluff, Briscola bugiarda, ... as `KITS` lists them), each its shipped
arena on the grid, with as many players as that game takes (Briscola: exactly 5); the
players type each game's own chat commands (`command_text`, for all five games). The clicks are measured on
the Wool Bluff tables' COLOUR signs, which answer a click at any moment of a match.

The players live in the bench process next to the embedded world. They learn each match
from the journal (SQLite in WAL mode is read while the controller writes it), replay it
incrementally, and type each seat's decision in chat the moment it is that seat's turn
(the game's bot decides); chance actions, reveals and the next match come from the
controller. Meanwhile one player at a time clicks the COLOUR sign of their booth, and the
latency is counted in server ticks from the click to the tick whose write changed that
sign, exactly as in the idle rows.
"""

from __future__ import annotations

import collections
import cProfile
import dataclasses
import gc
import json
import multiprocessing
import random
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcbridge import CONFIG_DIR, games
from mcbridge.core import CHANCE, Action, Rng, State
from mcbridge.games import dice_bluff as dice
from mcbridge.games.wool_bluff import COLOURS, Bid, Bluff, Discard, Through
from mcbridge.i18n import locale
from mcbridge.tables.arena import Arena
from mcbridge.tables.config import load_arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.kits import games_with_kits
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.embedded.simulator import EmbeddedPlayer
from mcbridge.world.geometry import ArenaFrame, Facing, Pos

PLAYERS = 4
SETUP_SECONDS = 120.0
GRID = 10  # arenas per row of the grid
GAP = 3  # blocks between neighbouring arenas
RETYPE_SECONDS = 2.0  # a command still not applied after this long was refused or lost: type again
CLICK_TIMEOUT = 2.0  # a click on a table between matches changes nothing: the sample is skipped
WARM_UP_SECONDS = 1.0  # of play before measuring: the first renders of 50 tables are one 4,000-line write


def arena_copies(count: int, active: bool = False, mixed: bool = False) -> list[Arena]:
    """`count` copies of the shipped Wool Bluff arena (`mixed`: of every game's with a kit,
    round-robin) on a grid, each with its own name and origin. Idle rows: 1000 turns (a
    match that never ends); active rows: the shipped matches, so tables also finish, reset
    and start their next match. No timer ever fires."""
    bases = []
    for game in games_with_kits() if mixed else ["wool_bluff"]:
        base = load_arena(CONFIG_DIR / "arenas" / f"{game}.yaml")
        options = base.options if active else {**base.options, "turns": 1000}
        bases.append(dataclasses.replace(base, locale="en", timeouts={k: 3600 for k in base.timeouts},
                                         options=options))
    step_x = max(b.bounds.hi.x - b.bounds.lo.x for b in bases) + 1 + GAP
    step_z = max(b.bounds.hi.z - b.bounds.lo.z for b in bases) + 1 + GAP
    return [
        dataclasses.replace(bases[i % len(bases)], name=f"bench-{i}",
                            frame=ArenaFrame(Pos(-18 + (i % GRID) * step_x, -1, 4 + (i // GRID) * step_z),
                                             Facing.NORTH))
        for i in range(count)
    ]


def players_at(arena: Arena) -> int:
    """Seated players per table: 4, or as many as the game needs (Briscola bugiarda: 5)."""
    low, high = games.load(arena.game, arena.game_options()).player_range
    return min(max(PLAYERS, low), high, len(arena.seats))


def _wool_command(action: Action) -> str:
    if isinstance(action, Bid):
        return f"!bid {action.colour} {action.count}"
    if isinstance(action, Through):
        return "!through"
    if isinstance(action, Bluff):
        return "!bluff"
    assert isinstance(action, Discard)
    return "!discard " + " ".join(f"{c} {n}" for c, n in action.wool)


def _dice_command(action: Action, state: Any) -> str:
    def face(f: int) -> str:
        return "star" if f == state.rules.wild_face else str(f)

    if isinstance(action, dice.Bid):
        return f"!bid {action.count} {face(action.face)}"
    if isinstance(action, dice.SetAside):
        return "!aside " + " ".join(face(d) for d in action.dice)
    assert isinstance(action, dice.Challenge)
    return "!challenge"


def _briscola_command(action: Action) -> str:
    from mcbridge.games.briscola_bugiarda.actions import Bid as RankBid
    from mcbridge.games.briscola_bugiarda.actions import CallTrump, Pass, Play, Solo

    if isinstance(action, RankBid):
        return f"!bid {action.rank}"
    if isinstance(action, CallTrump):
        return f"!trump {action.suit}"
    if isinstance(action, Play):
        return f"!play {action.card}"
    return "!solo" if isinstance(action, Solo) else "!pass" if isinstance(action, Pass) else ""


def _bribery_command(action: Action) -> str:
    from mcbridge.games.bribery import actions as bribery

    def cards(values: tuple[int, ...]) -> str:
        return " ".join("informant" if v == bribery.INFORMANT else str(v) for v in values)

    if isinstance(action, bribery.Pass):
        return "!pass informant" if action.refill == "card_and_informant" else "!pass"
    if isinstance(action, bribery.Raise):
        return f"!raise {cards(action.cards)}"
    if isinstance(action, bribery.Call):
        return f"!call {cards(action.cards)}"
    return "!fold" if isinstance(action, bribery.Fold) else "!allin"


def _braff_command(action: Action) -> str:
    from mcbridge.games.braff import actions as braff

    if isinstance(action, braff.Discard):
        return "!discard " + " ".join(action.cards) if action.cards else "!keep"
    if isinstance(action, braff.Raise):
        return f"!raise {action.cup} {action.stake}"
    if isinstance(action, braff.Doubt):
        return "!fake" if action.kind == "fake" else "!not enough"
    words = {braff.Call: "!call", braff.AllIn: "!all in", braff.Drop: "!drop", braff.Stand: "!stand"}
    return words[type(action)]


def command_text(action: Action, state: Any) -> str:
    """The English chat command a player types for `action` (the games' own parsers read it)."""
    game = state.game.name
    if game == "dice_bluff":
        return _dice_command(action, state)
    if game == "briscola_bugiarda":
        return _briscola_command(action)
    if game == "bribery":
        return _bribery_command(action)
    if game == "braff":
        return _braff_command(action)
    return _wool_command(action)


@dataclass
class Followed:
    """One match as the players know it: replayed from the journal as rows arrive."""

    state: State
    game: Any
    players: list[str]
    policy: Any = None  # the game's bot: what the players decide with
    seq: int = 0
    typed: dict[tuple[int, int], float] = field(default_factory=dict)  # (seat, k) -> when typed
    done_by: dict[int, int] = field(default_factory=dict)  # seat -> actions taken


class Players:
    """Every seated player of every table, typing commands as soon as the rules allow."""

    def __init__(self, journal_path: Path, players: dict[str, EmbeddedPlayer]) -> None:
        self.journal_path = journal_path
        self.players = players
        self.matches: dict[int, Followed] = {}
        self.last_row = 0
        self.typed = 0
        self.db: Journal | None = None

    def act(self) -> None:
        if self.db is None:
            if not self.journal_path.exists():
                return
            self.db = Journal(self.journal_path)
        rows = self.db.db.execute(
            "SELECT rowid, match_id, seat, action FROM actions WHERE rowid > ? ORDER BY rowid", (self.last_row,)
        ).fetchall()
        for rowid, match_id, seat, text in rows:
            followed = self._follow(match_id)
            followed.state.apply(seat, followed.game.action_from_json(json.loads(text)))
            followed.seq += 1
            if seat != CHANCE:
                followed.done_by[seat] = followed.done_by.get(seat, 0) + 1
            self.last_row = rowid
        now = time.monotonic()
        for followed in self.matches.values():
            state = followed.state
            if state.is_over:
                continue
            for seat in sorted(state.to_act() - {CHANCE}):
                key = (seat, followed.done_by.get(seat, 0))
                if now - followed.typed.get(key, -RETYPE_SECONDS) < RETYPE_SECONDS:
                    continue
                rng = Rng.derived(followed.seq, seat, key[1])
                action = followed.policy.choose(state.view(seat), state.legal_actions(seat), rng)
                self.players[followed.players[seat]].chat(command_text(action, state))
                followed.typed[key] = now
                self.typed += 1

    def _follow(self, match_id: int) -> Followed:
        if match_id not in self.matches:
            assert self.db is not None
            saved = self.db.match(match_id)
            game = games.load(saved.game, saved.rules_options())
            self.matches[match_id] = Followed(game.new_match(saved.players, saved.seed), game, saved.players,
                                              game.bot())
            # forget old matches once over: a long one (Briscola's five deals) outlives hundreds of short ones
            for old in [m for m, f in self.matches.items() if m < match_id - 200 and f.state.is_over]:
                del self.matches[old]
        return self.matches[match_id]

    def playing(self, name: str) -> bool:
        """Whether `name` is in a match that is not over (their clicks then count)."""
        for followed in reversed(list(self.matches.values())):
            if name in followed.players:
                return not followed.state.is_over
        return False


def controller_process(port: int, count: int, journal: str, stats: str, measure: Any, stop: Any,
                       mixed: bool = False, profile: str | None = None, settle_gc: bool = True) -> None:
    """`mcbridge run` for `count` tables, timing every cycle while `measure` is set; with
    `profile` (a path), cProfile over the measured cycles goes there (`pstats` format; it
    slows them, so the row's figures are then not comparable)."""
    from mcbridge.tables import collector, switching
    from mcbridge.tables.supervisor import Supervisor
    from mcbridge.tables.table import Table
    from mcbridge.world.connection import Connection

    arenas = arena_copies(count, active=True, mixed=mixed)
    with Connection("127.0.0.1", port) as conn:
        caps = conn.capabilities()
        db = Journal(journal)
        tables = [Table(a, db, time.monotonic, seed=i, can_give="give" in caps, can_tell="tell" in caps,
                        start_delay=0.2, hold=0.2, reveal_hold=0.2) for i, a in enumerate(arenas)]
        supervisor = Supervisor(conn, tables, while_waiting=collector.collect_ahead if settle_gc else None)
        if settle_gc:
            collector.settle()  # as `mcbridge run` does (and its collections ahead, while waiting)
            switching.prefer_io_thread()  # as `mcbridge run` does
        sent: collections.Counter[str] = collections.Counter()  # with `profile`: commands by name
        said: collections.Counter[str] = collections.Counter()  # and public chat by how it starts
        if profile:
            run_batch = conn.run_batch

            def counted(items: Any, fence_every: int, **options: Any) -> None:
                if measure.is_set():
                    sent.update(item.command.name for item in items)
                    said.update(" ".join(item.command.args)[:24] for item in items if item.command.name == "chat.post")
                run_batch(items, fence_every, **options)

            conn.run_batch = counted  # type: ignore[method-assign]
        cycles: list[float] = []
        cpu: list[float] = []
        commands: list[int] = []
        profiler = cProfile.Profile() if profile else None
        gc_seconds: list[float] = []  # per cycle: CPU time in the garbage collector
        gc_now = [0.0, 0.0]  # (this cycle's total, when the running collection started)

        def gc_timer(phase: str, _info: object) -> None:
            if phase == "start":
                gc_now[1] = time.thread_time()
            else:
                gc_now[0] += time.thread_time() - gc_now[1]

        gc.callbacks.append(gc_timer)
        phases = time_phases()
        waited = timed_reply_wait()
        work: list[float] = []  # per cycle: its wall time less the shell's wait for the replies
        phase_cpu: list[dict[str, float]] = []
        chats: list[int] = []
        urgent: list[int] = []  # per cycle: the writes of tables with input (or reads)
        deferred: list[int] = []  # per cycle: tables whose changed output waited
        while not stop.is_set():
            gc_now[0] = 0.0
            phases.clear()
            waited[0] = 0.0
            started, process_cpu = time.perf_counter(), time.process_time()
            cycle = profiler.runcall(supervisor.step) if profiler and measure.is_set() else supervisor.step()
            if measure.is_set():
                cycles.append(time.perf_counter() - started)
                work.append(cycles[-1] - waited[0])
                cpu.append(time.process_time() - process_cpu)  # every thread's (the shell's I/O thread too)
                commands.append(cycle.commands)
                chats.append(cycle.chats + cycle.hits)
                urgent.append(cycle.urgent)
                deferred.append(cycle.deferred)
                gc_seconds.append(gc_now[0])
                phase_cpu.append(dict(phases))
        Path(stats).write_text(json.dumps({"cycles": cycles, "work": work, "cpu": cpu, "commands": commands,
                                           "inputs": chats,
                                           "urgent": urgent, "deferred": deferred,
                                           "gc": gc_seconds, "phases": phase_cpu, "tracked": len(gc.get_objects()),
                                           "collections": [g["collections"] for g in gc.get_stats()]}))
        if profiler and profile:
            profiler.dump_stats(profile)
            Path(profile + ".commands.json").write_text(json.dumps({"cycles": len(cycles), "sent": dict(sent),
                                                                        "said": said.most_common(8)}))
        db.close()


#: The controller's work by phase, timed per cycle (CPU): (what, class, method)
PHASES = (
    # the click's path: from the replies to the next batch encoded (not `background`, which overlaps the wait)
    ("path", "mcbridge.tables.supervisor", "SupervisorProtocol", "absorb"),
    ("path", "mcbridge.tables.supervisor", "SupervisorProtocol", "start_cycle"),
    ("path", "mcbridge.world.pipeline", "Pipeline", "encode"),
    ("dispatch", "mcbridge.tables.supervisor", "SupervisorProtocol", "_dispatch"),
    ("tick", "mcbridge.tables.table", "Table", "tick"),
    ("render", "mcbridge.tables.table", "Table", "scene"),
    ("reconcile", "mcbridge.tables.reconcile", "Reconciler", "write"),
    ("journal", "mcbridge.tables.journal", "Journal", "_flush"),
    ("encode", "mcbridge.world.pipeline", "Pipeline", "encode"),
)


def timed_reply_wait() -> list[float]:
    """Time the sync shell's wait for a batch's replies (its `futures.wait`, in the controller
    process only) into the returned one-element list, which the caller zeroes every cycle:
    a cycle's wall time less that wait is the controller's own work in the cycle."""
    from mcbridge.tables import supervisor as supervisor_module

    waited = [0.0]
    real = supervisor_module.futures

    class TimedFutures:
        @staticmethod
        def wait(fs: Any, *args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return real.wait(fs, *args, **kwargs)
            finally:
                waited[0] += time.perf_counter() - began

    setattr(supervisor_module, "futures", TimedFutures)  # noqa: B010
    return waited


def time_phases() -> dict[str, float]:
    """Wrap the controller's phases (class-wide, in the controller process only) to add their
    CPU time into the returned dict, which the caller clears every cycle. Nested calls of the
    same phase count once (the outermost)."""
    import importlib

    spent: dict[str, float] = {}
    for what, module, cls_name, method in PHASES:
        cls = getattr(importlib.import_module(module), cls_name, None)
        if cls is None or not hasattr(cls, method):
            continue
        inner = getattr(cls, method)
        depth = [0]

        def timed(*args: Any, _inner: Any = inner, _what: str = what, _depth: list[int] = depth, **kw: Any) -> Any:
            if _depth[0]:
                return _inner(*args, **kw)
            _depth[0] += 1
            began = time.thread_time()
            try:
                return _inner(*args, **kw)
            finally:
                _depth[0] -= 1
                spent[_what] = spent.get(_what, 0.0) + time.thread_time() - began

        setattr(cls, method, timed)
    return spent


COLOUR_TEXT = {tuple(locale("en").lines("wool_bluff.sign.colour", colour=c))[1]: c for c in COLOURS}


def click_colour(world: EmbeddedHandle, player: EmbeddedPlayer, arena: Arena, booth: int, tps: float) -> int | None:
    """Ticks from a click on the booth's COLOUR sign to the tick that shows the next colour;
    None when the sign showed something else (a new decision reset the draft) or nothing."""
    sign = arena.frame.to_world(arena.seats[booth].signs["colour"].at)
    server = world.server
    ox, oy, oz = world.origin
    absolute = (sign.x + ox, sign.y + oy, sign.z + oz)
    before = world.sign_lines(sign.x, sign.y, sign.z)
    if before is None or before[1].strip() not in COLOUR_TEXT:
        return None
    wanted = COLOURS[(COLOURS.index(COLOUR_TEXT[before[1].strip()]) + 1) % len(COLOURS)]
    time.sleep(random.random() / tps)  # land anywhere within a tick

    def click() -> int:  # on the server's loop thread: no tick passes in between
        player.right_click(sign.x, sign.y, sign.z)
        return server.ticks

    clicked_after = world.call(click)
    deadline = time.monotonic() + CLICK_TIMEOUT
    while time.monotonic() < deadline:
        ticks, lines = world.call(lambda: (server.ticks, server.world.sign_lines(absolute)))
        if lines != before:
            return ticks - clicked_after if lines and COLOUR_TEXT.get(lines[1].strip()) == wanted else None
        time.sleep(0.005)  # ticks are read from the world's own counter: polling often gains nothing
    return None


def seat_everyone(world: EmbeddedHandle, arenas: list[Arena]) -> dict[str, tuple[EmbeddedPlayer, int, int]]:
    seated = {}
    for t, arena in enumerate(arenas):
        for booth in range(players_at(arena)):
            name = f"t{t}p{booth}"
            player = world.players.join(name)
            inside = arena.seats[booth].interior.cuboid
            centre = arena.frame.to_world(Pos(inside.lo.x + 2, inside.lo.y, inside.lo.z + 1))
            player.walk_to(centre.x + 0.5, centre.y, centre.z + 0.5)
            player.hold(276)  # a diamond sword
            seated[name] = (player, t, booth)
    return seated


def settle_world_process() -> tuple[int, int, int]:
    """Here the world shares its process with the simulated players (a real server has its
    own, tuned): once both are set up, freeze what lives on and make full collections rare,
    as the controller's `collector.settle` does, so the collector of this process does not
    stall the world's ticks (a 20 s row at 50 tables had six full collections of up to 27 ms
    each, on the world's tick thread). Returns the thresholds to put back."""
    from mcbridge.tables import collector

    settings = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(collector.YOUNG_THRESHOLD, settings[1], collector.OLD_THRESHOLD)
    return settings


def phase_line(cycles: list[dict[str, float]]) -> str:
    """Mean CPU ms per phase over these cycles (see `PHASES`)."""
    return " ".join(f"{what} {1000 * statistics.fmean(c.get(what, 0.0) for c in cycles):.1f}"
                    for what in dict.fromkeys(what for what, *_ in PHASES))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered) + 0.5) - 1))]


def run_active_row(world_factory: Any, count: int, samples: int, tps: float, tmp: Path,
                   mixed: bool = False, profile: str | None = None) -> dict[str, Any]:
    from mcbridge.tables.build import build_arena
    from mcbridge.world.connection import Connection

    arenas = arena_copies(count, active=True, mixed=mixed)
    kind = "mixed" if mixed else "active"
    journal = tmp / f"{kind}-{count}.sqlite"
    stats = tmp / f"{kind}-{count}.json"
    ctx = multiprocessing.get_context("spawn")
    measure, stop = ctx.Event(), ctx.Event()
    with world_factory() as world:
        with Connection(world.host, world.port) as conn:
            for arena in arenas:
                build_arena(conn, arena)
        seated = seat_everyone(world, arenas)
        players = Players(journal, {name: p for name, (p, _, _) in seated.items()})
        controller = ctx.Process(target=controller_process,
                                 args=(world.port, count, str(journal), str(stats), measure, stop, mixed, profile),
                                 daemon=True)
        controller.start()
        collector_settings = settle_world_process()
        try:
            deadline = time.monotonic() + SETUP_SECONDS
            while len({m for m, f in players.matches.items() if f.seq > 0}) < count:  # every table playing
                if time.monotonic() > deadline or not controller.is_alive():
                    raise TimeoutError("the active tables did not all start")
                players.act()
                time.sleep(0.005)
            warm = time.monotonic() + WARM_UP_SECONDS  # every table's first full render is out
            while time.monotonic() < warm:
                players.act()
                time.sleep(0.005)
            rng = random.Random(count)
            names = [n for n, (_, t, _) in seated.items() if arenas[t].game == "wool_bluff"]  # COLOUR signs
            latencies: list[int] = []
            skipped = 0
            measure.set()
            started, typed_before, rows_before = time.monotonic(), players.typed, players.last_row
            ticks_before = world.call(lambda: world.server.ticks)
            while len(latencies) < samples:
                players.act()
                name = rng.choice(names)
                player, t, booth = seated[name]
                if not players.playing(name):
                    continue
                latency = click_colour(world, player, arenas[t], booth, tps)
                if latency is None:
                    skipped += 1
                else:
                    latencies.append(latency)
                players.act()
            elapsed = time.monotonic() - started
            ticks = world.call(lambda: world.server.ticks) - ticks_before
            actions = players.last_row - rows_before
            typed = players.typed - typed_before
            measure.clear()
        finally:
            gc.unfreeze()
            gc.set_threshold(*collector_settings)
            stop.set()
            controller.join(30)
            if controller.is_alive():
                controller.kill()
    data = json.loads(stats.read_text())
    cycles, cpu, commands = data["cycles"], data["cpu"], data["commands"]
    slow = sorted(range(len(cpu)), key=cpu.__getitem__)[-max(1, len(cpu) // 100):]  # the slowest 1% by CPU
    slowest = (f"slowest 1% of cycles by CPU ({len(slow)}): "
               f"cpu {1000 * statistics.fmean(cpu[i] for i in slow):.1f} ms, "
               f"gc {1000 * statistics.fmean(data['gc'][i] for i in slow):.1f} ms, "
               f"writes {statistics.fmean(commands[i] for i in slow):.0f} "
               f"(for input {statistics.fmean(data['urgent'][i] for i in slow):.0f}), "
               f"deferred {statistics.fmean(data['deferred'][i] for i in slow):.1f}, "
               f"inputs {statistics.fmean(data['inputs'][i] for i in slow):.1f}, "
               f"{phase_line([data['phases'][i] for i in slow])}; all cycles: {phase_line(data['phases'])}, gc "
               f"{1000 * statistics.fmean(data['gc']):.2f} ms, inputs {statistics.fmean(data['inputs']):.1f}, "
               f"writes for input {statistics.fmean(data['urgent']):.0f}, "
               f"deferred {statistics.fmean(data['deferred']):.1f}; "
               f"{data['tracked']} objects tracked at the end, collections by generation {data['collections']}")
    return {
        "tables": count,
        "players": len(seated),
        "games": len({a.game for a in arenas}),
        "samples": samples,
        "skipped": skipped,
        "p50": percentile([float(x) for x in latencies], 50),
        "p99": percentile([float(x) for x in latencies], 99),
        "max": max(latencies),
        "cycle_p50_ms": 1000 * percentile(cycles, 50),
        "cycle_p99_ms": 1000 * percentile(cycles, 99),
        "work_p50_ms": 1000 * percentile(data["work"], 50),
        "work_p99_ms": 1000 * percentile(data["work"], 99),
        # ticks of the world per controller cycle over the measured play: 1.00 when every
        # cycle fits its tick (each tick then serves one cycle's write and polls)
        "ticks_per_cycle": ticks / max(1, len(cycles)),
        "cpu_p50_ms": 1000 * percentile(cpu, 50),
        "cpu_p99_ms": 1000 * percentile(cpu, 99),
        "path_p50_ms": 1000 * percentile([c.get("path", 0.0) for c in data["phases"]], 50),
        "path_p99_ms": 1000 * percentile([c.get("path", 0.0) for c in data["phases"]], 99),
        "commands": statistics.fmean(commands) if commands else 0.0,
        "actions_per_s": actions / elapsed,
        "typed_per_s": typed / elapsed,
        "server_tps": ticks / elapsed,
        "slowest": slowest,
    }
