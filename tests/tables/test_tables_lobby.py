"""Tables keep playing: standings held, the scene reset, those who left unseated, a lobby
countdown, and the next match with a new id and seed; the journal and its CLI keep both."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from table_support import ChatPlayers, Rig, mcpi_client, seat_players, shipped_arena, sign_text, torch_walls

from mcbridge.cli import main
from mcbridge.tables.layout import EMPTY_SLOT
from mcbridge.world.embedded import EmbeddedHandle

HOLD = 1.0  # seconds: 20 cycles of the test clock


def test_after_a_match_the_table_resets_and_the_next_match_starts_with_those_who_stayed(
        rig: Callable[..., Rig], world: EmbeddedHandle, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    r = rig(shipped_arena(options={"turns": 2}), hold=HOLD)
    table = r.table
    players = seat_players(r)
    r.bots.append(ChatPlayers(players, lambda: table.state))
    r.finish()
    first_id, first_seed = table.match_id, table.match_seed
    board = r.arena.board_signs
    standings = sign_text(world, r.arena, board["standings"].at)
    assert standings is not None and standings[0].startswith("1.")  # held on the board
    assert table.state is not None and table.state.is_over
    mc = mcpi_client(world)
    assert sum(torch_walls(mc, r.arena)) > 0

    players[3].leave()  # Dan goes during the hold; the others stay in their booths
    r.run_until(lambda: table.state is None, max_cycles=int(HOLD / 0.05) + 5)
    r.step()  # the reset scene goes out
    assert [o.name if o else None for o in table.occupants] == ["Aki", "Ben", "Chie", None]
    assert torch_walls(mc, r.arena) == [0, 0, 0, 0]  # torches, walls, hands and signs cleared
    for seat in r.arena.seats:
        for cell in seat.wool_wall.cells:
            p = r.arena.frame.to_world(cell)
            assert mc.getBlock(p.x, p.y, p.z) == 0
        for cell in seat.hand_display.cells:
            p = r.arena.frame.to_world(cell)
            assert tuple(mc.getBlockWithData(p.x, p.y, p.z)) == (EMPTY_SLOT.id, EMPTY_SLOT.data)
    def lines(key: str, **fields: object) -> tuple[str, ...]:
        return tuple(line.strip() for line in table.text.lines(key, **fields))

    assert sign_text(world, r.arena, r.arena.seats[3].signs["join"].at) == lines("wool_bluff.sign.join_free", seat=4)
    assert sign_text(world, r.arena, board["status"].at) == lines("wool_bluff.sign.lobby", seconds=1, seated=3, seats=4)
    assert lines("wool_bluff.sign.lobby", seconds=1, seated=3, seats=4)[:2] == ("Next match", "in 1 s")
    assert sign_text(world, r.arena, board["standings"].at) == ("", "", "", "")
    mc.conn.socket.close()

    r.run_until(lambda: table.state is not None, max_cycles=40)  # the countdown ends
    assert table.match_id != first_id and table.match_seed != first_seed
    assert table.state is not None and table.state.players == ["Aki", "Ben", "Chie"]
    r.bots[0] = ChatPlayers(players[:3], lambda: table.state)
    r.finish()

    matches = r.journal.matches()
    assert [m.id for m in matches] == [first_id, table.match_id]
    assert all(m.finished is not None for m in matches)
    assert matches[0].players == ["Aki", "Ben", "Chie", "Dan"] and matches[1].players == ["Aki", "Ben", "Chie"]

    journal = str(r.journal.path)
    assert main(["journal", "list", journal]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert len(listed) == 2 and all("wool_bluff" in line and "finished" in line for line in listed)
    assert main(["journal", "show", journal, "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [m["id"] for m in shown["matches"]] == [first_id, table.match_id]
    first = shown["matches"][0]
    assert [(a["seat"], a["action"]) for a in first["actions"]] == [(s, a) for s, a in matches[0].actions]
    assert [a["seq"] for a in first["actions"]] == list(range(len(matches[0].actions)))
    assert "at" not in first["actions"][0] and "started" not in first  # no clock: runs compare equal
    assert main(["journal", "show", journal, "--match", str(first_id), "--json", "--times"]) == 0
    timed = json.loads(capsys.readouterr().out)
    assert len(timed["matches"]) == 1 and all("at" in a for a in timed["matches"][0]["actions"])
    assert main(["journal", "show", journal, "--match", "999"]) == 1
    assert "no match 999" in capsys.readouterr().out
    assert main(["journal", "list", str(tmp_path / "missing.sqlite")]) == 2
    assert "missing.sqlite: no such file; check the path" in capsys.readouterr().err
    assert not (tmp_path / "missing.sqlite").exists()  # a history command never creates a journal
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is no database" * 100)
    assert main(["journal", "show", str(garbage), "--json"]) == 2
    assert capsys.readouterr().err.startswith(f"error: journal {garbage}: is not an SQLite database")
