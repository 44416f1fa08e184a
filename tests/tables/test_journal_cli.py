"""`mcbridge journal list/show F` and `mcbridge demo --journal F` check the journal as `run`
does: a damaged or foreign file gets the same one line (reason and fix) on stderr and exit 2,
never a traceback, and the file is left exactly as it was."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from test_journal_check import journal_with_actions

from mcbridge.cli import EXIT_OPERATOR
from mcbridge.tables.journal_check import JournalError, check_journal

TIMEOUT = 120


def mcbridge(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MCBRIDGE_DEBUG": ""}
    return subprocess.run([sys.executable, "-m", "mcbridge.cli", *args], capture_output=True, text=True,
                          timeout=TIMEOUT, check=False, env=env)


def empty(path: Path) -> None:
    path.write_bytes(b"")


def garbage(path: Path) -> None:
    path.write_bytes(b"this is no database" * 100)


def foreign(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, name TEXT)")
    db.commit()
    db.close()


def truncated(path: Path) -> None:
    journal_with_actions(path)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])


DAMAGE: dict[str, tuple[Callable[[Path], None], str]] = {
    "empty": (empty, "is empty (0 bytes)"),
    "garbage": (garbage, "is not an SQLite database"),
    "foreign": (foreign, "is an SQLite database but not a journal (tables: photos)"),
    "truncated": (truncated, "is truncated"),
}
COMMANDS = {
    "list": lambda f: ["journal", "list", f],
    "show": lambda f: ["journal", "show", f, "--json"],
    "demo": lambda f: ["demo", "--journal", f, "--seed", "1"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("damage", sorted(DAMAGE))
def test_a_bad_journal_gets_runs_one_line_reason_and_fix(tmp_path: Path, command: str, damage: str) -> None:
    path = tmp_path / "j.sqlite"
    make, reason = DAMAGE[damage]
    make(path)
    before = path.read_bytes()
    with pytest.raises(JournalError) as expected:  # what `run` says about this file
        check_journal(path)
    done = mcbridge(*COMMANDS[command](str(path)))
    assert done.returncode == EXIT_OPERATOR, done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
    assert done.stderr == f"error: {expected.value}\n"
    assert reason in done.stderr
    assert path.read_bytes() == before  # nothing repaired, replaced or created beside it
    assert sorted(p.name for p in tmp_path.iterdir()) == ["j.sqlite"]


def test_history_commands_name_a_missing_journal_and_do_not_create_it(tmp_path: Path) -> None:
    path = tmp_path / "missing.sqlite"
    done = mcbridge("journal", "list", str(path))
    assert done.returncode == EXIT_OPERATOR
    fix = "check the path (run and demo --journal create a journal)"
    assert done.stderr == f"error: journal {path}: no such file; {fix}\n"
    assert not path.exists()


def test_history_commands_read_a_read_only_backup(tmp_path: Path) -> None:
    path = journal_with_actions(tmp_path / "backup.sqlite")
    path.chmod(0o444)
    done = mcbridge("journal", "list", str(path))
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.splitlines()) == 1 and "wool_bluff" in done.stdout


def test_demo_journal_reset_needs_a_journal() -> None:
    done = mcbridge("demo", "--journal-reset")
    assert done.returncode == EXIT_OPERATOR and done.stderr.startswith("error: --journal-reset needs --journal")
