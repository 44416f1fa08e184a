"""The web view: static page and `/ws` JSON messages from one `websockets` server.

Runs its own asyncio loop in a thread beside the tables. Spectators get every table's
public state as it changes (`table` messages, encoded once per language by the hub and
written to every socket without waiting); a socket whose unsent data passes
`SLOW_CLIENT_BYTES` is closed, so a stalled client costs the table nothing. Operators
send `auth` with the token first; without it no `op` is accepted. Journal reads (`matches`,
`replay`) are rate-limited per connection (`TokenBucket`) and at most `max_replays` run at
once for everyone: over the limit a request gets an error that says when to try again.

Client -> server: {"type": "hello", "lang": "en"|"ja"}, {"type": "auth", "token"},
{"type": "op", "action", "table", "booth"?}, {"type": "matches"}, {"type": "replay", "match"}.
Server -> client: hello, table, texts, matches, replay, auth, op_done, oplog, error {code, reason}.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import secrets
import socket
import threading
import time
from collections.abc import Callable
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State

from mcbridge.i18n import LANGUAGES, locale
from mcbridge.web.hub import OPERATIONS, Command, WebHub
from mcbridge.web.ratelimit import TokenBucket

log = logging.getLogger(__name__)

STATIC = Path(__file__).parent / "static"
HTML, JS, CSS = "text/html; charset=utf-8", "text/javascript; charset=utf-8", "text/css; charset=utf-8"
FILES = {"/": ("index.html", HTML), "/index.html": ("index.html", HTML), "/app.js": ("app.js", JS),
         "/style.css": ("style.css", CSS)}
#: A client message larger than this is refused (websockets closes with 1009).
MAX_MESSAGE = 4096
#: Unsent bytes after which a client counts as stalled and is dropped...
SLOW_CLIENT_BYTES = 256 * 1024
#: ... or seconds its unsent data has not shrunk to nothing (a reader that stopped).
STALL_SECONDS = 5.0
#: The kernel's send buffer per spectator: small, so a client that stops reading shows in
#: our own buffer within seconds instead of hiding megabytes in the kernel.
SEND_BUFFER = 64 * 1024


#: The most leaderboard rows one request may ask for.
LEADERBOARD_MAX = 50
#: Journal reads per connection: this many at once, then one every 1 / REPLAY_RATE seconds.
#: [decided here] a person stepping through replays asks a few a minute; a script, far more.
REPLAY_BURST = 5
REPLAY_RATE = 0.5
#: Replays rebuilt at the same time for all clients together (each takes a worker thread).
MAX_REPLAYS = 2


def error(code: str, reason: str) -> str:
    return json.dumps({"type": "error", "code": code, "reason": reason})


class Client:
    def __init__(self, ws: ServerConnection, reads: TokenBucket) -> None:
        self.ws = ws
        self.lang = "en"
        self.operator = False
        self.behind_since: float | None = None
        self.reads = reads  # its journal reads (matches, replay)
        self.limited = False  # refused since its last granted read (logged once, not per request)


class WebServer:
    def __init__(self, hub: WebHub, host: str = "127.0.0.1", port: int = 8080, token: str | None = None,
                 journal_path: Path | None = None, stats_url: str | None = None,
                 replay_burst: int = REPLAY_BURST, replay_rate: float = REPLAY_RATE,
                 max_replays: int = MAX_REPLAYS) -> None:
        self.hub = hub
        self.replay_burst, self.replay_rate, self.max_replays = replay_burst, replay_rate, max_replays
        self.replays_running = 0  # on the loop's thread only
        #: the stats store the tables record into (`--db`); None: no leaderboards here
        self.stats_url = stats_url
        self.host, self.port = host, port
        self.token = token or secrets.token_urlsafe(18)
        self.journal_path = journal_path
        self.clients: set[Client] = set()
        self.dropped = 0
        self.loop: asyncio.AbstractEventLoop | None = None
        self._server: Server | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        #: the bench's probe: (table, world change time, CPU seconds of the fan-out)
        self.on_sent: Callable[[str, float, float], None] | None = None
        self.texts = {lang: _page_texts(lang) for lang in LANGUAGES}

    # -- lifecycle ------------------------------------------------------------------------
    def start(self, timeout: float = 10.0) -> WebServer:
        self._thread = threading.Thread(target=lambda: asyncio.run(self._main()), name="mcbridge-web", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError(f"the web server did not start within {timeout} s")
        if self._server is None:
            raise OSError(f"the web server could not listen on {self.host}:{self.port}")
        return self

    def stop(self, timeout: float = 10.0) -> None:
        if self.loop is not None and self._stop is not None:
            self.loop.call_soon_threadsafe(self._stop.set)
        if self._thread is not None:
            self._thread.join(timeout)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    async def _main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        try:
            server = await serve(self._handle, self.host, self.port, process_request=self._http,
                                 max_size=MAX_MESSAGE, max_queue=4, ping_interval=20, ping_timeout=20,
                                 compression=None)  # [decided here] one encoding for all, not a deflate each
        except OSError:
            log.exception("web: cannot listen on %s:%s", self.host, self.port)
            self._ready.set()
            return
        self._server = server
        self.port = server.sockets[0].getsockname()[1]
        self.hub.sink = self._from_tables
        self._ready.set()
        async with server:
            await self._stop.wait()
        self.hub.sink = None

    # -- HTTP -----------------------------------------------------------------------------
    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/ws":
            return None  # on to the websocket handshake
        if path in FILES:
            name, ctype = FILES[path]
            body = (STATIC / name).read_bytes()
            headers = Headers({"Content-Type": ctype, "Content-Length": str(len(body)),
                               "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})
            return Response(HTTPStatus.OK, "OK", headers, body)
        return connection.respond(HTTPStatus.NOT_FOUND, f"no page at {path}; the view is at /\n")

    # -- pushing table states -------------------------------------------------------------
    def _from_tables(self, table: str, messages: dict[str, bytes], at: float) -> None:
        """Called on the tables' thread: hop onto the loop, never wait there."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self._broadcast, table, messages, at)

    def _broadcast(self, table: str, messages: dict[str, bytes], at: float) -> None:
        # one frame per language for every spectator: an unmasked, uncompressed server frame
        # is the same bytes on every connection (RFC 6455 §5.2), so it is built once
        cpu = time.thread_time()
        frames = {lang: Frame(Opcode.TEXT, data).serialize(mask=False) for lang, data in messages.items()}
        for client in list(self.clients):
            self._send(client, frames[client.lang], framed=True)
        if self.on_sent is not None:
            self.on_sent(table, at, time.thread_time() - cpu)

    def _send(self, client: Client, message: bytes | str, framed: bool = False) -> None:
        """Write without waiting; a client that does not read is dropped, not waited for."""
        transport = client.ws.transport
        if transport is None or transport.is_closing():
            return
        unsent = transport.get_write_buffer_size()
        now = asyncio.get_running_loop().time()
        if unsent == 0:
            client.behind_since = None
        elif client.behind_since is None:
            client.behind_since = now
        stalled = client.behind_since is not None and now - client.behind_since > STALL_SECONDS
        if unsent > SLOW_CLIENT_BYTES or stalled:
            self.clients.discard(client)
            self.dropped += 1
            log.info("web: dropped a spectator that stopped reading (%d bytes unsent)", unsent)
            transport.abort()  # a stalled reader would never take a closing handshake either
            return
        try:
            if framed and client.ws.protocol.state is State.OPEN:
                transport.write(message if isinstance(message, bytes) else message.encode())
            elif not framed:
                client.ws.protocol.send_text(message if isinstance(message, bytes) else message.encode())
                client.ws.send_data()
        except Exception:  # closed under us: it goes with its handler
            self.clients.discard(client)

    # -- one connection -------------------------------------------------------------------
    async def _handle(self, ws: ServerConnection) -> None:
        client = Client(ws, TokenBucket(self.replay_burst, self.replay_rate))
        sock = ws.transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        self.clients.add(client)
        try:
            await ws.send(json.dumps({"type": "hello", "tables": sorted(self.hub.tables), "languages": LANGUAGES}))
            self._welcome(client)
            async for raw in ws:
                if isinstance(raw, bytes):
                    await ws.close(1003, "binary frames are not accepted: send JSON text")
                    break
                await self._message(client, raw)
        except ConnectionClosed:
            pass
        finally:
            self.clients.discard(client)

    def _welcome(self, client: Client) -> None:
        """The texts of the page and every table as it stands, in the client's language."""
        self._send(client, json.dumps({"type": "texts", "lang": client.lang, "texts": self.texts[client.lang]},
                                      ensure_ascii=False))
        for name, messages in list(self.hub.latest.items()):
            if name in self.hub.maps:
                self._send(client, self.hub.maps[name])
            self._send(client, messages[client.lang])
            history = json.dumps({"type": "history", "table": name, "log": self.hub.history(name, client.lang)},
                                 ensure_ascii=False)
            self._send(client, history)

    async def _message(self, client: Client, raw: str) -> None:
        try:
            msg = json.loads(raw)
        except ValueError as exc:
            await client.ws.send(error("bad_json", f"not JSON: {exc}"))
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            await client.ws.send(error("no_type", "every message is a JSON object with a \"type\""))
            return
        kind = msg["type"]
        if kind == "hello":
            lang = msg.get("lang")
            if lang not in LANGUAGES:
                await client.ws.send(error("bad_lang", f"lang is one of {', '.join(LANGUAGES)}"))
                return
            client.lang = lang
            self._welcome(client)
        elif kind == "auth":
            token = msg.get("token")
            if not isinstance(token, str) or not hmac.compare_digest(token.encode(), self.token.encode()):
                log.warning("web: a wrong operator token from %s", client.ws.remote_address)
                await client.ws.send(error("bad_token", "wrong or missing operator token"))
                await client.ws.close(1008, "wrong operator token")
                return
            client.operator = True
            await client.ws.send(json.dumps({"type": "auth", "ok": True, "operations": list(OPERATIONS),
                                             "oplog": self.hub.oplog[-50:]}))
        elif kind == "op":
            await self._operate(client, msg)
        elif kind == "matches":
            if await self._may_read(client):
                await client.ws.send(json.dumps({"type": "matches", "matches": await self._replays().matches()}))
        elif kind == "replay":
            if await self._may_read(client):
                await self._replay(client, msg)
        elif kind == "leaderboard":
            await self._leaderboard(client, msg)
        else:
            await client.ws.send(error("unknown_type", f"unknown message type {kind[:40]!r}; "
                                       "known: hello, auth, op, matches, replay, leaderboard"))

    async def _leaderboard(self, client: Client, msg: dict[str, Any]) -> None:
        """The game's top players from the stats store, the same rows as `mcbridge stats top`.
        Read on a worker thread: a slow store never holds up the other spectators."""
        from mcbridge import games

        game, limit = msg.get("game"), msg.get("limit", 10)
        if game not in games.GAMES:
            await client.ws.send(error("bad_game", f"game is one of {', '.join(games.GAMES)}"))
            return
        if type(limit) is not int or not 1 <= limit <= LEADERBOARD_MAX:
            await client.ws.send(error("bad_limit", f"limit is a whole number from 1 to {LEADERBOARD_MAX}"))
            return
        if self.stats_url is None:
            await client.ws.send(error("no_stats", "this server records no stats"))
            return
        try:
            rows = await asyncio.get_running_loop().run_in_executor(None, self._top, game, limit)
        except Exception as exc:  # the store is down or unreadable: say so, keep serving
            log.warning("web: leaderboard unavailable: %s", exc)
            await client.ws.send(error("stats_unavailable", "the stats store does not answer now; try again later"))
            return
        await client.ws.send(json.dumps({"type": "leaderboard", "game": game, "rows": rows}, ensure_ascii=False))

    def _top(self, game: str, limit: int) -> list[dict[str, Any]]:
        from mcbridge.stats.store import open_store

        assert self.stats_url is not None
        store = open_store(self.stats_url)
        try:
            return [
                {"rank": r.rank, "player": r.player, "rating": round(r.ordinal, 2),
                 "matches": r.matches, "wins": r.wins}
                for r in store.top(game, limit)
            ]
        finally:
            store.close()

    async def _operate(self, client: Client, msg: dict[str, Any]) -> None:
        if not client.operator:
            await client.ws.send(error("not_authorised", "operator actions need {\"type\": \"auth\", \"token\"} first"))
            await client.ws.close(1008, "no operator token")
            return
        action, table, booth = msg.get("action"), msg.get("table"), msg.get("booth")
        if action not in OPERATIONS:
            await client.ws.send(error("unknown_action", f"action is one of {', '.join(OPERATIONS)}"))
            return
        if table not in self.hub.tables:
            await client.ws.send(error("unknown_table", f"table is one of {', '.join(sorted(self.hub.tables))}"))
            return
        if OPERATIONS[action] and (not isinstance(booth, int) or isinstance(booth, bool)):
            await client.ws.send(error("bad_booth", "unseat needs \"booth\": a booth number from 1"))
            return
        loop = asyncio.get_running_loop()
        ws = client.ws

        def reply(result: dict[str, Any]) -> None:
            loop.call_soon_threadsafe(self._send, client, json.dumps(result))

        who = f"{ws.remote_address[0]}:{ws.remote_address[1]}" if ws.remote_address else "?"
        self.hub.submit(Command(action, table, booth - 1 if isinstance(booth, int) else None, who, reply))

    def _replays(self) -> Any:
        from mcbridge.web.replay import Replays

        return Replays(self.journal_path)

    async def _may_read(self, client: Client) -> bool:
        """A journal read within this client's rate, or a refusal that says when to ask again."""
        if client.reads.take():
            client.limited = False
            return True
        wait = client.reads.wait()
        if not client.limited:
            client.limited = True
            log.info("web: %s asks for journal reads too often; refusing until its bucket refills",
                     client.ws.remote_address)
        await client.ws.send(error("rate_limited", f"too many replay requests: {self.replay_burst} at once, then "
                                   f"one every {1 / self.replay_rate:g} s; try again in {wait} s"))
        return False

    async def _replay(self, client: Client, msg: dict[str, Any]) -> None:
        match = msg.get("match")
        if not isinstance(match, int) or isinstance(match, bool):
            await client.ws.send(error("bad_match", "replay needs \"match\": a match id (see \"matches\")"))
            return
        if self.replays_running >= self.max_replays:
            await client.ws.send(error("replay_busy", f"{self.replays_running} replays are being rebuilt for "
                                       "others; try again in a few seconds"))
            return
        self.replays_running += 1
        try:
            steps = await self._replays().steps(match, client.lang)
        except KeyError:
            await client.ws.send(error("unknown_match", f"no match {match} in the journal"))
            return
        finally:
            self.replays_running -= 1
        await client.ws.send(json.dumps({"type": "replay", "match": match, "steps": steps}, ensure_ascii=False))


def _page_texts(lang: str) -> dict[str, str]:
    text = locale(lang)
    """The page's own words (`web.*`) and every game's phase names (`<game>.phase.*`)."""
    return {key.removeprefix("web."): value for key, value in text.texts.items() if key.startswith("web.")} | {
        key: value for key, value in text.texts.items() if ".phase." in key}
