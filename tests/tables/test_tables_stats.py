"""`!stats` on the embedded world: a real match, a real SQLite store, answers told privately."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import pytest
from table_support import ARENA_FILE, ChatPlayers, Rig, seat_players, shipped_arena, sign_text

from mcbridge.stats.recorder import Recorder
from mcbridge.stats.store import Store, open_store
from mcbridge.tables.config import Arena, ArenaError, load_arena
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.embedded.simulator import EmbeddedPlayer
from mcbridge.world.geometry import Pos


def asked(r: Rig, recorder: Recorder, player: EmbeddedPlayer, line: str, want: str) -> list[str]:
    """`player` says `line`; cycle table and recorder until a private message contains `want`."""
    player.chat(line)
    r.run_until(lambda: (recorder.step(), any(want in m for m in player.private_messages()))[1], max_cycles=400)
    return player.private_messages()


def test_stats_after_a_match_come_privately_from_the_store(rig: Callable[..., Rig], tmp_path: Path) -> None:
    r = rig(shipped_arena(options={"turns": 1}))
    players = seat_players(r)
    r.bots.append(ChatPlayers(players, lambda: r.table.state))
    r.finish()
    recorder = Recorder(r.journal.path, lambda: open_store(f"sqlite:///{tmp_path}/stats.db"))
    recorder.serve(r.table)
    r.run_until(lambda: recorder.step() > 0 or recorder.sent > 0, max_cycles=400)
    assert recorder.sent == 1
    aki = players[0]
    heard_before = len(players[1].private_messages())
    messages = asked(r, recorder, aki, "!stats", "Wool Bluff: rank ")
    line = next(m for m in messages if "Wool Bluff: rank " in m)
    assert "1 matches" in line
    assert len(players[1].private_messages()) == heard_before  # nobody else hears it
    assert all("Wool Bluff: rank" not in m for m in aki.chat_heard())
    recorder.stop()


def test_a_store_outage_answers_politely_and_never_blocks_the_table(rig: Callable[..., Rig]) -> None:
    r = rig(shipped_arena(options={"turns": 1}))
    calls: list[int] = []

    def down() -> Store:
        calls.append(1)
        raise OSError("store down")

    recorder = Recorder(r.journal.path, down, retry=0.0)
    recorder.serve(r.table)
    players = seat_players(r)
    messages = asked(r, recorder, players[0], "!成績", "Stats are unavailable")
    assert any("Stats are unavailable" in m for m in messages)
    assert calls  # it tried the store, off the table's thread, and the table went on
    r.bots.append(ChatPlayers(players, lambda: r.table.state))
    r.finish()
    assert r.table.match_id is not None and r.journal.match(r.table.match_id).finished is not None
    recorder.stop()


WALL = (
    "\nleaderboard:\n  size: 5\n  signs:\n"
    "    - {at: [16, 2, 2], faces: south}\n    - {at: [17, 2, 2], faces: south}\n"
)


def wall_arena(tmp_path: Path, extra: str = WALL) -> Arena:
    path = tmp_path / "wall.yaml"
    path.write_text(ARENA_FILE.read_text(encoding="utf-8") + extra, encoding="utf-8")
    return load_arena(path)


def test_the_leaderboard_wall_shows_the_ranking_after_the_match(
        rig: Callable[..., Rig], world: EmbeddedHandle, tmp_path: Path) -> None:
    arena = dataclasses.replace(shipped_arena(options={"turns": 1}), leaderboard=wall_arena(tmp_path).leaderboard)
    r = rig(arena)
    recorder = Recorder(r.journal.path, lambda: open_store(f"sqlite:///{tmp_path}/stats.db"))
    recorder.follow(r.table.updates.subscribe())
    recorder.serve(r.table)
    players = seat_players(r)
    r.run_until(lambda: (recorder.step(), sign_text(world, arena, _at(arena, 0)))[1], max_cycles=400)
    assert sign_text(world, arena, _at(arena, 0)) == ("Top Wool Bluff", "", "", "")  # the store is empty
    r.bots.append(ChatPlayers(players, lambda: r.table.state))
    r.finish()
    r.run_until(lambda: (recorder.step(), (sign_text(world, arena, _at(arena, 0)) or ("", ""))[1])[1],
                max_cycles=400)
    first = sign_text(world, arena, _at(arena, 0))
    second = sign_text(world, arena, _at(arena, 1))
    assert first is not None and second is not None
    assert first[0] == "Top Wool Bluff"
    ranked = [line for line in (*first[1:], *second) if line]
    assert len(ranked) == 4  # the four players, ranked 1..n
    assert [line.split()[0] for line in ranked] == sorted(line.split()[0] for line in ranked)
    assert {line.split()[1] for line in ranked} == {p.name for p in players}
    recorder.stop()


def _at(arena: Arena, i: int) -> Pos:
    assert arena.leaderboard is not None
    return arena.leaderboard.signs[i].at


def test_a_bad_leaderboard_section_names_file_line_and_column(tmp_path: Path) -> None:
    with pytest.raises(ArenaError) as err:
        wall_arena(tmp_path, "\nleaderboard:\n  game: chess\n  signs:\n    - {at: [16, 2, 2], faces: south}\n")
    assert err.value.problems[0].startswith(f"{tmp_path}/wall.yaml:64:9: leaderboard.game: 'chess' is not allowed")
    with pytest.raises(ArenaError) as err:
        wall_arena(tmp_path, "\nleaderboard:\n  signs:\n    - {at: [99, 2, 2], faces: south}\n")
    assert err.value.problems[0].startswith(f"{tmp_path}/wall.yaml:65:7: leaderboard sign 1 ")
    assert "outside the arena bounds" in err.value.problems[0]


def test_answers_come_in_the_askers_language_and_a_repeat_is_merged() -> None:
    from mcbridge.i18n import locale
    from mcbridge.stats.table_hooks import StatsDesk

    desk = StatsDesk(locale("en"))
    assert not desk.ask_if_stats("Aki", "!help")
    assert desk.ask_if_stats("Aki", "！成績", locale("ja")) and desk.ask_if_stats("Aki", "!stats")
    assert desk.ask_if_stats("Ben", "!stats")
    assert desk.serve(None) == 2
    assert desk.answers() == [
        ("Aki", [locale("ja").t("stats.unavailable")]),
        ("Ben", ["Stats are unavailable right now; try again in a minute."]),
    ]
    assert desk.answers() == []
