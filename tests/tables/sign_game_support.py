"""Helpers for the Bribery and Braff table tests, beside `sign_support` (shipped arenas,
journal replays, the public-only check): seated players who play by sword clicks and by
chat, in English and Japanese, mixed, and a controller process killed mid-match.

Each decision is chosen by the game's library bot from the seat's own view and legal
list, with a stream derived from the decision's journal position, so a match is
reproducible. The game's `Moves` say how a chosen action is clicked (which signs, in
which order, given the booth's draft) and how it is typed in each language.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from sign_support import replayed
from table_support import sign_text, walk_into_booth
from test_tables_recovery import wait_for

from mcbridge import CONFIG_DIR, games
from mcbridge.core import CHANCE, Action, Rng, State
from mcbridge.tables.build import build_arena
from mcbridge.tables.config import load_arena
from mcbridge.tables.journal import Journal, JournalMatch
from mcbridge.tables.table import Table
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.embedded.simulator import EmbeddedPlayer
from mcbridge.world.geometry import Pos

SWORD = 276  # a diamond sword: signs answer only to it


def player_actions(saved: JournalMatch) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, data) for seat, data in saved.actions if seat != CHANCE]


class Moves(Protocol):
    """How one game's actions are made in the world."""

    def clicks(self, table: Table, booth: int, seat: int, action: Action) -> list[Pos] | None:
        """Arena-local cells to click, in order, to make `action`; None if it cannot be clicked."""

    def typed(self, action: Action, lang: str) -> str:
        """The chat line for `action` in `lang`."""


@dataclass
class Decision:
    seat: int
    action: Action
    how: str  # "click", "en" or "ja"


@dataclass
class SignPlayers:
    """Seated players who act on their turns, alternating clicks, English and Japanese chat.

    `ways` is the rotation of input ways ("click", "en", "ja"); each decision takes the next
    one its action can be made by. `decided` lists every decision, in order.
    """

    table: Table
    players: Sequence[EmbeddedPlayer]
    moves: Moves
    ways: Sequence[str] = ("click", "en", "click", "ja")
    seed: int = 7
    decided: list[Decision] = field(default_factory=list)
    choose: Callable[[State, int, Rng], Action] | None = None
    _done: set[tuple[Any, ...]] = field(default_factory=set)

    def __post_init__(self) -> None:
        for player in self.players:
            player.hold(SWORD)

    def act(self) -> None:
        table, state = self.table, self.table.state
        if state is None or state.is_over:
            return
        for seat in sorted(state.to_act() - {CHANCE}):
            key = (table.match_id, table.seq, seat)
            if key in self._done:
                continue
            self._done.add(key)
            rng = Rng.derived(self.seed, "decision", table.match_id, table.seq, seat)
            action = self.choose(state, seat, rng) if self.choose else self._bot(state, seat, rng)
            self.make(seat, action)

    def _bot(self, state: State, seat: int, rng: Rng) -> Action:
        return self.table.game.bot().choose(state.view(seat), state.legal_actions(seat), rng)

    def make(self, seat: int, action: Action, how: str | None = None) -> Decision:
        booth = self.table.booth_of(seat)
        player = self.players[booth]
        if how is None:
            how = self.ways[len(self.decided) % len(self.ways)]
        cells = self.moves.clicks(self.table, booth, seat, action) if how == "click" else None
        if how == "click" and cells is None:
            how = "en"
        if how == "click":
            assert cells is not None
            for cell in cells:
                p = self.table.arena.frame.to_world(cell)
                player.right_click(p.x, p.y, p.z)
        else:
            player.chat(self.moves.typed(action, how))
        decision = Decision(seat, action, how)
        self.decided.append(decision)
        return decision


def seat_of_sign(table: Table, booth: int, name: str) -> Pos:
    return table.arena.seats[booth].signs[name].at


# -- SIGKILL and resume ------------------------------------------------------------------------
WAIT_SECONDS = 60.0
STALL_SECONDS = 3.0  # no journal progress this long: a line typed as the controller came up is retyped


class Controller:
    """`mcbridge run` in its own process (a seeded match, a short lobby), logging to a file."""

    def __init__(self, arena: Path, port: int, journal: Path, log: Path) -> None:
        self.log = log
        with log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "mcbridge.cli", "run", str(arena), "--port", str(port), "--journal",
                 str(journal), "--seed", "9", "--start-delay", "1"],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)

    def said(self, words: str) -> bool:
        assert self.process.poll() is None, f"the controller exited:\n{self.log.read_text()}"
        return words in self.log.read_text()

    def kill(self) -> None:
        os.kill(self.process.pid, signal.SIGKILL)
        assert self.process.wait(timeout=WAIT_SECONDS) == -signal.SIGKILL


