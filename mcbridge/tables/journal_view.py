"""`mcbridge journal list|show`: a journal's history for people and for comparison.

`show --json` prints only what the players and the dealer decided (no wall-clock times
unless `--times`), so two runs with the same inputs print the same text.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from mcbridge.tables.journal import Journal, JournalMatch


class NotAJournal(Exception):
    """The file exists but is no journal (or a damaged one): one line for the operator."""


def open_existing(path: Path) -> Journal | None:
    """The journal at `path`, or None: a history command never creates a journal."""
    if not path.is_file():
        return None
    try:
        journal = Journal(path)
        journal.db.execute("SELECT count(*) FROM matches").fetchone()
    except sqlite3.DatabaseError as exc:
        raise NotAJournal(f"{path}: not a readable journal ({exc})") from None
    return journal


def _match_json(m: JournalMatch, times: bool) -> dict[str, Any]:
    actions: list[dict[str, Any]] = []
    for seq, (seat, action) in enumerate(m.actions):
        entry: dict[str, Any] = {"seq": seq, "seat": seat, "action": action}
        if times:
            entry["at"] = m.times[seq]
        actions.append(entry)
    out: dict[str, Any] = {
        "id": m.id,
        "arena": m.arena,
        "game": m.game,
        "players": m.players,
        "actions": actions,
        "result": m.result,
    }
    if times:
        out["started"], out["finished"] = m.started, m.finished
    return out


def history(journal: Journal, match_id: int | None = None, times: bool = False) -> dict[str, Any]:
    """{"matches": [{"id", "game", "actions": [{"seq", "seat", "action"}], ...}]}; KeyError for an unknown id."""
    matches = [journal.match(match_id)] if match_id is not None else journal.matches()
    return {"matches": [_match_json(m, times) for m in matches]}


def list_lines(journal: Journal) -> list[str]:
    lines = []
    for m in journal.matches():
        state = "finished" if m.finished is not None else "unfinished"
        winners = [r["name"] for r in (m.result or {}).get("standings", []) if r.get("rank") == 1]
        won = f", won by {', '.join(winners)}" if winners else ""
        lines.append(
            f"match {m.id}: {m.game} at {m.arena}, {', '.join(m.players)}; {len(m.actions)} actions, {state}{won}"
        )
    return lines or ["(no matches)"]


def show_lines(data: dict[str, Any]) -> list[str]:
    lines = []
    for m in data["matches"]:
        lines.append(f"match {m['id']}: {m['game']} at {m['arena']}, {', '.join(m['players'])}")
        for a in m["actions"]:
            who = "chance" if a["seat"] < 0 else m["players"][a["seat"]]
            fields = " ".join(f"{k}={v}" for k, v in a["action"].items() if k != "type")
            at = f" @{a['at']:.3f}" if "at" in a else ""
            lines.append(f"  {a['seq']:>4} {who:<10} {a['action'].get('type', '?')} {fields}{at}")
    return lines
