"""Several tables of different games under one supervisor: one arena file with a `tables:`
list (or several files), checked with every problem as file:line:column, and two games
played to the end at once on one embedded world by sign-clicking bots."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_support import CYCLE_SECONDS, StepClock

from mcbridge import CONFIG_DIR, games
from mcbridge.cli import main
from mcbridge.i18n import locale
from mcbridge.tables.build import build_arena
from mcbridge.tables.config import ArenaError
from mcbridge.tables.journal import Journal
from mcbridge.tables.rules_view import result_json
from mcbridge.tables.seat_bots import SeatBot
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.tables.table_files import load_tables
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle

GAMES = ("dice_bluff", "briscola_bugiarda")
NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi", "Fumi", "Gen", "Hana", "Ichi", "Jun"]


def shipped_text(game: str) -> str:
    text = (CONFIG_DIR / "arenas" / f"{game}.yaml").read_text(encoding="utf-8")
    return text.replace("options: {dice_per_player: 5}", "options: {dice_per_player: 2}")  # a shorter match


def tables_file(tmp_path: Path, *texts: str, name: str = "tables.yaml") -> Path:
    """One file listing the arenas `texts` under `tables:`."""
    items = ["  -\n" + "".join(f"    {line}\n" for line in text.splitlines()) for text in texts]
    path = tmp_path / name
    path.write_text("tables:\n" + "".join(items), encoding="utf-8")
    return path


def line_of(path: Path, needle: str, after: int = 0) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if i > after and needle in line)


def test_two_games_in_one_file_play_to_the_end_at_once_under_one_supervisor(
        world: EmbeddedHandle, tmp_path: Path) -> None:
    arenas = load_tables([tables_file(tmp_path, *(shipped_text(g) for g in GAMES))])
    assert [a.game for a in arenas] == list(GAMES)
    clock = StepClock()
    journal = Journal(tmp_path / "journal.sqlite")
    with Connection(world.host, world.port) as conn:
        for arena in arenas:
            build_arena(conn, arena)
        tables = [Table(a, journal, clock, seed=3, start_delay=0.5, reveal_hold=0.5, hold=1.0) for a in arenas]
        supervisor = Supervisor(conn, tables)
        names = iter(NAMES)
        bots = [SeatBot(t, world.players.join(next(names)), booth, seed=9)
                for t in tables for booth in range(max(4, t.game.player_range[0]))]  # Briscola: exactly 5
        for k, bot in enumerate(bots):
            bot.sit_down(by_walking=k % 2 == 0)
        for _ in range(20_000):
            if all(t.finished for t in tables):
                break
            clock.now += CYCLE_SECONDS
            supervisor.step()
            for bot in bots:
                bot.act()
        else:
            raise AssertionError(f"not over: {[t.state and t.state.phase for t in tables]}")
        supervisor.step()
    heard = bots[0].player.chat_heard()
    too_long = locale(arenas[0].locale).t("common.timeout", name="@").split("@")[1].strip()
    assert not [line for line in heard if too_long in line]  # every decision was clicked, none timed out
    assert all(bot.clicks > 0 for bot in bots)
    saved = {m.arena: m for m in journal.matches()}
    assert sorted(saved) == sorted(a.name for a in arenas)
    for arena in arenas:
        match = saved[arena.name]
        assert match.game == arena.game and match.finished is not None
        rules = games.load(arena.game, arena.game_options())
        state = rules.new_match(match.players, match.seed)
        for seat, data in match.actions:
            state.apply(seat, rules.action_from_json(data))
        assert state.is_over and result_json(state) == match.result
    journal.close()


def test_a_problem_in_the_second_table_names_its_own_line(tmp_path: Path) -> None:
    bad = shipped_text("briscola_bugiarda").replace("facing: north", "facing: up")
    path = tables_file(tmp_path, shipped_text("dice_bluff"), bad)
    with pytest.raises(ArenaError) as caught:
        load_tables([path])
    second = line_of(path, "game: briscola_bugiarda")
    (problem,) = caught.value.problems
    assert problem.startswith(f"{path}:{line_of(path, 'facing: up', after=second)}:") and "facing" in problem


def test_tables_that_share_a_name_or_overlap_are_refused_across_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dice = tmp_path / "dice.yaml"
    dice.write_text(shipped_text("dice_bluff"), encoding="utf-8")
    again = tables_file(tmp_path, shipped_text("dice_bluff"), name="again.yaml")
    assert main(["validate", str(dice), str(again)]) == 1
    out = capsys.readouterr().out.splitlines()
    name_line, origin_line = line_of(again, "name: dice-bluff-1"), line_of(again, "origin:")
    assert any(p.startswith(f"{again}:{name_line}:") and "dice-bluff-1" in p and str(dice) in p for p in out)
    assert any(p.startswith(f"{again}:{origin_line}:") and "overlaps" in p for p in out)
    assert out[-1].startswith("2 problem(s)")


def test_validate_says_ok_for_every_table_of_every_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    both = tables_file(tmp_path, *(shipped_text(g) for g in GAMES))
    wool = CONFIG_DIR / "arenas" / "wool_bluff.yaml"
    assert main(["validate", str(both), str(wool)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(" (")[1].split(":")[0] for line in out] == ["dice-bluff-1", "briscola-1", "wool-bluff-1"]


@pytest.mark.parametrize("text, says", [
    ("tables: []\n", "expected a list of arenas"),
    ("tables:\n  - 3\n", "an arena file is a mapping"),
    ("name: x\ntables: []\n", "holds only that list"),
])
def test_a_malformed_tables_list_gets_a_clear_answer(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ArenaError) as caught:
        load_tables([path])
    assert any(p.startswith(f"{path}:") and says in p for p in caught.value.problems)

