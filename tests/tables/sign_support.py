"""Helpers for the sign-table tests (Dice Bluff, Briscola bugiarda): shipped arenas, and
simulated players who play by sword clicks and by chat (English and Japanese), choosing
with the game's library bot from their own view.

A click player turns the chosen action into the clicks a person would make: it reads the
booth's draft as the signs show it (the kit's draft is what its signs say) and clicks
FACE / -1 / +1 / BID, a die, a card, or a menu slot ("more" first when the action is on
another page). Everything goes through the real world: the embedded server's click
events and chat, polled by the supervisor.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from table_support import CYCLE_SECONDS, Rig, make_rig, walk_into_booth, world_snapshot

from mcbridge import CONFIG_DIR, games
from mcbridge.core import CHANCE, Action, Rng
from mcbridge.tables.arena import SignSpot
from mcbridge.tables.build import build_arena
from mcbridge.tables.config import Arena, load_arena
from mcbridge.tables.journal import Journal, JournalMatch
from mcbridge.tables.layout import arena_layout
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.embedded.simulator import EmbeddedPlayer
from mcbridge.world.geometry import Pos

SWORD = 276
Click = tuple[str, int]  # (target, slot) as the kit's hit map names it
Clicks = Callable[[Rig, int, int, Action], list[Click]]  # (rig, booth, seat, action) -> clicks
Command = Callable[[Action, str], str]  # (action, language) -> chat line


def shipped(game: str, **changes: Any) -> Arena:
    """A shipped arena, English, with `options` merged and other fields replaced."""
    arena = load_arena(CONFIG_DIR / "arenas" / f"{game}.yaml")
    options = {**arena.options, **changes.pop("options", {})}
    return dataclasses.replace(arena, locale=changes.pop("locale", "en"), options=options, **changes)


def seat_people(rig: Rig, names: Sequence[str]) -> list[EmbeddedPlayer]:
    """People walk into booths 0..n-1 holding a sword; returns them once the match started."""
    people = []
    for booth, name in enumerate(names):
        person = rig.world.players.join(name)
        person.hold(SWORD)
        walk_into_booth(person, rig.arena, booth)
        people.append(person)
    rig.run_until(lambda: rig.table.state is not None, max_cycles=400)
    return people


def click_at(rig: Rig, person: EmbeddedPlayer, booth: int, click: Click) -> None:
    target, slot = click
    cells = {name: (at, k) for at, (name, b, k) in rig.table.hits.items() if b == booth}
    spots = [at for at, (name, b, k) in rig.table.hits.items() if b == booth and name == target and k == slot]
    assert spots, f"booth {booth} has no {target}[{slot}] to click ({sorted(cells)})"
    p = rig.arena.frame.to_world(spots[0])
    person.right_click(p.x, p.y, p.z)


class SignPlayers:
    """Seated people who play every decision either by clicks or by chat, by turns.

    `modes` cycles per decision: "click", "en" or "ja". `sent` records (seat, action, mode).
    """

    def __init__(self, rig: Rig, people: Sequence[EmbeddedPlayer], policy: Any, clicks: Clicks,
                 command: Command, modes: Sequence[str] = ("click", "en", "click", "ja"), seed: int = 3) -> None:
        self.rig = rig
        self.people = list(people)
        self.policy = policy
        self.clicks = clicks
        self.command = command
        self.modes = list(modes)
        self.rng = Rng(seed)
        self.done: set[tuple[Any, ...]] = set()
        self.sent: list[tuple[int, Action, str]] = []

    def act(self) -> None:
        table = self.rig.table
        state = table.state
        if state is None or state.is_over:
            return
        for seat in sorted(state.to_act() - {CHANCE}):
            key = (table.match_id, table.seq, seat)
            if key in self.done:
                continue
            self.done.add(key)
            action = self.policy.choose(state.view(seat), state.legal_actions(seat), self.rng)
            mode = self.modes[len(self.sent) % len(self.modes)]
            booth = table.booth_of(seat)
            person = self.people[booth]
            if mode == "click":
                for click in self.clicks(self.rig, booth, seat, action):
                    click_at(self.rig, person, booth, click)
            else:
                person.chat(self.command(action, mode))
            self.sent.append((seat, action, mode))


def replayed(game: Any, saved: JournalMatch) -> Any:
    """A fresh core state with every journalled action applied."""
    state = game.new_match(saved.players, saved.seed)
    for seat, data in saved.actions:
        state.apply(seat, game.action_from_json(data))
    return state


def booth_cells(arena: Arena) -> set[Pos]:
    return {p for seat in arena.seats for p in seat.booth.cuboid}


def outside_booths(arena: Arena) -> list[Pos]:
    inside = booth_cells(arena)
    return [p for p in arena.bounds if p not in inside]


class PublicOnly:
    """Checks, cycle after cycle, that every sign outside the booths shows exactly what the
    table would draw from the public view alone (no private view, no legal actions, no
    drafts): nothing private leaks onto the board or a booth's outer signs.

    `public_scene()` is that drawing for the table as it is now. A supervisor cycle writes
    the scene of the table as it was when the cycle began (it reads the cycle's input
    after), so the drawing made on the cycle's clock, just before the cycle, is exactly
    what the world shows after it.
    """

    def __init__(self, rig: Rig, public_scene: Callable[[], Any]) -> None:
        self.rig = rig
        self.public_scene = public_scene
        self.inside = booth_cells(rig.arena)
        self.compared = 0

    def step(self) -> None:
        """One rig cycle, with the check around its step (use instead of `rig.cycle`)."""
        rig = self.rig
        rig.clock.now += CYCLE_SECONDS
        expected = None
        if rig.table.state is not None:
            scene = self.public_scene()
            expected = {p: lines for p, lines in scene.signs.items() if p not in self.inside}
        rig.supervisor.step()
        if expected:
            shown = world_snapshot(rig.world, rig.arena, list(expected))
            for p, lines in expected.items():
                want = tuple(line.strip() for line in lines)
                assert shown[p][1] == want, f"sign at {p} shows {shown[p][1]}, the public view alone {want}"
            self.compared += 1
        for bot in rig.bots:
            bot.act()

    def run_until_finished(self, max_cycles: int = 6000) -> None:
        for _ in range(max_cycles):
            if self.rig.table.finished:
                self.rig.step()
                return
            self.step()
        raise AssertionError("the match did not finish")


# -- a controller killed with SIGKILL mid-match -------------------------------------------------
@dataclass
class Resumed:
    """What a kill-and-resume run left: the game, the journal's match at the kill and at the end."""

    game: Any
    before: JournalMatch
    after: JournalMatch


