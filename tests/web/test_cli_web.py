"""`mcbridge demo --web ADDR` serves the view while the demo plays, and says where."""

from __future__ import annotations

import subprocess
import sys

MCBRIDGE = [sys.executable, "-c", "import sys; from mcbridge.cli import main; sys.exit(main(sys.argv[1:]))"]


def test_demo_with_web_prints_the_address_and_the_token() -> None:
    done = subprocess.run([*MCBRIDGE, "demo", "--turns", "1", "--tps", "0",
                           "--web", "127.0.0.1:0", "--web-token", "letmein"],
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    [line] = [x for x in done.stdout.splitlines() if x.startswith("web view on")]
    assert line.startswith("web view on http://127.0.0.1:") and "from --web-token" in line
    assert "letmein" not in done.stdout  # a token given is never echoed
    assert "1 match(es) over" in done.stdout


def test_a_bad_web_address_is_refused_before_anything_starts() -> None:
    done = subprocess.run([*MCBRIDGE, "demo", "--web", "localhost"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "HOST:PORT" in done.stdout + done.stderr and "Traceback" not in done.stderr
