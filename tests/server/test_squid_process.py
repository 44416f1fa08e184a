"""Starting and stopping the real server from Python and from `mcbridge server`."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from squid_support import RawClient, start_or_skip

from mcbridge.world import realserver

pytestmark = pytest.mark.server

WOOL, STANDING_SIGN = 35, 63


def test_missing_node_is_a_clear_error(monkeypatch):
    monkeypatch.setattr(realserver.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match=r"Node\.js is not installed"):
        realserver.start_flying_squid()


def test_missing_node_packages_are_named_with_the_fix(tmp_path):
    problem = realserver.node_deps_problem(tmp_path)
    assert problem is not None and "npm ci" in problem and str(tmp_path) in problem
    package = tmp_path / "node_modules" / "flying-squid"
    package.mkdir(parents=True)
    (package / "package.json").write_text('{"version": "1.11.0"}')
    assert "1.11.0 is installed but 1.12.0 is pinned" in (realserver.node_deps_problem(tmp_path) or "")


def test_a_failed_install_is_reported(tmp_path):
    if realserver.shutil.which("npm") is None:
        pytest.skip("npm is not installed")
    with pytest.raises(RuntimeError, match="npm ci"):
        realserver.ensure_node_deps(tmp_path)  # no package-lock.json: npm ci refuses at once


def test_stop_ends_the_process_and_removes_the_temporary_world():
    server = start_or_skip()
    world = server.world_dir
    assert world.is_dir() and server.is_running()
    assert RawClient(server.port).ask("world.getBlock(0,-1,0)") == "2"
    server.stop()
    assert server.process.returncode == 0  # a clean stop, not a kill
    assert not world.exists()
    server.stop()  # idempotent


def test_a_world_folder_keeps_blocks_and_sign_texts(tmp_path):
    world = tmp_path / "world"
    with start_or_skip(world_dir=world) as server:
        client = RawClient(server.port)
        client.send(f"world.setBlock(2,0,2,{WOOL},14)\nworld.setSign(3,0,3,{STANDING_SIGN},0,kept,text)\n")
        assert client.ask("world.getBlockWithData(2,0,2)") == "35,14"
        client.close()
    assert (world / "level.dat").is_file()
    with start_or_skip(world_dir=world) as server:
        client = RawClient(server.port)
        assert client.ask("world.getBlockWithData(2,0,2)") == "35,14"
        assert server.sign_lines(3, 0, 3) == ("kept", "text", "", "")
        client.close()


def test_a_busy_port_is_reported():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(RuntimeError, match=f"bridge did not start on 127.0.0.1:{port}") as error:
            start_or_skip(bridge_port=port)
    log = re.search(r"\(server log: (.+)\)$", str(error.value))
    assert log, "a failed start names its log"
    Path(log.group(1)).unlink()


def test_the_cli_runs_the_server_until_interrupted(tmp_path):
    start_or_skip().stop()  # skips here when Node is missing
    process = subprocess.Popen(
        [sys.executable, "-m", "mcbridge.cli", "server", "--port", "0", "--bridge-port", "0",
         "--world", str(tmp_path / "w")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=Path(realserver.__file__).resolve().parents[2],
    )  # fmt: skip
    try:
        assert process.stdout is not None
        banner = process.stdout.readline()
        match = re.search(r"RaspberryJuice bridge on 127\.0\.0\.1:(\d+)", banner)
        assert match, banner
        assert RawClient(int(match.group(1))).ask("world.getBlock(0,-5,0)") == "7"
        os.kill(process.pid, signal.SIGINT)
        assert process.wait(20) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(5)
