"""A journal that cannot be trusted is refused with the reason and the fix, never silently replaced."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from mcbridge.tables.journal import Journal
from mcbridge.tables.journal_check import JournalError, check_journal, prepare_journal, reset_journal

ROOT = os.geteuid() == 0  # root writes through read-only modes: those checks cannot be shown as root

CRASHING_WRITER = """
import os, sys
from mcbridge.tables.journal import Journal
journal = Journal(sys.argv[1])
match = journal.start_match("arena", "wool_bluff", {}, ["aki", "ben"], 7)
for seq in range(20):
    journal.append(match, seq, seq % 2, {"type": "Bid", "count": seq})
os._exit(9)  # killed: no close, no checkpoint
"""


def journal_with_actions(path: Path, *, crash: bool = False) -> Path:
    """A real journal with one match of 20 actions; `crash` leaves it as a SIGKILL would."""
    if crash:
        subprocess.run([sys.executable, "-c", CRASHING_WRITER, str(path)], timeout=60, check=False)
        assert Path(f"{path}-wal").exists() and Path(f"{path}-shm").exists()
        return path
    journal = Journal(path)
    match = journal.start_match("arena", "wool_bluff", {}, ["aki", "ben"], 7)
    for seq in range(20):
        journal.append(match, seq, seq % 2, {"type": "Bid", "count": seq})
    journal.db.close()
    return path


def refused(path: Path) -> JournalError:
    with pytest.raises(JournalError) as exc:
        check_journal(path)
    message = str(exc.value)
    assert message.startswith(f"journal {path}: ") and "\n" not in message
    return exc.value


def test_healthy_journals_pass_new_closed_and_crashed(tmp_path: Path) -> None:
    check_journal(tmp_path / "new.sqlite")
    check_journal(tmp_path / "not" / "yet" / "made.sqlite")  # Journal creates its directories
    check_journal(journal_with_actions(tmp_path / "closed.sqlite"))
    check_journal(journal_with_actions(tmp_path / "crashed.sqlite", crash=True))
    check_journal(":memory:")


def test_a_truncated_to_zero_journal_is_refused_not_restarted(tmp_path: Path) -> None:
    path = journal_with_actions(tmp_path / "j.sqlite")
    path.write_bytes(b"")
    error = refused(path)
    assert "is empty (0 bytes)" in error.reason and "--journal-reset" in error.fix


@pytest.mark.parametrize("keep", [0.5, 0.9])
def test_a_half_truncated_journal_is_refused(tmp_path: Path, keep: float) -> None:
    path = journal_with_actions(tmp_path / "j.sqlite")
    journal = Journal(path)
    for seq in range(300):  # many pages, so a cut lands inside the data
        journal.append(1, 100 + seq, 0, {"type": "Bid", "pad": "x" * 100})
    journal.db.close()
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])
    assert "truncated" in refused(path).reason


def test_garbage_and_foreign_databases_are_refused(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(os.urandom(8192))
    assert "not an SQLite database" in refused(garbage).reason
    corrupt = journal_with_actions(tmp_path / "corrupt.sqlite")
    data = bytearray(corrupt.read_bytes())
    data[4096:] = b"\xff" * (len(data) - 4096)  # every page after the header
    corrupt.write_bytes(bytes(data))
    assert "corrupt" in refused(corrupt).reason
    foreign = tmp_path / "foreign.sqlite"
    with sqlite3.connect(foreign) as db:
        db.execute("CREATE TABLE photos (id INTEGER)")
    db.close()
    error = refused(foreign)
    assert "not a journal (tables: photos)" in error.reason and "another --journal" in error.fix


def test_a_wal_deleted_after_a_crash_is_refused(tmp_path: Path) -> None:
    path = journal_with_actions(tmp_path / "j.sqlite", crash=True)
    Path(f"{path}-wal").unlink()
    error = refused(path)
    assert "write-ahead log j.sqlite-wal is missing after a crash" in error.reason
    assert "put j.sqlite-wal back" in error.fix and "--journal-reset" in error.fix


def test_a_wal_and_shm_deleted_after_a_crash_before_any_checkpoint_is_refused(tmp_path: Path) -> None:
    path = journal_with_actions(tmp_path / "j.sqlite", crash=True)
    Path(f"{path}-wal").unlink()
    Path(f"{path}-shm").unlink()
    assert "holds no tables and its write-ahead log" in refused(path).reason


def test_a_journal_deleted_next_to_its_wal_is_refused(tmp_path: Path) -> None:
    path = journal_with_actions(tmp_path / "j.sqlite", crash=True)
    path.unlink()
    assert "the file is missing but its write-ahead log" in refused(path).reason


def test_paths_that_cannot_hold_a_journal_are_refused(tmp_path: Path) -> None:
    assert "is a directory" in refused(tmp_path).reason
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert f"{blocker} is a file" in refused(blocker / "sub" / "j.sqlite").reason


@pytest.mark.skipif(ROOT, reason="root can write read-only files and directories")
def test_read_only_files_and_directories_are_refused(tmp_path: Path) -> None:
    path = journal_with_actions(tmp_path / "j.sqlite")
    path.chmod(0o444)
    assert "read-only" in refused(path).reason
    path.chmod(0o644)
    tmp_path.chmod(0o555)
    try:
        assert "is read-only; SQLite writes j.sqlite-wal" in refused(path).reason
        assert "is not writable" in refused(tmp_path / "missing" / "j.sqlite").reason
    finally:
        tmp_path.chmod(0o755)


def test_reset_keeps_every_file_as_a_backup_and_starts_over(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = journal_with_actions(tmp_path / "j.sqlite", crash=True)
    Path(f"{path}-wal").unlink()
    original = path.read_bytes()
    prepare_journal(path, reset=True)
    [backup] = tmp_path.glob("j.sqlite.*.bak")
    assert backup.read_bytes() == original and Path(f"{backup}-shm").exists()
    assert f"moved to {backup}" in capsys.readouterr().out
    assert not path.exists()
    Journal(path).db.close()
    check_journal(path)
    second = reset_journal(path)  # again, within the same second: a second backup, not over the first
    assert second is not None and second != backup and backup.read_bytes() == original
    assert reset_journal(tmp_path / "never.sqlite") is None