def arena_file_copy(game: str, tmp_path: Path, name: str) -> Path:
    """The shipped arena under another name, in English."""
    text = (CONFIG_DIR / "arenas" / f"{game}.yaml").read_text(encoding="utf-8")
    for old, new in [(f"name: {game}-1", f"name: {name}"), ("locale: ja ", "locale: en ")]:
        assert text.count(old) == 1
        text = text.replace(old, new)
    path = tmp_path / "arena.yaml"
    path.write_text(text, encoding="utf-8")
    return path


@dataclass
class ChatFromJournal:
    """Players who play by chat from the journal's replay (the controller is another
    process), alternating English and Japanese; each decision is typed once until
    `retype()`."""

    game: Any
    journal: Journal
    arena_name: str
    players: Sequence[EmbeddedPlayer]
    moves: Moves
    seed: int = 5
    typed: dict[tuple[int, int], str] = field(default_factory=dict)

    def current(self) -> tuple[JournalMatch, State] | None:
        saved = self.journal.unfinished(self.arena_name)
        return (saved, replayed(self.game, saved)) if saved else None

    def act(self) -> None:
        now = self.current()
        if now is None:
            return
        saved, state = now
        booths = list(saved.options.get("booths", range(len(saved.players))))
        for seat in sorted(state.to_act() - {CHANCE}):
            key = (len(saved.actions), seat)
            if key in self.typed:
                continue
            rng = Rng.derived(self.seed, "chat", saved.id, len(saved.actions), seat)
            action = self.game.bot().choose(state.view(seat), state.legal_actions(seat), rng)
            line = self.moves.typed(action, ("en", "ja")[len(self.typed) % 2])
            self.players[booths[seat]].chat(line)
            self.typed[key] = line

    def retype(self) -> None:
        self.typed.clear()


def kill_mid_match_and_resume(world: EmbeddedHandle, tmp_path: Path, game: str, moves: Moves,
                              names: Sequence[str], actions_before: int = 2) -> tuple[JournalMatch, JournalMatch]:
    """A controller process plays `actions_before` player actions typed in chat, is killed
    with SIGKILL, the board is damaged while nobody watches, a new controller resumes and
    the match is played to its end by chat. Returns the journal before the kill and after."""
    arena_name = f"{game}-kill"
    arena_file = arena_file_copy(game, tmp_path, arena_name)
    arena = load_arena(arena_file)
    with Connection(world.host, world.port) as conn:
        build_arena(conn, arena)
    players = []
    for booth, name in enumerate(names):
        players.append(world.players.join(name))
        walk_into_booth(players[-1], arena, booth)
    path, log = tmp_path / "journal.sqlite", tmp_path / "controller.log"
    game_object = games.load(arena.game, arena.game_options())
    controllers = [Controller(arena_file, world.port, path, log)]
    try:
        wait_for("the journal", path.exists)
        journal = Journal(path)
        chatters = ChatFromJournal(game_object, journal, arena_name, players, moves)

        def players_acted(count: int) -> bool:
            now = chatters.current()
            if now is not None and len(player_actions(now[0])) >= count:
                return True
            chatters.act()
            return False

        wait_for("the first actions", lambda: players_acted(actions_before))
        controllers[0].kill()
        before = journal.unfinished(arena_name)
        assert before is not None and len(player_actions(before)) == actions_before
        board = arena.frame.to_world(arena.board_signs["status"].at)
        world.set_block(board.x, board.y, board.z, 0)  # damaged while nobody watches

        controllers.append(Controller(arena_file, world.port, path, log))
        resumed = f"resumed match {before.id} at action {len(before.actions)}"
        wait_for("the resume", lambda: controllers[1].said(resumed))
        wait_for("the board to heal", lambda: world.sign_lines(board.x, board.y, board.z) is not None)
        wait_for("the players to be seen again", lambda: sum(
            "is back at seat" in line for line in players[0].chat_heard()) == len(names))
        chatters.retype()
        progress = [len(before.actions), time.monotonic()]

        def played_to_the_end() -> bool:
            saved = journal.match(before.id)
            if len(saved.actions) != progress[0]:
                progress[:] = [len(saved.actions), time.monotonic()]
            elif time.monotonic() - progress[1] > STALL_SECONDS:
                chatters.retype()
                progress[1] = time.monotonic()
            row = journal.db.execute("SELECT finished FROM matches WHERE id = ?", (before.id,)).fetchone()
            if row[0] is not None:
                return True
            chatters.act()
            return False

        wait_for("the match to finish", played_to_the_end, seconds=240)
        after = journal.match(before.id)
        assert journal.db.execute("SELECT count(*) FROM matches").fetchone()[0] == 1  # the same match, not a new one
        wait_for("the final board", lambda: "over" in " ".join(
            sign_text(world, arena, arena.board_signs["status"].at) or ()))
        journal.close()
        return before, after
    finally:
        for c in controllers:
            if c.process.poll() is None:
                c.kill()
