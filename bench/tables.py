"""Click-to-world latency of the table runtime, in server ticks, with 1, 10 and 50 tables.

Setup per row: a fresh embedded world at 20 TPS, N copies of the shipped Wool Bluff arena
at different origins, two seated players per table (a match running, waiting for a bid),
and one `Supervisor` driving all N tables over one connection, as `mcbridge run` does.

A sample: a player right-clicks the COLOUR sign in their booth with a sword (at a random
moment within a tick); the latency is the number of ticks from the tick the click happened
after to the tick whose commands changed that sign's text, both read from the embedded
world's own tick counter in the same loop-thread call as the click or the read. The best
possible figure is 2: the poll that sees the click runs on the next tick, and the write it
causes on the tick after.

Also printed: the supervisor's cycle (write + poll round trip, then the tables' work), its
CPU time in the supervisor thread (rendering, reconciling, encoding, dispatch: what pushes a
cycle past one tick when it grows) and the world writes per cycle. `--profile` prints where
a cycle's time goes at the largest table count. Server, controller and clicking players share
one process here (and its GIL), which makes the figures pessimistic, not optimistic.

Active rows (`--mode active`, see tables_active.py): 4 players per table playing by chat as
fast as the rules allow, the controller in its own process, the same clicks measured. Each
active row also prints its slowest 1% of cycles by CPU: their CPU, time in the garbage
collector, writes (and of those, the writes of tables with input), tables whose output
waited (`mcbridge.tables.write_budget`), inputs (clicks and chat lines) and the CPU of each
phase, to tell a burst of play from a collection. Active CPU is the controller process's (all
its threads); "path" is the CPU on a click's path, from a cycle's replies to the next batch
encoded (absorb, start_cycle, encode; the protocol's `background` overlaps the wait): on a
loaded machine compare it and the CPU, which do not stretch with the load as ticks do.
"cycle" is a cycle's wall time, which includes the wait for the world's next tick (so a
tick, 50 ms, whenever the controller keeps up, plus the world's own jitter); "work" is that
less the wait, the controller's own time in the cycle, which the goal bounds; "ticks/cycle"
is the world's ticks per controller cycle over the row (1.000: every cycle fit its tick).
The world shares its process with the simulated players; once they are set up that process's
collector is settled as the controller's is (a real server is a process of its own, tuned).
`--profile` there profiles the controller process over the measured cycles (its figures
are then slowed by it) and prints its commands per cycle by name.
Mixed rows (`--mode mixed`): the same, with the tables dealt round-robin over every game
that has a table kit (each game's shipped arena and player count, its own chat commands).

Run: .venv/bin/python bench/tables.py [--tables 1,10,50] [--samples 200] [--tps 20]
     [--mode idle|active|both|mixed] [--profile [--profile-out FILE]]
     Mixed arena of 50 tables: .venv/bin/python bench/tables.py --mode mixed --tables 50
Goals: p99 <= 2 ticks at 50 tables (issue 4); active: also cycle (work) p99 <= 50 ms (issue 12).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from tables_active import SETUP_SECONDS, arena_copies, percentile, run_active_row

from mcbridge.tables.build import build_arena
from mcbridge.tables.config import Arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.embedded.simulator import EmbeddedPlayer
from mcbridge.world.geometry import Pos

PLAYERS_PER_TABLE = 2
SAMPLE_TIMEOUT = 10.0


class Controller:
    """The supervisor in its own thread, timing each cycle: wall time, and the thread's CPU
    time (the Python work of rendering, reconciling, encoding and dispatching; not the wait)."""

    def __init__(self, supervisor: Supervisor) -> None:
        self.supervisor = supervisor
        self.stop = threading.Event()
        self.cycle_seconds: list[float] = []
        self.cpu_seconds: list[float] = []
        self.commands: list[int] = []
        self.error: BaseException | None = None
        self.profiler: cProfile.Profile | None = None
        self.profile_left = 0
        self.thread = threading.Thread(target=self._run, name="supervisor", daemon=True)

    def _run(self) -> None:
        try:
            while not self.stop.is_set():
                started, cpu = time.perf_counter(), time.thread_time()
                profiler = self.profiler if self.profile_left > 0 else None
                stats = profiler.runcall(self.supervisor.step) if profiler else self.supervisor.step()
                if profiler:
                    self.profile_left -= 1
                    continue
                self.cycle_seconds.append(time.perf_counter() - started)
                self.cpu_seconds.append(time.thread_time() - cpu)
                self.commands.append(stats.commands)
        except BaseException as exc:  # reported by the main thread
            self.error = exc

    def profile(self, cycles: int) -> str:
        """Profile the next `cycles` cycles (profiling slows them: figures come from other cycles)."""
        self.profiler = cProfile.Profile()
        self.profile_left = cycles
        wait("the profiled cycles", lambda: self.profile_left == 0 or self.error is not None)
        out = io.StringIO()
        pstats.Stats(self.profiler, stream=out).sort_stats("cumulative").print_stats(22)
        return out.getvalue()

    def __enter__(self) -> Controller:
        self.thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.stop.set()
        self.thread.join(SAMPLE_TIMEOUT)


def wait(what: str, done: object, seconds: float = SETUP_SECONDS) -> None:
    deadline = time.monotonic() + seconds
    while not done():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what} did not happen within {seconds} s")
        time.sleep(0.01)


def click_latency(world: EmbeddedHandle, player: EmbeddedPlayer, arena: Arena, booth: int, tps: float) -> int:
    """Ticks from a click on the booth's COLOUR sign to the tick that rewrote its text."""
    sign = arena.frame.to_world(arena.seats[booth].signs["colour"].at)
    server = world.server
    ox, oy, oz = world.origin
    absolute = (sign.x + ox, sign.y + oy, sign.z + oz)
    before = world.sign_lines(sign.x, sign.y, sign.z)
    time.sleep(random.random() / tps)  # land anywhere within a tick

    def click() -> int:  # runs on the server's loop thread: no tick can pass in between
        player.right_click(sign.x, sign.y, sign.z)
        return server.ticks

    clicked_after = world.call(click)
    deadline = time.monotonic() + SAMPLE_TIMEOUT
    while True:
        ticks, lines = world.call(lambda: (server.ticks, server.world.sign_lines(absolute)))
        if lines != before:
            return ticks - clicked_after
        if time.monotonic() > deadline:
            raise TimeoutError(f"the click on {arena.name} booth {booth} changed nothing in {SAMPLE_TIMEOUT} s")
        time.sleep(0.001)


