"""Is this journal safe to open? Checked before SQLite touches it, so nothing is lost silently.

SQLite "repairs" some damage by itself in ways that lose a match: a 0-byte file opens as
a new empty database, and a journal whose write-ahead log was deleted after a crash opens
as the state before the log (the last actions vanish). A garbage file, a read-only file
or directory, a missing directory, each give a raw traceback from deeper down. So a table
checks first and refuses with one line: the reason and the fix. The fix for a journal that
cannot be trusted is `--journal-reset`, which keeps the old file as a backup and starts over.
"""

from __future__ import annotations

import os
import sqlite3
import time
from pathlib import Path
from typing import NoReturn

SQLITE_HEADER = b"SQLite format 3\x00"
JOURNAL_TABLES = {"matches", "actions"}
RESET_FLAG = "--journal-reset"
START_OVER = f"start over with {RESET_FLAG} on run or demo (it keeps the old file as a backup)"


class JournalError(Exception):
    """A journal that must not be opened as it is; `reason` and `fix` are for the operator."""

    def __init__(self, path: str | Path, reason: str, fix: str) -> None:
        self.path = str(path)
        self.reason = reason
        self.fix = fix
        super().__init__(f"journal {self.path}: {reason}; {fix}")


def check_journal(path: str | Path, *, writing: bool = True) -> None:
    """Raise JournalError if opening `path` as a journal could lose or hide data; else None.

    Reads only: it never creates, repairs or deletes anything. `writing=False` is for the
    history commands (`journal list/show`): the file must exist and be a journal, but may
    be read-only (a backup), and one that holds no tables yet is no journal to them.
    """
    p = Path(path)
    if str(p) == ":memory:":
        return
    wal, shm = _sidecar(p, "-wal"), _sidecar(p, "-shm")
    if not p.exists():
        if wal.exists() or shm.exists():
            _refuse(p, f"the file is missing but its write-ahead log {wal.name} is there (deleted after a crash?)",
                    f"put the file back, or {START_OVER}")
        if not writing:
            _refuse(p, "no such file", "check the path (run and demo --journal create a journal)")
        _check_can_create(p)
        return
    if p.is_dir():
        _refuse(p, "is a directory", "give a file path, e.g. var/journal.sqlite")
    if not writing:
        if not os.access(p, os.R_OK):
            _refuse(p, "is unreadable for this user", f"make it readable (chmod u+r {p})")
        if not _check_content(p, wal, shm):
            _refuse(p, "is an SQLite database without tables, not a journal", "check the path")
        return
    if not os.access(p, os.R_OK | os.W_OK):
        _refuse(p, "is read-only (or unreadable) for this user",
                f"make it writable (chmod u+rw {p}) or pick another --journal")
    if not os.access(p.parent, os.W_OK | os.X_OK):
        _refuse(p, f"its directory {p.parent} is read-only; SQLite writes {wal.name} next to the journal",
                "make the directory writable or pick another --journal")
    _check_content(p, wal, shm)


def reset_journal(path: str | Path) -> Path | None:
    """Move the journal and its sidecar files aside; returns the backup path (None: nothing to move)."""
    p = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    backup, n = p.with_name(f"{p.name}.{stamp}.bak"), 1
    while any(_sidecar(backup, suffix).exists() for suffix in ("", "-wal", "-shm")):
        n += 1  # two resets in one second: never overwrite the first backup
        backup = p.with_name(f"{p.name}.{stamp}-{n}.bak")
    moved = None
    for suffix in ("", "-wal", "-shm"):
        source = _sidecar(p, suffix)
        if source.exists():
            source.rename(_sidecar(backup, suffix))
            moved = backup
    return moved


def prepare_journal(path: str | Path, *, reset: bool = False) -> None:
    """What `run` does before it opens its journal: reset on request (saying where the backup went), then check."""
    if reset:
        backup = reset_journal(path)
        if backup is not None:
            print(f"journal {path}: moved to {backup}; starting a new journal", flush=True)
    check_journal(path)


def _check_content(p: Path, wal: Path, shm: Path) -> set[str]:
    """The checks of the bytes and the database; returns its tables (empty: a new database)."""
    size = p.stat().st_size
    fix = f"restore it from a backup, or {START_OVER}"
    if size == 0:
        _refuse(p, "is empty (0 bytes): it was truncated, its matches are gone", fix)
    with p.open("rb") as stream:
        header = stream.read(100)
    if not header.startswith(SQLITE_HEADER):
        _refuse(p, "is not an SQLite database (another file, or overwritten)", fix)
    if len(header) < 100:
        _refuse(p, f"is truncated ({size} bytes, shorter than its own header)", fix)
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    header_valid = header[24:28] == header[92:96]  # the page count is current (SQLite 3.7+)
    # With a write-ahead log next to it, a checkpoint killed halfway may leave the file short:
    # SQLite finishes it from the log, and quick_check below still catches real damage.
    short = header_valid and pages * page_size > size and not wal.exists()
    if page_size < 512 or size % page_size or short:
        _refuse(p, f"is truncated ({size} bytes; its header says {pages} pages of {page_size})", fix)
    lost_wal = header[18] == 2 and not wal.exists()  # WAL mode, and no log next to it
    if lost_wal and shm.exists():
        _refuse(p, f"its write-ahead log {wal.name} is missing after a crash (the last actions were in it)",
                f"put {wal.name} back, or {START_OVER}")
    tables = _check_database(p, fix)
    if lost_wal and not tables:  # a clean close checkpoints the tables into the file
        _refuse(p, f"holds no tables and its write-ahead log {wal.name} is missing (everything was in it)",
                f"put {wal.name} back, or {START_OVER}")
    return tables


def _check_database(p: Path, fix: str) -> set[str]:
    try:
        db = sqlite3.connect(f"{p.resolve().as_uri()}?mode=ro", uri=True)
        try:
            verdict = db.execute("PRAGMA quick_check").fetchone()[0]
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        finally:
            db.close()
    except sqlite3.DatabaseError as exc:
        _refuse(p, f"is corrupt ({exc})", fix)
    if verdict != "ok":
        _refuse(p, f"is corrupt (SQLite quick_check: {verdict})", fix)
    if tables and not tables >= JOURNAL_TABLES:
        _refuse(p, f"is an SQLite database but not a journal (tables: {', '.join(sorted(tables))})",
                "pick another --journal; this file belongs to something else")
    return tables


def _check_can_create(p: Path) -> None:
    """The journal will be created with its directories: the nearest existing one must be writable."""
    ancestor = p.parent
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        _refuse(p, f"{ancestor} is a file, so the journal's directory cannot be made", "pick another --journal")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        missing = "" if ancestor == p.parent else f"{p.parent} is missing and "
        _refuse(p, f"{missing}the directory {ancestor} is not writable",
                f"create {p.parent} writable or pick another --journal")


def _sidecar(p: Path, suffix: str) -> Path:
    return p.with_name(p.name + suffix)


def _refuse(p: Path, reason: str, fix: str) -> NoReturn:
    raise JournalError(p, reason, fix)