def kill_and_resume(world: EmbeddedHandle, tmp_path: Path, game_name: str, edits: Mapping[str, str],
                    names: Sequence[str], policy: Any, command: Command, kill_when: Callable[[Any], bool],
                    done_when: Callable[[Any], bool], damage: str) -> Resumed:
    """`mcbridge run` on a copy of the shipped arena (`edits`: exact text replacements, which
    must include a new `name:`) with chat-only players; SIGKILL it once `kill_when(state)`,
    break the board sign `damage` while nobody watches, start it again and play on until
    `done_when(state)` or the end of the match. Checks the resume: the same match, nothing lost or rewritten, the
    board healed."""
    from test_tables_recovery import Controller, wait_for  # the runtime's own crash-test tools

    text = (CONFIG_DIR / "arenas" / f"{game_name}.yaml").read_text(encoding="utf-8")
    for old, new in edits.items():
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    arena_file = tmp_path / "arena.yaml"
    arena_file.write_text(text, encoding="utf-8")
    arena = load_arena(arena_file)
    with Connection(world.host, world.port) as conn:
        build_arena(conn, arena)
    people = []
    for booth, name in enumerate(names):
        people.append(world.players.join(name))
        walk_into_booth(people[-1], arena, booth)
    path, log = tmp_path / "journal.sqlite", tmp_path / "controller.log"
    game = games.load(arena.game, arena.game_options())
    controllers = [Controller(arena_file, world.port, path, log)]
    typed: set[tuple[int, int]] = set()
    try:
        wait_for("the journal", path.exists)
        journal = Journal(path)

        def now() -> tuple[Any, JournalMatch | None]:
            saved = journal.unfinished(arena.name)
            return (replayed(game, saved) if saved else None), saved

        def playing(until: Callable[[Any], bool]) -> Callable[[], bool]:
            """Type each decision once (seat s's k-th from the stream (s, k)) until `until`."""
            def step() -> bool:
                state, saved = now()
                if state is None or saved is None:
                    return False
                if until(state):
                    return True
                for seat in sorted(state.to_act() - {CHANCE}):
                    if (seat, len(saved.actions)) not in typed:
                        typed.add((seat, len(saved.actions)))
                        rng = Rng.derived(3, seat, len(typed))
                        action = policy.choose(state.view(seat), state.legal_actions(seat), rng)
                        people[seat].chat(command(action, "en" if len(typed) % 2 else "ja"))
                return False
            return step

        wait_for("the moment to kill", playing(kill_when))
        controllers[0].kill()
        before = journal.unfinished(arena.name)
        assert before is not None
        board = arena.frame.to_world(arena.board_signs[damage].at)
        world.set_block(board.x, board.y, board.z, 0)  # damage nobody sees
        controllers.append(Controller(arena_file, world.port, path, log))
        resumed = f"resumed match {before.id} at action {len(before.actions)}"
        wait_for("the resume", lambda: controllers[1].said(resumed))
        wait_for("the board to heal", lambda: world.sign_lines(board.x, board.y, board.z) is not None)
        typed.clear()  # a line typed as the controller went down is lost: type again
        wait_for("the match to go on", lambda: journal.unfinished(arena.name) is None or playing(done_when)(),
                 seconds=90)
        after = journal.match(before.id)
        assert after.actions[: len(before.actions)] == before.actions  # nothing lost, nothing rewritten
        assert journal.db.execute("SELECT count(*) FROM matches").fetchone()[0] == 1  # the same match
        journal.close()
        return Resumed(game, before, after)
    finally:
        for c in controllers:
            if c.process.poll() is None:
                c.kill()