def run_row(count: int, samples: int, tps: float, profile: bool) -> dict[str, float]:
    arenas = arena_copies(count)
    rng = random.Random(count)
    with tempfile.TemporaryDirectory() as tmp, start_embedded(port=0, tps=tps) as world:
        journal = Journal(Path(tmp) / "journal.sqlite")
        with Connection(world.host, world.port) as conn:
            for arena in arenas:
                build_arena(conn, arena)
            caps = conn.capabilities()
            tables = [Table(a, journal, time.monotonic, seed=i, can_give="give" in caps,
                                     can_tell="tell" in caps, start_delay=0.2, reveal_hold=0.5)
                      for i, a in enumerate(arenas)]
            seated: list[tuple[int, int, EmbeddedPlayer]] = []
            for t, arena in enumerate(arenas):
                for booth in range(PLAYERS_PER_TABLE):
                    player = world.players.join(f"b{t}p{booth}")
                    inside = arena.seats[booth].interior.cuboid
                    centre = arena.frame.to_world(Pos(inside.lo.x + 2, inside.lo.y, inside.lo.z + 1))
                    player.walk_to(centre.x + 0.5, centre.y, centre.z + 0.5)
                    player.hold(276)  # a diamond sword
                    seated.append((t, booth, player))
            supervisor = Supervisor(conn, tables)
            with Controller(supervisor) as controller:
                wait("every match reaching its first bid",
                     lambda: controller.error is None and all(t.state is not None and t.state.phase == "bid"
                                                              for t in tables))
                time.sleep(0.5)  # the first full renders are out
                if controller.error:
                    raise controller.error
                controller.cycle_seconds.clear()
                controller.cpu_seconds.clear()
                controller.commands.clear()
                latencies = []
                for _ in range(samples):
                    t, booth, player = rng.choice(seated)
                    latencies.append(click_latency(world, player, arenas[t], booth, tps))
                cycles = list(controller.cycle_seconds)
                cpu = list(controller.cpu_seconds)
                commands = list(controller.commands)
                if profile:
                    print(f"\nwhere the supervisor's time goes with {count} tables (100 cycles, cProfile):")
                    print(controller.profile(100))
            if controller.error:
                raise controller.error
        journal.close()
    return {
        "tables": count,
        "players": count * PLAYERS_PER_TABLE,
        "samples": samples,
        "p50": percentile(latencies, 50),
        "p99": percentile(latencies, 99),
        "max": max(latencies),
        "mean": statistics.fmean(latencies),
        "cycle_p50_ms": 1000 * percentile(cycles, 50),
        "cycle_p99_ms": 1000 * percentile(cycles, 99),
        "cpu_p50_ms": 1000 * percentile(cpu, 50),
        "cpu_p99_ms": 1000 * percentile(cpu, 99),
        "commands": statistics.fmean(commands) if commands else 0.0,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", default="1,10,50", help="table counts, comma-separated")
    parser.add_argument("--samples", type=int, default=200, help="clicks per table count")
    parser.add_argument("--tps", type=float, default=20.0)
    parser.add_argument("--mode", choices=("idle", "active", "both", "mixed"), default="both",
                        help="idle: 2 seated players waiting for a bid; active: 4 players playing as fast as "
                        "the rules allow, the controller in its own process; mixed: active, over every game "
                        "with a table kit")
    parser.add_argument("--profile", action="store_true",
                        help="profile the tables' work at the largest count (active, mixed: the controller "
                        "process, with its commands per cycle by name)")
    parser.add_argument("--profile-out", default=None, metavar="FILE",
                        help="with --profile (active, mixed): also keep the controller's pstats file there, "
                        "to read its callers (`python -m pstats FILE`)")
    args = parser.parse_args()
    counts = [int(c) for c in args.tables.split(",")]
    tick_ms = 1000 / args.tps
    if args.mode in ("idle", "both"):
        print(f"IDLE: click -> world change, in ticks of {tick_ms:.0f} ms (embedded world at {args.tps:g} TPS, "
              f"{PLAYERS_PER_TABLE} seated players per table, one connection, controller in a thread)")
        header = (f"{'tables':>6} {'players':>7} {'clicks':>6} {'p50':>4} {'p99':>4} {'max':>4} {'mean':>5}  "
                  f"{'cycle p50':>9} {'cycle p99':>9} {'cpu p50':>8} {'cpu p99':>8} {'writes/cycle':>12}")
        rows = []
        for count in counts:
            row = run_row(count, args.samples, args.tps, profile=args.profile and count == max(counts))
            rows.append(row)
            if len(rows) == 1:
                print(header)
            print(f"{row['tables']:>6} {row['players']:>7} {row['samples']:>6} {row['p50']:>4.0f} "
                  f"{row['p99']:>4.0f} {row['max']:>4.0f} {row['mean']:>5.2f}  {row['cycle_p50_ms']:>7.1f}ms "
                  f"{row['cycle_p99_ms']:>7.1f}ms {row['cpu_p50_ms']:>6.1f}ms {row['cpu_p99_ms']:>6.1f}ms "
                  f"{row['commands']:>12.1f}", flush=True)
        verdict(rows[-1], tick_ms)
    if args.mode in ("active", "both", "mixed"):
        mixed = args.mode == "mixed"
        print(f"{'MIXED' if mixed else 'ACTIVE'}: {'the games with kits round-robin, ' if mixed else ''}"
              f"4 players per table (Briscola 5) playing by chat as fast as the rules allow; clicks on "
              f"Wool Bluff COLOUR signs (ticks of {tick_ms:.0f} ms); controller in its own process")
        header = (f"{'tables':>6} {'players':>7} {'clicks':>6} {'skip':>4} {'p50':>4} {'p99':>4} {'max':>4}  "
                  f"{'cycle p50':>9} {'cycle p99':>9} {'work p50':>8} {'work p99':>8} {'ticks/cycle':>11} "
                  f"{'cpu p50':>8} {'cpu p99':>8} {'path p50':>8} {'path p99':>8} {'writes/cycle':>12} "
                  f"{'actions/s':>9} {'world TPS':>9}")
        rows = []
        with tempfile.TemporaryDirectory() as tmp:
            for count in counts:
                profile = str(Path(tmp) / "controller.prof") if args.profile and count == max(counts) else None
                row = run_active_row(lambda: start_embedded(port=0, tps=args.tps), count, args.samples, args.tps,
                                     Path(tmp), mixed=mixed, profile=profile)
                rows.append(row)
                if len(rows) == 1:
                    print(header)
                print(f"{row['tables']:>6} {row['players']:>7} {row['samples']:>6} {row['skipped']:>4} "
                      f"{row['p50']:>4.0f} {row['p99']:>4.0f} {row['max']:>4.0f}  {row['cycle_p50_ms']:>7.1f}ms "
                      f"{row['cycle_p99_ms']:>7.1f}ms {row['work_p50_ms']:>6.1f}ms {row['work_p99_ms']:>6.1f}ms "
                      f"{row['ticks_per_cycle']:>11.3f} {row['cpu_p50_ms']:>6.1f}ms {row['cpu_p99_ms']:>6.1f}ms "
                      f"{row['path_p50_ms']:>6.1f}ms {row['path_p99_ms']:>6.1f}ms "
                      f"{row['commands']:>12.1f} {row['actions_per_s']:>9.1f} {row['server_tps']:>9.1f}", flush=True)
                print(f"{'':>6}   {row['slowest']}", flush=True)
                if profile:
                    print(f"\nwhere the controller's time goes with {count} tables (measured cycles, cProfile; "
                          "this row's figures are slowed by it):")
                    tally = json.loads(Path(profile + ".commands.json").read_text())
                    per_cycle = {name: n / max(1, tally["cycles"]) for name, n in tally["sent"].items()}
                    print("commands per cycle: " + ", ".join(f"{name} {n:.1f}" for name, n in
                                                           sorted(per_cycle.items(), key=lambda kv: -kv[1])))
                    print("public chat, most said: " + "; ".join(f"{n}x {text!r}" for text, n in tally["said"]))
                    for order in ("tottime", "cumulative"):
                        out = io.StringIO()
                        pstats.Stats(profile, stream=out).sort_stats(order).print_stats(25)
                        print(out.getvalue())
                    if args.profile_out:
                        shutil.copyfile(profile, args.profile_out)
        verdict(rows[-1], tick_ms, cycle_goal_ms=50.0)


def verdict(worst: dict[str, float], tick_ms: float, cycle_goal_ms: float | None = None) -> None:
    """The issue's goals for the largest row. Idle rows: click p99. Active rows: also the
    cycle, measured as the controller's work per cycle ("work": a cycle's wall time less the
    shell's wait for the world's replies) [decided here: a cycle's wall time includes the wait
    for the world's next tick, so it is a tick, 50 ms, whenever the controller keeps up, and
    more only by the world's own jitter; what the goal asks is that the controller's work
    fits in the tick, which "work" measures; "ticks/cycle" shows whether every cycle fit]."""
    cycle = worst.get("work_p99_ms", worst["cycle_p99_ms"])
    ok = worst["p99"] <= 2 and (cycle_goal_ms is None or cycle <= cycle_goal_ms)
    goal = "p99 <= 2 ticks" + (f" and cycle (work) p99 <= {cycle_goal_ms:.0f} ms" if cycle_goal_ms else "")
    fit = f", {worst['ticks_per_cycle']:.3f} ticks per cycle" if "ticks_per_cycle" in worst else ""
    print(f"goal {goal} at {worst['tables']:.0f} tables: {'met' if ok else 'MISSED'} (p99 {worst['p99']:.0f} ticks, "
          f"cycle p99 {cycle:.1f} ms{fit}); a cycle fits a tick while its work stays under {tick_ms:.0f} ms")


if __name__ == "__main__":
    main()
