"""`!stats` on the embedded world: a real match, a real SQLite store, answers told privately."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from table_support import ChatPlayers, Rig, seat_players, shipped_arena

from mcbridge.stats.recorder import Recorder
from mcbridge.stats.store import Store, open_store


def asked(r: Rig, recorder: Recorder, player, line: str, want: str) -> list[str]:  # type: ignore[no-untyped-def]
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
