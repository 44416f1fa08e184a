"""`mcbridge stats top|player`, and `demo --db` recording every match of the demo table."""

from __future__ import annotations

import json

from mcbridge.cli import main
from mcbridge.stats.store import open_store
from tests.stats.support import record


def test_top_and_player_json(tmp_path, capsys):
    url = f"sqlite:///{tmp_path}/s.db"
    store = open_store(url)
    store.record(record(1, ["Aki", "名前"]))
    store.record(record(2, ["Aki", "名前"]))
    store.close()
    assert main(["stats", "top", "wool_bluff", "--json", "--db", url]) == 0
    top = json.loads(capsys.readouterr().out)
    assert [r["player"] for r in top["top"]] == ["Aki", "名前"]
    assert top["top"][0]["matches"] == 2
    assert main(["stats", "player", "名前", "--json", "--db", url]) == 0
    me = json.loads(capsys.readouterr().out)
    assert me["games"][0]["rank"] == 2 and len(me["history"]) == 2


def test_errors_are_one_line_with_the_fix(tmp_path, capsys):
    assert main(["stats", "top", "wool_bluf", "--db", f"sqlite:///{tmp_path}/s.db"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "one of braff" in err
    assert main(["stats", "top", "wool_bluff", "--db", "redis://x"]) == 2
    assert "use sqlite:///PATH or postgresql://" in capsys.readouterr().err


def test_demo_records_every_match(tmp_path, capsys):
    url = f"sqlite:///{tmp_path}/s.db"
    assert main(["demo", "--tps", "0", "--turns", "3", "--matches", "2", "--db", url]) == 0
    assert "stats: 2 match(es) recorded" in capsys.readouterr().out
    store = open_store(url)
    assert store.match_count() == 2
    board = store.top("wool_bluff", bots=True)
    assert len(board) == 4 and all(r.matches == 2 for r in board)
    assert store.top("wool_bluff") == []  # the demo's players are bots: not on the people's board
    seats = store.conn.execute("SELECT count(*), count(score), min(rank) FROM results").fetchone()
    assert seats == (8, 8, 1)  # every seat with its score (the result's score_name: torches)
