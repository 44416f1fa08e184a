"""A short, bounded fault soak of the table runtime: matches of every game with a kit on the
embedded world, with faults thrown at random moments, each match compared with the same match
played without faults.

Faults: the world restarts empty on the same port (players rejoin in reversed order, so entity
ids go to other people); the world is killed and stays down for a while before it restarts;
the controller is "killed" (in-process: its table, supervisor and connection are dropped at
once and a new controller resumes from the journal; the real-process SIGKILL is covered by
tests/tables/test_tables_recovery.py); the disk fills (`PRAGMA max_page_count`) for a while.
Moves come from a seeded random policy keyed by (seat, action number), so a match that
survives its faults has exactly the calm match's journal.

Printed: kills survived, restarts survived, disk fills survived, wrong values accepted
(journaled actions that differ from the calm match's at the same position), actions lost
(moves the table accepted that the final journal lacks). Goal: 0 and 0.

    .venv/bin/python bench/soak.py [--seconds 120] [--seed 1]
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # faults.harness
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "tables"))

from faults.harness import restart_world, step_through_outages
from table_support import Rig, make_rig, walk_into_booth

from mcbridge import CONFIG_DIR
from mcbridge.core import CHANCE, Rng
from mcbridge.tables.config import Arena, load_arena
from mcbridge.tables.kits import games_with_kits
from mcbridge.world.embedded import EmbeddedHandle, start_embedded

NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fuu"]
MAX_CYCLES = 30_000
UNLIMITED_PAGES = 1_073_741_823
RECONNECT_TIMEOUT = 0.3  # each cycle with the world down waits this long, not the default 10 s
FAULT_CHANCE = 0.03  # per cycle of a running match
KINDS = ["restart", "down", "kill", "disk"]


@dataclasses.dataclass
class Figures:
    matches: int = 0
    kills: int = 0
    restarts: int = 0
    disk_fills: int = 0
    wrong: int = 0
    lost: int = 0
    cycles: int = 0


class Match:
    """One match on one world, optionally with faults; keeps what the table accepted."""

    def __init__(self, world: EmbeddedHandle, arena: Arena, journal: Path, seed: int) -> None:
        self.world, self.arena, self.path, self.seed = world, arena, journal, seed
        self.rig: Rig = make_rig(world, arena, journal, seed=seed)
        self.rig.conn.reconnect_timeout = RECONNECT_TIMEOUT
        self.names = NAMES[: len(arena.seats)]
        self.accepted: dict[int, tuple[int, dict[str, Any]]] = {}  # seq -> (seat, action)
        self.join(self.names)

    def join(self, order: list[str]) -> None:
        people = {name: self.world.players.join(name) for name in order}
        for booth, name in enumerate(self.names):
            walk_into_booth(people[name], self.arena, booth)

    def move(self) -> None:
        table = self.rig.table
        state = table.state
        if state is None or state.is_over or table.paused:
            return
        for seat in sorted(state.to_act() - {CHANCE}):
            if seat in state.to_act():
                seq = table.seq
                action = Rng.derived(self.seed, seat, seq).pick(state.legal_actions(seat))
                if table.submit(seat, action):
                    self.accepted[seq] = (seat, action.to_json())

    def cycle(self) -> None:
        if step_through_outages(self.rig):
            self.move()

    def restart_world(self, down_cycles: int) -> None:
        world = restart_world(self.world) if down_cycles == 0 else None
        if world is None:  # killed: stays down a while, the controller keeps trying
            port = self.world.port
            self.world.stop()
            for _ in range(down_cycles):
                self.rig.clock.now += 1.0
                step_through_outages(self.rig)
            world = start_embedded(port=port, tps=0)
        self.world = self.rig.world = world
        self.join(list(reversed(self.names)))

    def kill_controller(self) -> None:
        old = self.rig
        old.conn.close()
        old.journal.close()
        self.rig = make_rig(self.world, self.arena, self.path, seed=self.seed, build=False)
        self.rig.conn.reconnect_timeout = RECONNECT_TIMEOUT
        self.rig.clock.now = old.clock.now

    def fill_disk(self, cycles: int) -> None:
        db = self.rig.journal.db
        db.execute(f"PRAGMA max_page_count = {db.execute('PRAGMA page_count').fetchone()[0]}")
        for _ in range(cycles):
            self.cycle()
        db.execute(f"PRAGMA max_page_count = {UNLIMITED_PAGES}")

    def journal(self) -> list[tuple[int, dict[str, Any]]]:
        assert self.rig.table.match_id is not None
        return self.rig.journal.match(self.rig.table.match_id).actions

    def close(self) -> None:
        self.rig.close()


def play(world: EmbeddedHandle, arena: Arena, journal: Path, seed: int,
         faults: random.Random | None, figures: Figures, kinds: list[str] = KINDS) -> tuple[Match, EmbeddedHandle]:
    match = Match(world, arena, journal, seed)
    for _ in range(MAX_CYCLES):
        table = match.rig.table
        if table.finished:
            return match, match.world
        match.cycle()
        figures.cycles += 1
        if faults is not None and table.state is not None and faults.random() < FAULT_CHANCE:
            kind = faults.choice(kinds)
            if kind == "restart":
                match.restart_world(0)
                figures.restarts += 1
            elif kind == "down":
                match.restart_world(faults.randint(3, 30))
                figures.restarts += 1
            elif kind == "kill":
                match.kill_controller()
                figures.kills += 1
            else:
                match.fill_disk(faults.randint(3, 30))
                figures.disk_fills += 1
    raise RuntimeError(f"{arena.game}: match not finished in {MAX_CYCLES} cycles")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--faults", default=",".join(KINDS), help="which of " + ",".join(KINDS))
    args = parser.parse_args()
    logging.basicConfig(level=logging.CRITICAL)  # the faults log on purpose: keep the figures readable
    faults = random.Random(args.seed)
    figures = Figures()
    games = games_with_kits()
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        while time.monotonic() - started < args.seconds:
            game = games[n % len(games)]
            arena = dataclasses.replace(load_arena(CONFIG_DIR / "arenas" / f"{game}.yaml"), locale="en")
            seed = args.seed * 1000 + n
            with start_embedded(port=0, tps=0) as calm_world:
                calm, _ = play(calm_world, arena, Path(tmp) / f"calm{n}.sqlite", seed, None, Figures())
                expected = calm.journal()
                calm.close()
            world = start_embedded(port=0, tps=0)
            faulted, world = play(world, arena, Path(tmp) / f"soak{n}.sqlite", seed, faults, figures,
                                  args.faults.split(","))
            got = faulted.journal()
            diff = next((i for i, (a, b) in enumerate(zip(got, expected, strict=False)) if a != b), None)
            if diff is not None:
                print(f"{game} #{n}: first difference at action {diff}: {got[diff]} instead of {expected[diff]}")
            figures.wrong += sum(1 for a, b in zip(got, expected, strict=False) if a != b)
            figures.wrong += max(0, len(got) - len(expected))
            figures.lost += sum(1 for seq, act in faulted.accepted.items() if seq >= len(got) or got[seq] != act)
            faulted.close()
            world.stop()
            figures.matches += 1
            n += 1
    elapsed = time.monotonic() - started
    print(f"soak: {figures.matches} matches ({', '.join(games)}), {figures.cycles} faulted-run cycles, {elapsed:.0f} s")
    print(f"kills survived:         {figures.kills}")
    print(f"restarts survived:      {figures.restarts} (empty restarts and kills with the world down 3-30 s)")
    print(f"disk fills survived:    {figures.disk_fills}")
    print(f"wrong values accepted:  {figures.wrong}")
    print(f"actions lost:           {figures.lost}")


if __name__ == "__main__":
    main()
