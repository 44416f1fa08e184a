"""Operator mistakes through the real `mcbridge` process: one line each, a documented exit code, no traceback.

Exit codes (mcbridge/cli.py): 1 a file has problems, 2 any other operator error, 70 a bug.
Permission cases run the CLI as the unprivileged user `nobody` when the suite runs as root
(root reads and writes through file modes), so they test the real errors, not a mock.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcbridge import CONFIG_DIR
from mcbridge.cli import EXIT_BUG, EXIT_INVALID_FILE, EXIT_OPERATOR, main

ARENA = CONFIG_DIR / "arenas" / "wool_bluff.yaml"
NOBODY = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
CAN_DROP_ROOT = os.geteuid() == 0 and shutil.which("setpriv") is not None


Run = subprocess.CompletedProcess[str]


def mcbridge(*args: str, as_nobody: bool = False, env: dict[str, str] | None = None) -> Run:
    command = [sys.executable, "-m", "mcbridge.cli", *args]
    if as_nobody and CAN_DROP_ROOT:
        command = [*NOBODY, *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, env={**os.environ, **(env or {})})


def one_line_error(done: Run, code: int, *words: str) -> str:
    """The run failed with `code` and said exactly one thing on stderr, containing `words`."""
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if not line.startswith(("connecting to", "  "))]
    assert done.returncode == code, (done.returncode, done.stdout, done.stderr)
    assert len(lines) == 1, lines
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory `nobody` can enter (pytest's tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="mcbridge-cli-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def test_missing_and_directory_arena_files(tmp_path: Path) -> None:
    done = mcbridge("validate", str(tmp_path / "nope.yaml"))  # validate reports on stdout, with a count
    assert done.returncode == EXIT_INVALID_FILE and not done.stderr
    assert done.stdout.splitlines()[0] == f"{tmp_path}/nope.yaml: file not found; check the path"
    one_line_error(mcbridge("run", str(tmp_path / "nope.yaml")), EXIT_INVALID_FILE, "file not found; check the path")
    one_line_error(mcbridge("arena", "build", str(tmp_path)), EXIT_INVALID_FILE, "is a directory")


def test_an_invalid_arena_stops_run_before_it_connects(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text(ARENA.read_text(encoding="utf-8").replace("to: [36, 7, 16]", "to: [99999, 7, 99999]"))
    line = one_line_error(mcbridge("run", str(path)), EXIT_INVALID_FILE, "an arena may hold at most")
    assert line.startswith(f"{path}:11:9: ")


def test_run_without_a_server_retries_says_where_and_stops_in_one_line(closed_port: int, tmp_path: Path) -> None:
    done = mcbridge("run", str(ARENA), "--port", str(closed_port), "--connect-attempts", "2",
                    "--journal", str(tmp_path / "j.sqlite"))  # fmt: skip
    line = one_line_error(done, EXIT_OPERATOR, f"no RaspberryJuice server answered at 127.0.0.1:{closed_port}")
    assert "after 2 attempt(s)" in line and "mcbridge server" in line
    progress = done.stderr.splitlines()
    assert progress[0] == f"connecting to the RaspberryJuice server at 127.0.0.1:{closed_port} (attempt 1 of 2)"
    assert progress[1].endswith("; next try in 1 s") and "Connection refused" in progress[1]
    assert progress[2].endswith("(attempt 2 of 2)")


def test_arena_build_without_a_server_is_one_line(closed_port: int) -> None:
    done = mcbridge("arena", "build", str(ARENA), "--port", str(closed_port), "--connect-attempts", "1")
    one_line_error(done, EXIT_OPERATOR, "after 1 attempt(s)")


@pytest.mark.parametrize(
    "args",
    [
        ["run", str(ARENA), "--port", "70000"],
        ["arena", "build", str(ARENA), "--port", "-1"],
        ["worldgen", "paste", "x.schem", "--at", "0,0,0", "--port", "65536"],
        ["server", "--port", "99999"],
    ],
)
def test_bad_ports_are_refused_before_any_socket(args: list[str]) -> None:
    done = mcbridge(*args)
    assert done.returncode == EXIT_OPERATOR and "Traceback" not in done.stderr
    assert "a port is a number from 1 to 65535" in done.stderr.splitlines()[-1]


def test_bad_attempt_counts_are_usage_errors() -> None:
    done = mcbridge("run", str(ARENA), "--connect-attempts", "-3")
    assert done.returncode == EXIT_OPERATOR and "give a whole number of attempts" in done.stderr


def test_unknown_game_and_bad_schematic(tmp_path: Path) -> None:
    done = mcbridge("rules", "nosuch", "--seed", "1", "--players", "3", "--bots")
    assert done.returncode == EXIT_OPERATOR and "Traceback" not in done.stderr
    [line] = (done.stdout + done.stderr).splitlines()  # `rules` answers on stdout
    assert "'nosuch'" in line and "wool_bluff" in line
    junk = tmp_path / "junk.schem"
    junk.write_bytes(os.urandom(300))
    one_line_error(mcbridge("worldgen", "paste", str(junk), "--at", "0,0,0"), EXIT_OPERATOR, str(junk))


def test_a_broken_journal_is_refused_and_reset_keeps_a_backup(closed_port: int, tmp_path: Path) -> None:
    journal = tmp_path / "j.sqlite"
    journal.write_bytes(b"")
    args = ["run", str(ARENA), "--port", str(closed_port), "--connect-attempts", "1", "--journal", str(journal)]
    one_line_error(mcbridge(*args), EXIT_OPERATOR, f"journal {journal}: is empty (0 bytes)", "--journal-reset")
    done = mcbridge(*args, "--journal-reset")
    [backup] = tmp_path.glob("j.sqlite.*.bak")
    assert f"journal {journal}: moved to {backup}" in done.stdout
    one_line_error(done, EXIT_OPERATOR, "no RaspberryJuice server answered")  # got past the journal


def test_a_journal_path_under_a_file_is_one_line(closed_port: int, tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    done = mcbridge("run", str(ARENA), "--port", str(closed_port), "--journal", str(tmp_path / "file" / "j.sqlite"))
    one_line_error(done, EXIT_OPERATOR, "is a file, so the journal's directory cannot be made")


@pytest.mark.skipif(os.geteuid() == 0 and not CAN_DROP_ROOT, reason="root without setpriv ignores file modes")
def test_unreadable_files_and_read_only_journals_as_an_unprivileged_user(shared_dir: Path, closed_port: int) -> None:
    secret = shared_dir / "secret.yaml"
    shutil.copy(ARENA, secret)
    secret.chmod(0o600)
    one_line_error(mcbridge("run", str(secret), as_nobody=True), EXIT_INVALID_FILE, "permission denied")
    arena = shared_dir / "arena.yaml"
    shutil.copy(ARENA, arena)
    arena.chmod(0o644)
    run = ["run", str(arena), "--port", str(closed_port), "--connect-attempts", "1", "--journal"]
    journal = shared_dir / "j.sqlite"
    subprocess.run([sys.executable, "-c", f"from mcbridge.tables.journal import Journal; Journal({str(journal)!r})"],
                   check=True, timeout=60)  # fmt: skip
    journal.chmod(0o644)  # readable, not writable, for nobody
    one_line_error(mcbridge(*run, str(journal), as_nobody=True), EXIT_OPERATOR, "is read-only")
    one_line_error(mcbridge(*run, str(shared_dir / "new" / "j.sqlite"), as_nobody=True), EXIT_OPERATOR,
                   "is not writable")  # fmt: skip


def test_debug_shows_the_traceback_of_the_same_mistake(tmp_path: Path) -> None:
    missing = str(tmp_path / "nope.yaml")
    for done in (mcbridge("--debug", "run", missing), mcbridge("run", missing, "--debug"),
                 mcbridge("run", missing, env={"MCBRIDGE_DEBUG": "1"})):  # fmt: skip
        assert "Traceback" in done.stderr and "ArenaError" in done.stderr


def test_a_bug_is_one_line_that_asks_for_debug(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import mcbridge.tables.cli as tables_cli

    def broken(_args: object) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(tables_cli, "cmd_schema", broken)
    assert main(["schema"]) == EXIT_BUG
    [line] = capsys.readouterr().err.splitlines()
    assert line.startswith("mcbridge: internal error (a bug): ZeroDivisionError: division by zero.")
    assert "--debug" in line
    with pytest.raises(ZeroDivisionError):
        main(["schema", "--debug"])