# -- two matches that differ only in private information ---------------------------------------
@dataclass
class Scripted:
    """One scripted match: what it dealt (`capture` of the state as play began), its booths
    then, and what a spectator saw (chat, private messages, every cell outside the booths)
    before each scripted action and after the last."""

    dealt: Any
    inside: dict[Pos, Any]
    seen: list[tuple[list[str], list[str], dict[Pos, Any]]]
    state: Any


def play_script(tmp_path: Path, arena: Arena, seed: int, names: Sequence[str], script: Sequence[tuple[Action, str]],
                clicks: Clicks, command: Command, capture: Callable[[Any], Any]) -> Scripted:
    """A fresh world and table (`seed`); people sit; each scripted (action, mode) is made by
    clicks or by chat in that language and must be journaled as scripted."""
    with start_embedded(port=0, tps=0) as world:
        r = make_rig(world, arena, tmp_path / f"{seed}.sqlite", seed=seed)
        try:
            spectator = world.players.join("Spectator")
            people = seat_people(r, names)
            r.step()  # the deal
            r.step()  # it appears in the booths
            state = r.table.state
            inside = world_snapshot(world, r.arena, sorted(booth_cells(r.arena)))
            dealt = capture(state)
            outside = outside_booths(r.arena)
            seen = []
            for action, mode in [*script, (None, "")]:
                r.step()
                seen.append((spectator.chat_heard(), spectator.private_messages(),
                             world_snapshot(world, r.arena, outside)))
                if action is None:
                    break
                [seat] = state.to_act()
                booth = r.table.booth_of(seat)
                before = r.table.seq
                if mode == "click":
                    for click in clicks(r, booth, seat, action):
                        click_at(r, people[booth], booth, click)
                else:
                    people[booth].chat(command(action, mode))
                r.run_until(lambda: r.table.seq > before, max_cycles=40)  # noqa: B023
                saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
                assert r.table.game.action_from_json(saved.actions[before][1]) == action
            return Scripted(dealt, inside, seen, state)
        finally:
            r.close()


def assert_same_outside(a: Scripted, b: Scripted, steps: int) -> None:
    """The first `steps` views of two scripted matches are identical outside the booths."""
    for step, (seen_a, seen_b) in enumerate(zip(a.seen[:steps], b.seen[:steps], strict=True)):
        assert seen_a[0] == seen_b[0], f"chat differs before action {step}"
        assert seen_a[1] == seen_b[1] == []
        differing = [p for p in seen_a[2] if seen_a[2][p] != seen_b[2][p]]
        assert differing == [], f"outside the booths, {differing[:5]} differ before action {step}"


# -- sight lines on a plain server ----------------------------------------------------------------
def private_sign_sightlines(arena: Arena, private: Callable[[Any], Sequence[SignSpot]]) -> list[Any]:
    """Straight lines from the eyes of a player anywhere outside the booths to the front of
    any private sign of any booth (`private(seat)`), through the arena's static structure,
    that nothing opaque blocks: the caster of test_booth_sightlines, aimed at sign plates."""
    import numpy as np
    from test_booth_sightlines import (
        FACE_SPOTS,
        SIGN_PLATE,
        Occupancy,
        Sighting,
        Target,
        box_entry_cells,
        clear_line,
        eyes_of,
        face_points,
        standable,
    )

    grid = Occupancy(arena_layout(arena), arena.bounds, see_through=set())
    eyes = eyes_of(standable(grid, [seat.booth.cuboid for seat in arena.seats]))
    found = []
    for seat in arena.seats:
        for spot in private(seat):
            normal = spot.faces.vector
            spots = [(u, 0.3 + 0.45 * v) for u, v in FACE_SPOTS]  # the plate spans y 0.28..0.78
            for point in face_points(spot.at - normal, normal, spots):
                shifted = tuple(c + SIGN_PLATE * n for c, n in zip(point, normal, strict=True))
                target = Target(f"seat {seat.index} sign at {spot.at}", shifted, normal)  # type: ignore[arg-type]
                facing = (eyes - np.asarray(shifted)) @ np.array(list(normal), dtype=float) > 0
                entries = box_entry_cells(eyes, shifted, seat.booth.cuboid)  # type: ignore[arg-type]
                open_entry = ~grid.opaque[entries[:, 0] - grid.lo.x, entries[:, 1] - grid.lo.y,
                                          entries[:, 2] - grid.lo.z]
                for eye in eyes[facing & open_entry]:
                    at = (float(eye[0]), float(eye[1]), float(eye[2]))
                    if clear_line(grid, at, shifted):  # type: ignore[arg-type]
                        found.append(Sighting(at, target))
    return found
