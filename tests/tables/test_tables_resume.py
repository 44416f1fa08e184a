"""Exact resume: a match crashed at many points, in every phase, journals exactly what the
uninterrupted match journals, row for row.

The crash is in-process and as abrupt as the runtime allows: an exception raised from
inside the table (right after an action is journaled and before it is rendered; after the
world write; or when a chat line has been read but not yet applied, which loses that
line) abandons the table, its connection and journal handle; a new table on the same
journal file and world takes over, as a restarted `mcbridge run` does. The players are
deterministic: seat s's k-th decision comes from a stream named (s, k), so the same
inputs reach both runs whatever the restarts cost. A real SIGKILL of `mcbridge demo` is
in test_tables_demo.py.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import pytest
from table_support import NAMES, Rig, chat_command, make_rig, shipped_arena, walk_into_booth

from mcbridge import games
from mcbridge.core import CHANCE, Rng
from mcbridge.games.wool_bluff import WoolBluffBot, WoolBluffState
from mcbridge.tables.journal import Journal, JournalMatch
from mcbridge.world.embedded import start_embedded
from mcbridge.world.embedded.simulator import EmbeddedPlayer

MAX_CYCLES = 8000
Crashed = tuple[str, int, str]  # (kind, seq, phase the table was in)
STUCK_CYCLES = 20  # no progress this long after a restart: a typed line was lost, type it again
ARENA = shipped_arena(options={"turns": 3})
ARENA = dataclasses.replace(ARENA, timeouts={k: 3600 for k in ARENA.timeouts})  # no timer ever fires


class Crash(BaseException):
    """Stands for SIGKILL: nothing in the runtime catches it."""


class Players:
    """Chat-only players; seat s's k-th decision is drawn from the stream (s, k)."""

    def __init__(self, players: Sequence[EmbeddedPlayer]) -> None:
        self.players = list(players)
        self.policy = WoolBluffBot()
        self.typed: set[tuple[int, int]] = set()

    def act(self, state: WoolBluffState | None, journaled: JournalMatch | None) -> None:
        if state is None or state.is_over or journaled is None:
            return
        for seat in sorted(state.to_act() - {CHANCE}):
            k = sum(1 for s, _ in journaled.actions if s == seat)
            if (seat, k) in self.typed:
                continue
            action = self.policy.choose(state.view(seat), state.legal_actions(seat), Rng.derived(3, seat, k))
            self.players[seat].chat(chat_command(action, "en"))
            self.typed.add((seat, k))


def play(tmp_path: Path, name: str,
         crashes: Sequence[tuple[str, int]]) -> tuple[JournalMatch, list[Crashed], list[str]]:
    """One match on a fresh world; crash at each (kind, seq) still ahead when its turn comes
    (one step may journal several actions). Returns the journal's match, the crashes made
    (kind, seq, phase), and what the players were told privately."""
    path = tmp_path / f"{name}.sqlite"
    pending = list(crashes)
    made: list[Crashed] = []
    with start_embedded(port=0, tps=0) as world:
        players = []
        for booth, player_name in enumerate(NAMES):
            players.append(world.players.join(player_name))
            walk_into_booth(players[-1], ARENA, booth)
        chatters = Players(players)
        rig = make_rig(world, ARENA, path)
        progress, still = -1, 0
        try:
            for _ in range(MAX_CYCLES):
                if rig.table.match_id is not None and rig.journal.match(rig.table.match_id).finished is not None:
                    break
                while pending and pending[0][1] + (pending[0][0] == "written") < rig.table.seq:
                    pending.pop(0)  # passed within one step: not reachable any more
                arm(rig, pending)
                # an action journaled by one step is drawn by the next step's write
                drawn = rig.table.seq
                phase = rig.table.state.phase if rig.table.state else "waiting"
                try:
                    rig.step()
                    if pending and pending[0][0] == "written" and drawn > pending[0][1]:
                        raise Crash
                except Crash:
                    kind, seq = pending.pop(0)
                    made.append((kind, seq, phase))
                    rig.conn.close()
                    rig.journal.close()
                    rig = make_rig(world, ARENA, path, build=False)
                    continue
                saved = rig.journal.match(rig.table.match_id) if rig.table.match_id is not None else None
                state = rig.table.state
                chatters.act(state if isinstance(state, WoolBluffState) else None, saved)
                still = still + 1 if rig.table.seq == progress else 0
                progress = rig.table.seq
                if still > STUCK_CYCLES:
                    chatters.typed.clear()
                    still = 0
            else:
                raise AssertionError(f"{name}: the match did not finish in {MAX_CYCLES} cycles")
            assert rig.table.match_id is not None
            saved = rig.journal.match(rig.table.match_id)
        finally:
            rig.close()
        told = [m for p in players for m in p.private_messages()]
    return saved, made, told


