"""A real browser: headless Debian chromium, driven over the DevTools protocol with the
websockets client, watches a bot match on the embedded world through the page."""

from __future__ import annotations

import base64
import dataclasses
import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from arena_support import demo_arena
from websockets.sync.client import connect

from mcbridge import CONFIG_DIR
from mcbridge.tables.build import build_arena
from mcbridge.tables.config import load_arena
from mcbridge.tables.demo import TableBot
from mcbridge.tables.journal import Journal
from mcbridge.tables.seat_bots import SeatBot
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.web.hub import WebHub
from mcbridge.web.server import WebServer
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import start_embedded

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
WAIT = 120.0

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="Debian's chromium is not installed (.ci/run installs it "
                                "with apt-get install chromium; without root or network it cannot)")


class DevTools:
    """One page of a headless chromium, over its DevTools websocket."""

    def __init__(self, profile: Path) -> None:
        assert CHROMIUM is not None
        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-port=0",
             f"--user-data-dir={profile}", "--window-size=1400,1000", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not port_file.exists() or not port_file.read_text().strip():
            if time.monotonic() > deadline or self.proc.poll() is not None:
                raise RuntimeError("chromium did not open its DevTools port within 30 s")
            time.sleep(0.1)
        port = int(port_file.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json", timeout=10) as r:
            page = next(t for t in json.load(r) if t["type"] == "page")
        self.session = connect(page["webSocketDebuggerUrl"], max_size=None, open_timeout=10)
        self.ws = self.session.__enter__()
        self.next_id = 0

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv(timeout=30))
            if msg.get("id") == self.next_id:
                assert "error" not in msg, msg
                return dict(msg["result"])

    def text(self) -> str:
        script = "document.body ? document.body.innerText : ''"
        result = self.call("Runtime.evaluate", expression=script, returnByValue=True)
        return str(result["result"].get("value", ""))

    def element_text(self, element_id: str) -> str:
        script = f"(document.getElementById({json.dumps(element_id)}) || {{innerText: ''}}).innerText"
        result = self.call("Runtime.evaluate", expression=script, returnByValue=True)
        return str(result["result"].get("value", ""))

    def run(self, script: str) -> None:
        self.call("Runtime.evaluate", expression=script)

    def wait_for(self, words: str) -> str:
        """The page's text once it shows `words`."""
        deadline = time.monotonic() + WAIT
        while words not in (text := self.text()):
            assert time.monotonic() < deadline, f"the page did not show {words!r} within {WAIT} s: {text[-400:]}"
            time.sleep(0.05)
        return text

    def close(self) -> None:
        """Stop chromium and every helper process it forked (its own process group): a
        crashpad or utility child that outlives the browser keeps writing to the profile
        while the fixture deletes it."""
        self.session.__exit__(None, None, None)
        group = self.proc.pid
        signal_group(group, signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            signal_group(group, signal.SIGKILL)
            self.proc.wait(10)
        for sig in (0, signal.SIGKILL):  # wait for the children, then force them
            deadline = time.monotonic() + 10
            while signal_group(group, 0) and time.monotonic() < deadline:
                time.sleep(0.05)
            if not signal_group(group, sig):
                return


def signal_group(group: int, sig: int) -> bool:
    """Send `sig` to the process group; False once no process of it is left."""
    try:
        os.killpg(group, sig)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def browser() -> Iterator[DevTools]:
    # A child reaped late by a non-reaping PID 1 must not fail the test in teardown.
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        tools = DevTools(Path(profile))
        try:
            yield tools
        finally:
            tools.close()


def test_a_person_watching_sees_the_turn_a_bid_and_the_standings_then_replays_and_operates(
    browser: DevTools, tmp_path: Path
) -> None:
    arena = demo_arena(turns=2)
    with start_embedded(port=0, tps=10) as world, Connection("127.0.0.1", world.port) as conn:
        build_arena(conn, arena)
        journal = Journal(tmp_path / "journal.sqlite")
        table = Table(arena, journal, time.monotonic, seed=7, start_delay=1.0, hold=600.0, reveal_hold=1.0)
        supervisor = Supervisor(conn, [table])
        hub = WebHub([table])
        server = WebServer(hub, "127.0.0.1", 0, token="op-token", journal_path=tmp_path / "journal.sqlite").start()
        stop = threading.Event()

        def play() -> None:
            bots = []
            for booth, name in enumerate(["Aki", "Ben", "Chie", "Dan"]):
                bot = TableBot(table, world.players.join(name), booth, 7)
                bot.sit_down(by_walking=True)
                bots.append(bot)
            while not stop.is_set():  # on after the match too: the standings held, operators served
                supervisor.step()
                hub.cycle()
                for bot in bots:
                    bot.act()

        player = threading.Thread(target=play, daemon=True)
        try:
            browser.call("Page.enable")
            browser.call("Page.navigate", url=server.url + "?lang=en")
            player.start()
            seen: set[str] = set()
            deadline = time.monotonic() + WAIT
            while "standings" not in seen:
                assert time.monotonic() < deadline, f"the page showed only {seen} within {WAIT} s"
                text = browser.text()
                if "Waiting for " in text:
                    seen.add("turn")
                if "Bid: " in text and " says " in text:
                    seen.add("bid")
                if "Final standings" in text:
                    seen.add("standings")
                time.sleep(0.05)
            assert seen == {"turn", "bid", "standings"}
            assert "Aki" in text and "What happened" in text and "calls BLUFF" in text
            SHOTS.mkdir(parents=True, exist_ok=True)
            shot = browser.call("Page.captureScreenshot", format="png")["data"]
            (SHOTS / "web_spectator.png").write_bytes(base64.b64decode(shot))
            browser.call("Page.navigate", url=server.url + "?lang=ja")  # the same table in Japanese
            text = browser.wait_for("最終順位")
            assert "経過" in text and "ブラフ" in text
            shot = browser.call("Page.captureScreenshot", format="png")["data"]
            (SHOTS / "web_spectator_ja.png").write_bytes(base64.b64decode(shot))
            browser.call("Page.navigate", url=server.url + "?lang=en")
            browser.wait_for("Final standings")
            # replay: load the journal's matches and step through the first moves
            browser.run("document.getElementById('replay-load').click()")
            browser.wait_for(" 0/")
            for _ in range(7):
                browser.run("document.getElementById('replay-next').click()")
            replayed = browser.wait_for(" 7/")
            assert "predicts first." in replayed and "Turn 1:" in replayed
            assert "predicts first." in browser.element_text("replay-view")  # the replay's own log
            # the operator console: sign in with the token, pause the table
            browser.run("document.getElementById('token').value = 'op-token';"
                        "document.getElementById('auth').click()")
            browser.wait_for("Reset table")
            browser.run("[...document.querySelectorAll('#ops button')].find(b => b.textContent === 'Pause').click()")
            paused = browser.wait_for("Paused by the operator")
            assert ": paused" in paused  # the console's log of operator actions
        finally:
            stop.set()
            if player.is_alive():
                player.join(WAIT)  # before the world goes away under it
            server.stop()
            journal.close()


@pytest.mark.parametrize(
    ("game", "words"),
    [("dice_bluff", (" says ", " × ", " dice")), ("braff", ("Pot ", " chips"))],
)
def test_a_sign_table_shows_its_public_board_in_the_page(
    browser: DevTools, tmp_path: Path, game: str, words: tuple[str, ...]
) -> None:
    """The sign-table games' board (the bid, the pot, each booth's dice or chips) in the page."""
    arena = dataclasses.replace(load_arena(CONFIG_DIR / "arenas" / f"{game}.yaml"), locale="en")
    with start_embedded(port=0, tps=0) as world, Connection("127.0.0.1", world.port) as conn:
        build_arena(conn, arena)
        table = Table(arena, Journal(tmp_path / "journal.sqlite"), time.monotonic, seed=3, start_delay=0.5)
        supervisor = Supervisor(conn, [table])
        hub = WebHub([table])
        server = WebServer(hub, "127.0.0.1", 0, token="op-token").start()
        stop = threading.Event()

        def play() -> None:
            names = ["Aki", "Ben", "Chie"]
            bots = [SeatBot(table, world.players.join(name), booth, 3) for booth, name in enumerate(names)]
            for bot in bots:
                bot.sit_down(by_walking=False)
            while not stop.is_set():
                supervisor.step()
                hub.cycle()
                for bot in bots:
                    bot.act()
                time.sleep(0.02)

        player = threading.Thread(target=play, daemon=True)
        try:
            browser.call("Page.enable")
            browser.call("Page.navigate", url=server.url + "?lang=en")
            player.start()
            deadline = time.monotonic() + WAIT
            while not all(w in (text := browser.text()) for w in words):
                assert time.monotonic() < deadline, f"the page did not show {words} within {WAIT} s: {text[-400:]}"
                time.sleep(0.05)
        finally:
            stop.set()
            if player.is_alive():
                player.join(WAIT)
            server.stop()
