"""Crash safety: a dropped connection, and a controller killed with SIGKILL mid-turn.

In both cases the world is damaged while the controller cannot see it, and must heal by
re-rendering; the match must carry on and finish, its state equal to the journal's replay.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from table_support import (
    ARENA_FILE,
    ChatPlayers,
    Rig,
    mcpi_client,
    player_actions,
    replay,
    seat_bots,
    shipped_arena,
    sign_text,
    torch_walls,
    walk_into_booth,
)

from mcbridge import games
from mcbridge.games.wool_bluff import WoolBluffState
from mcbridge.tables.build import build_arena
from mcbridge.tables.config import load_arena
from mcbridge.tables.journal import Journal
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.geometry import Pos

WAIT_SECONDS = 30.0


def wait_for(what: str, done: Callable[[], bool], seconds: float = WAIT_SECONDS, pause: float = 0.02) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {seconds} s waiting for {what}")
        time.sleep(pause)


def break_block(world: EmbeddedHandle, rig_arena: object, local: Pos) -> None:
    w = rig_arena.frame.to_world(local)  # type: ignore[attr-defined]
    world.set_block(w.x, w.y, w.z, 0)
    assert world.get_block(w.x, w.y, w.z) == (0, 0)


def drop_every_connection(world: EmbeddedHandle) -> None:
    """The server side hangs up on every client, as a restarting proxy or server would."""
    def hang_up() -> None:
        for session in list(world.server.sessions):
            session.close()

    world.call(hang_up)


def test_a_dropped_connection_reconnects_heals_the_world_and_the_match_goes_on(
        rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    r = rig(shipped_arena(options={"turns": 3}))
    seat_bots(r)
    r.run_until(lambda: r.table.state is not None and r.table.state.turn == 2 and r.table.state.phase == "bid")
    r.step()  # the world now shows this state
    state = r.table.state
    assert state is not None
    lit = next(seat for seat in r.arena.seats if state.torches[seat.index] > 0)
    torch = lit.torch_wall.cells[0]
    sign = r.arena.board_signs["status"].at
    seat_sign = lit.signs["seat"].at
    shown = sign_text(world, r.arena, sign)
    assert shown is not None and shown[0] == "Turn 2/3"

    drop_every_connection(world)
    for local in (torch, sign, seat_sign):  # damage the controller cannot see
        break_block(world, r.arena, local)
    cycles = iter(range(3))  # the supervisor's own loop: it logs the loss, forgets, reconnects
    r.supervisor.run(until=lambda: next(cycles, None) is None, max_seconds=WAIT_SECONDS)
    assert r.conn.stats.reconnects == 1

    t = r.arena.frame.to_world(torch)
    assert world.get_block(t.x, t.y, t.z)[0] == 76
    scene = r.table.scene()  # what the table wants shown now (the match has moved on meanwhile)
    assert sign_text(world, r.arena, sign) == scene.signs[sign]
    assert sign_text(world, r.arena, seat_sign) == scene.signs[seat_sign]
    r.finish()
    final = r.table.state
    assert final is not None and final.is_over
    assert replay(r.table.game, r.journal.match(r.table.match_id)) == final  # type: ignore[arg-type]
    mc = mcpi_client(world)
    assert torch_walls(mc, r.arena) == [min(t, 10) for t in final.torches]
    mc.conn.socket.close()


# -- SIGKILL --------------------------------------------------------------------------------
ARENA_NAME = "wool-bluff-kill"


def arena_copy(tmp_path: Path) -> Path:
    text = ARENA_FILE.read_text(encoding="utf-8")
    for old, new in [("name: wool-bluff-1", f"name: {ARENA_NAME}"), ("locale: ja ", "locale: en "),
                     ("options: {turns: 10}", "options: {turns: 1}")]:
        assert text.count(old) == 1
        text = text.replace(old, new)
    path = tmp_path / "arena.yaml"
    path.write_text(text, encoding="utf-8")
    return path


class Controller:
    """`mcbridge run` in its own process, logging to a file."""

    def __init__(self, arena: Path, port: int, journal: Path, log: Path) -> None:
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "mcbridge.cli", "run", str(arena), "--port", str(port), "--journal",
                 str(journal), "--seed", "9"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def said(self, words: str) -> bool:
        assert self.process.poll() is None, f"the controller exited:\n{self.log.read_text()}"
        return words in self.log.read_text()

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        assert self.process.wait(timeout=WAIT_SECONDS) == -signal.SIGKILL


def test_a_controller_killed_mid_turn_resumes_the_same_match(world: EmbeddedHandle, tmp_path: Path) -> None:
    arena_file = arena_copy(tmp_path)
    arena = load_arena(arena_file)
    with Connection(world.host, world.port) as conn:
        build_arena(conn, arena)
    players = []
    for booth, name in enumerate(["Aki", "Ben", "Chie", "Dan"]):
        players.append(world.players.join(name))
        walk_into_booth(players[-1], arena, booth)
    path = tmp_path / "journal.sqlite"
    log = tmp_path / "controller.log"
    game = games.load(arena.game, arena.game_options())
    controllers = [Controller(arena_file, world.port, path, log)]
    try:
        wait_for("the journal", path.exists)
        journal = Journal(path)

        def current() -> WoolBluffState | None:
            saved = journal.unfinished(ARENA_NAME)
            return replay(game, saved) if saved else None

        wait_for("the match to start", lambda: (s := current()) is not None and s.phase == "bid")
        # two player actions by chat, each confirmed by the journal
        state = current()
        assert state is not None
        [predictor] = state.to_act()
        players[predictor].chat("!bid red 1")
        wait_for("the bid", lambda: (s := current()) is not None and s.phase == "respond")
        state = current()
        assert state is not None
        [responder] = state.to_act()
        players[responder].chat("!through")
        wait_for("the answer", lambda: len(player_actions(journal.unfinished(ARENA_NAME))) == 2)  # type: ignore[arg-type]

        controllers[0].kill()  # mid-turn: a bid stands, one of three answers given
        before = journal.unfinished(ARENA_NAME)
        assert before is not None and before.actions
        board = arena.frame.to_world(arena.board_signs["status"].at)
        seat_sign = arena.frame.to_world(arena.seats[predictor].signs["seat"].at)
        for p in (board, seat_sign):  # the world is damaged while nobody watches it
            world.set_block(p.x, p.y, p.z, 0)

        controllers.append(Controller(arena_file, world.port, path, log))
        resumed = f"resumed match {before.id} at action {len(before.actions)}"
        wait_for("the resume", lambda: controllers[1].said(resumed))
        wait_for("the world to heal", lambda: world.sign_lines(board.x, board.y, board.z) is not None
                 and world.sign_lines(seat_sign.x, seat_sign.y, seat_sign.z) is not None)
        assert world.sign_lines(board.x, board.y, board.z)[0] == "Turn 1/1"  # type: ignore[index]
        wait_for("the players to be seen again", lambda: sum(
            "is back at seat" in line for line in players[0].chat_heard()) == 4)

        chatters = ChatPlayers(players, current)
        progress = [len(before.actions), time.monotonic()]

        def finished() -> bool:
            saved = journal.match(before.id)
            if len(saved.actions) != progress[0]:
                progress[:] = [len(saved.actions), time.monotonic()]
            elif time.monotonic() - progress[1] > 3.0:  # a line typed as the controller came up
                chatters.retype()
                progress[1] = time.monotonic()
            row = journal.db.execute("SELECT finished FROM matches WHERE id = ?", (before.id,)).fetchone()
            return row[0] is not None

        def played_to_the_end() -> bool:
            if finished():
                return True
            chatters.act()
            return False

        wait_for("the match to finish", played_to_the_end)
        after = journal.match(before.id)
        assert after.actions[: len(before.actions)] == before.actions  # nothing lost, nothing rewritten
        final = replay(game, after)
        assert final.is_over
        assert journal.db.execute("SELECT count(*) FROM matches").fetchone()[0] == 1  # the same match, not a new one
        result = journal.db.execute("SELECT result FROM matches WHERE id = ?", (before.id,)).fetchone()[0]
        assert '"over": true' in result
        # the resumed controller's world agrees with the replay: torches and board
        mc = mcpi_client(world)
        wait_for("the final torches", lambda: torch_walls(mc, arena) == [min(t, 10) for t in final.torches])
        mc.conn.socket.close()
        wait_for("the final board", lambda: (sign_text(world, arena, arena.board_signs["status"].at) or ("",))[1]
                 == "match over")
        journal.close()
    finally:
        for c in controllers:
            if c.process.poll() is None:
                c.kill()