def arm(rig: Rig, pending: list[tuple[str, int]]) -> None:
    """Set up the next crash point on this table (hooks are per table: a new table has none)."""
    if not pending:
        return
    kind, seq = pending[0]
    if kind == "journaled" and not rig.journal.on_append:

        def after_append(_match: int, appended: int) -> None:
            if appended == seq:
                raise Crash

        rig.journal.on_append.append(after_append)
    elif kind == "read" and "on_chat" not in vars(rig.table):
        table = rig.table
        on_chat = table.on_chat

        def lose_the_line(name: str, message: str) -> None:
            if table.seq == seq:  # read from the world, never applied nor journaled
                raise Crash
            on_chat(name, message)

        table.on_chat = lose_the_line  # type: ignore[method-assign]


def phases_before(saved: JournalMatch) -> list[str]:
    """The rules phase in which each journaled action was taken."""
    game = games.load(saved.game, saved.rules_options())
    state = game.new_match(saved.players, saved.seed)
    phases = []
    for seat, data in saved.actions:
        phases.append(state.phase)
        state.apply(seat, game.action_from_json(data))
    return phases


def test_a_match_crashed_at_twelve_points_in_every_phase_journals_exactly_the_uninterrupted_match(
        tmp_path: Path) -> None:
    reference, made, _ = play(tmp_path, "reference", [])
    assert made == []
    phases = phases_before(reference)
    assert set(phases) == {"first_predictor", "deal", "discard", "bid", "respond", "reveal"}
    # a crash point at every action: the kinds in turn ("read" only for a typed action)
    kinds = ("journaled", "written", "read")
    by_players, by_chance = 0, 0
    crashes = []
    for seq, (seat, _action) in enumerate(reference.actions):
        if seat == CHANCE:
            crashes.append((kinds[by_chance % 2], seq))
            by_chance += 1
        else:
            crashes.append((kinds[(by_players + 2) % 3], seq))
            by_players += 1
    crashes[-1] = ("journaled", len(crashes) - 1)  # the last action (the final Reveal), before the finish

    resumed, made, told = play(tmp_path, "crashed", crashes)
    assert len(made) >= 12, made
    assert {phases[seq] for _, seq, _ in made} == set(phases), made  # crashed on an action of every phase
    assert {kind for kind, _, _ in made} == set(kinds)
    assert ("journaled", len(reference.actions) - 1) in [(k, s) for k, s, _ in made]  # before the finish
    assert resumed.seed == reference.seed and resumed.players == reference.players
    assert len(resumed.actions) == len(reference.actions)
    for row, (got, want) in enumerate(zip(resumed.actions, reference.actions, strict=True)):
        assert got == want, f"action {row} differs after the restarts"
    assert resumed.result == reference.result
    # whoever the table waited for heard that it restarted, and that a last command may be lost
    assert any("The table restarted and waits for" in m and "please give it again" in m for m in told)


def test_a_resumed_match_plays_on_with_the_options_it_began_with(tmp_path: Path) -> None:
    """The arena file changed while the controller was down: the running match keeps its own
    options (stored in the journal), not the arena's new ones."""
    path = tmp_path / "journal.sqlite"
    with start_embedded(port=0, tps=0) as world:
        for booth, player_name in enumerate(NAMES[:2]):
            walk_into_booth(world.players.join(player_name), ARENA, booth)
        rig = make_rig(world, ARENA, path)
        rig.run_until(lambda: rig.table.state is not None, max_cycles=200)
        assert rig.table.game.options["turns"] == 3
        rig.close()
        changed = shipped_arena(options={"turns": 5})
        again = make_rig(world, changed, path, build=False)
        try:
            assert again.table.state is not None and again.table.game.options["turns"] == 3
            saved = Journal(path).unfinished(ARENA.name)
            assert saved is not None and saved.options["turns"] == 3
        finally:
            again.close()


def test_an_unfinished_match_that_no_longer_fits_the_arena_is_left_and_a_new_one_starts(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "journal.sqlite"
    with start_embedded(port=0, tps=0) as world:
        for booth, player_name in enumerate(NAMES[:2]):
            walk_into_booth(world.players.join(player_name), ARENA, booth)
        rig = make_rig(world, ARENA, path)
        rig.run_until(lambda: rig.table.state is not None, max_cycles=200)
        old = rig.table.match_id
        rig.journal.db.execute("UPDATE matches SET options = json_set(options, '$.booths', json('[0, 9]'))")
        rig.close()
        with caplog.at_level("WARNING"):
            again = make_rig(world, ARENA, path, build=False)
        try:
            assert again.table.state is None  # not resumed into booth 10 of a 4-booth arena
            assert f"match {old}" in caplog.text and "does not fit the arena" in caplog.text
            again.run_until(lambda: again.table.state is not None, max_cycles=200)
            assert again.table.match_id != old
        finally:
            again.close()
