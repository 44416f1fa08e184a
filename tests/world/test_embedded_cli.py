"""``mcbridge world serve`` as a real subprocess: it says where it listens, serves mcpi,
stops on SIGTERM/SIGINT (by PID) and saves the world it was given."""

from __future__ import annotations

import re
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from rj_support import connect_mcpi

import mcbridge

START_TIMEOUT = 30.0
LISTENING = re.compile(r"RaspberryJuice on 127\.0\.0\.1:(\d+)")


class Serve:
    """One `mcbridge world serve` process."""

    def __init__(self, *args: str) -> None:
        self.banner = ""
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mcbridge.cli", "world", "serve", *args],
            cwd=mcbridge.PROJECT_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    def port(self) -> int:
        """Wait for the 'listening' line (bounded) and return the port it names."""
        assert self.proc.stdout is not None
        selector = selectors.DefaultSelector()
        selector.register(self.proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + START_TIMEOUT
        try:
            while time.monotonic() < deadline:
                if selector.select(timeout=deadline - time.monotonic()):
                    line = self.proc.stdout.readline()
                    match = LISTENING.search(line)
                    if match:
                        self.banner = line
                        return int(match.group(1))
                    if not line:
                        break
        finally:
            selector.close()
        self.kill()
        raise AssertionError(f"no listening line; stderr: {self.proc.stderr.read()}")

    def stop(self, signum: int = signal.SIGTERM) -> tuple[int, str, str]:
        self.proc.send_signal(signum)
        try:
            out, err = self.proc.communicate(timeout=START_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.kill()
            raise
        return self.proc.returncode, out, err

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


@pytest.fixture
def serve() -> Iterator[type[Serve]]:
    started: list[Serve] = []

    class Tracked(Serve):
        def __init__(self, *args: str) -> None:
            super().__init__(*args)
            started.append(self)

    yield Tracked
    for process in started:
        process.kill()


def test_serve_saves_on_sigterm_and_loads_again(serve, tmp_path):
    world = tmp_path / "arena.npz"
    server = serve("--port", "0", "--tps", "0", "--world", str(world))
    port = server.port()
    mc = connect_mcpi("127.0.0.1", port)
    mc.setBlock(1, 2, 3, 35, 14)
    assert mc.getBlockWithData(1, 2, 3).data == 14
    mc.conn.socket.close()
    code, out, _ = server.stop(signal.SIGTERM)
    assert code == 0
    assert f"saved the world to {world}" in out
    again = serve("--port", "0", "--world", str(world))  # 20 TPS this time
    mc = connect_mcpi("127.0.0.1", again.port())
    assert mc.getBlockWithData(1, 2, 3).id == 35
    mc.conn.socket.close()
    code, _, _ = again.stop(signal.SIGINT)
    assert code == 0


def test_serve_absolute_mode_without_a_world_file(serve):
    server = serve("--port", "0", "--tps", "0", "--absolute")
    mc = connect_mcpi("127.0.0.1", server.port())
    assert mc.getBlock(0, 0, 0) == 7  # bedrock at absolute y=0
    mc.conn.socket.close()
    code, out, _ = server.stop()
    assert code == 0 and "absolute coordinates" in server.banner and "saved" not in out


def test_serve_explains_bad_input(serve, tmp_path):
    broken = tmp_path / "broken.npz"
    broken.write_text("nope")
    process = serve("--port", "0", "--world", str(broken))
    _, err = process.proc.communicate(timeout=START_TIMEOUT)
    assert process.proc.returncode == 1 and "not an embedded-world save" in err
    process = serve("--tps", "-1")
    _, err = process.proc.communicate(timeout=START_TIMEOUT)
    assert process.proc.returncode == 2 and "--tps" in err


def test_serve_reports_a_busy_port(serve):
    first = serve("--port", "0", "--tps", "0")
    port = first.port()
    second = serve("--port", str(port))
    _, err = second.proc.communicate(timeout=START_TIMEOUT)
    assert second.proc.returncode == 1 and f"cannot listen on 127.0.0.1:{port}" in err
    assert first.stop()[0] == 0


def test_world_without_a_subcommand_prints_help():
    result = subprocess.run(
        [sys.executable, "-m", "mcbridge.cli", "world"],
        cwd=Path(mcbridge.PROJECT_ROOT), capture_output=True, text=True, timeout=START_TIMEOUT,
    )
    assert result.returncode == 2 and "serve" in result.stdout
