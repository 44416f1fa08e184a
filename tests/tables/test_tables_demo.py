"""`mcbridge demo` (what `make demo` runs), and the demo killed with SIGKILL and run again:
its journal ends up identical to an uninterrupted run's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mcbridge.cli import main
from mcbridge.tables.faults import ENV
from mcbridge.tables.journal import Journal

DEMO = ["demo", "--seed", "4", "--tps", "0", "--turns", "1", "--matches", "2"]
RUN_SECONDS = 120.0


def test_the_demo_plays_its_matches_and_prints_the_public_chat(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "demo" / "journal.sqlite"
    assert main([*DEMO, "--journal", str(journal), "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("arena wool-bluff-1 built on the embedded world")
    assert out.count("最終順位") == 2  # the standings title, once per match
    assert "2 match(es) over" in out
    matches = Journal(journal).matches()
    assert len(matches) == 2 and all(m.finished is not None for m in matches)
    assert matches[0].seed != matches[1].seed
    assert (journal.parent.stat().st_mode & 0o777, journal.stat().st_mode & 0o777) == (0o700, 0o600)


def demo(journal: Path, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "mcbridge.cli", *DEMO, "--journal", str(journal)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            env={**os.environ, **(env or {})})


def history(journal: Path) -> str:
    shown = subprocess.run([sys.executable, "-m", "mcbridge.cli", "journal", "show", str(journal), "--json"],
                           capture_output=True, text=True, timeout=RUN_SECONDS, check=True)
    return shown.stdout


def actions_in(journal: Path) -> int:
    if not journal.exists():
        return 0
    db = Journal(journal)
    try:
        return sum(len(m.actions) for m in db.matches())
    finally:
        db.close()


def test_a_killed_demo_run_again_journals_what_an_uninterrupted_demo_journals(tmp_path: Path) -> None:
    whole = tmp_path / "whole.sqlite"
    assert demo(whole).wait(RUN_SECONDS) == 0
    expected = history(whole)
    assert expected.count('"id"') == 2

    # killed by the kill point right after match 1's action 9 is journaled, before it is drawn
    killed = tmp_path / "killed.sqlite"
    assert demo(killed, {ENV: "1:9"}).wait(RUN_SECONDS) == -signal.SIGKILL
    assert actions_in(killed) == 10
    # then SIGKILL from outside, at whatever moment the second match has begun
    second = demo(killed)
    deadline = time.monotonic() + RUN_SECONDS
    while len(Journal(killed).matches()) < 2:
        assert second.poll() is None, second.stderr.read() if second.stderr else ""
        assert time.monotonic() < deadline, "the second match never started"
        time.sleep(0.01)
    second.kill()
    assert second.wait(RUN_SECONDS) == -signal.SIGKILL
    assert demo(killed).wait(RUN_SECONDS) == 0
    assert history(killed) == expected
