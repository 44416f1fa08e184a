"""Block hits and chat, polled once per tick in one write, dispatched to listeners.

A RaspberryJuice query costs a server tick, so polling hits, then chat, then players would
cost three ticks per cycle. `EventPoller.poll` puts them all in one write: the player list,
the block hits, and one chat poll *per known player* (`entity.events.chat.posts(id)`).
Per-player chat polls cost nothing extra (same write, same tick) and make chat records
unforgeable: a player who types `hi|57,bluff` cannot speak for entity 57, because every
genuine record in player A's reply carries A's id (see `commands.parse_chats`).

`PlayerRegistry` maps entity ids to names (ids change when a player reconnects) using
guarded `entity.getName` queries, which cannot hang on an unknown id. A player is the pair
(entity id, exact name): names are never folded, and a name that is not a valid Java name
("Aki ", "Aki\u0000", "Aki\u202e", 17 characters) is refused, so its clicks and chat reach
no table and nobody can pass for a seated player. Every poll also re-reads the names of
the ids it already knows, in the same write, so an id reused by someone else (a world
restart) is never taken for its old owner.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeVar

from mcpi.event import BlockEvent, ChatEvent
from mcpi.vec3 import Vec3

from mcbridge.world import sanitize
from mcbridge.world.aconnection import AsyncConnection
from mcbridge.world.commands import Batch, PosLike
from mcbridge.world.connection import Connection
from mcbridge.world.geometry import Cuboid, Pos
from mcbridge.world.pipeline import Reply

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Hit:
    """A sword right-click on a block (`face`: 0 down, 1 up, 2 north, 3 south, 4 west, 5 east)."""

    pos: Pos
    face: int
    entity_id: int
    player: str | None


@dataclass(frozen=True, slots=True)
class Chat:
    entity_id: int
    player: str | None
    text: str


@dataclass(slots=True)
class Polled:
    """What one poll delivered, in server order."""

    hits: list[Hit] = field(default_factory=list)
    chats: list[Chat] = field(default_factory=list)


class PlayerRegistry:
    """Online players: entity id <-> name, positions on demand (one batch for all)."""

    def __init__(self) -> None:
        self._names: dict[int, str] = {}
        self._ids: dict[str, int] = {}
        self._departed: dict[int, str] = {}
        self._refused: set[int] = set()

    def name_of(self, entity_id: int) -> str | None:
        return self._names.get(entity_id) or self._departed.get(entity_id)

    def id_of(self, name: str) -> int | None:
        return self._ids.get(name)

    def players(self) -> dict[str, int]:
        """Name -> entity id of every known online player."""
        return dict(self._ids)

    def chat_sources(self) -> list[int]:
        """Ids whose chat queues to poll: online players, and those who just left."""
        return [*self._names, *self._departed]

    def update_ids(self, online: Iterable[int]) -> list[int]:
        """Take the server's id list; return ids whose names are still unknown.

        Players who left are kept one more poll, so their last chat lines and hits still
        get a name.
        """
        online = set(online)
        self._departed = {i: n for i, n in self._names.items() if i not in online}
        for entity_id, name in self._departed.items():
            del self._names[entity_id]
            if self._ids.get(name) == entity_id:
                del self._ids[name]
        self._refused &= online
        return sorted(i for i in online if i not in self._names and i not in self._refused)

    def ask_names(self, batch: Batch, entity_ids: Iterable[int]) -> list[tuple[int, Reply[str]]]:
        return [(i, batch.entity_name(i)) for i in entity_ids]

    def learn(self, answers: Iterable[tuple[int, Reply[str]]]) -> None:
        """Take `entity.getName` answers; refuse (log, ignore) names no vanilla server allows."""
        for entity_id, reply in answers:
            if not reply.ok:
                continue
            name = reply.result()
            if not sanitize.is_java_name(name):
                if entity_id not in self._refused:
                    log.warning(
                        "ignoring entity %d: its name %r is not a Java player name (3-16 of "
                        "A-Z, a-z, 0-9, _); nothing it does reaches a table",
                        entity_id,
                        name[:40],
                    )
                self._refused.add(entity_id)
                self._forget(entity_id)
                continue
            self._refused.discard(entity_id)
            old = self._names.get(entity_id)
            if old is not None and old != name:
                log.info("entity %d is now %s (was %s)", entity_id, name, old)
                self._forget(entity_id)
            self._names[entity_id] = name
            self._ids[name] = entity_id  # a reconnected player's new id wins

    def _forget(self, entity_id: int) -> None:
        name = self._names.pop(entity_id, None)
        if name is not None and self._ids.get(name) == entity_id:
            del self._ids[name]

    def known_ids(self) -> list[int]:
        return list(self._names)

    def refresh(self, conn: Connection) -> None:
        """Re-read the player list (two round trips only when someone new joined)."""
        batch = conn.batch()
        ids = batch.get_player_ids()
        batch.flush()
        new = self.update_ids(ids.result() if ids.ok else [])
        if new:
            batch = conn.batch()
            answers = self.ask_names(batch, new)
            batch.flush()
            self.learn(answers)

    async def arefresh(self, conn: AsyncConnection) -> None:
        batch = conn.batch()
        ids = batch.get_player_ids()
        await batch.flush()
        new = self.update_ids(ids.result() if ids.ok else [])
        if new:
            batch = conn.batch()
            answers = self.ask_names(batch, new)
            await batch.flush()
            self.learn(answers)

    def _ask_positions(self, batch: Batch, names: Iterable[str] | None) -> dict[str, Reply[Vec3] | None]:
        wanted = list(self._ids) if names is None else list(names)
        return {n: (batch.entity_pos(self._ids[n]) if n in self._ids else None) for n in wanted}

    @staticmethod
    def _positions(asked: dict[str, Reply[Vec3] | None]) -> dict[str, Vec3 | None]:
        return {n: (r.result() if r is not None and r.ok else None) for n, r in asked.items()}

    def positions(self, conn: Connection, names: Iterable[str] | None = None) -> dict[str, Vec3 | None]:
        """Positions of these players (default: all known) in one round trip; None if gone."""
        batch = conn.batch()
        asked = self._ask_positions(batch, names)
        batch.flush()
        return self._positions(asked)

    async def apositions(self, conn: AsyncConnection, names: Iterable[str] | None = None) -> dict[str, Vec3 | None]:
        batch = conn.batch()
        asked = self._ask_positions(batch, names)
        await batch.flush()
        return self._positions(asked)


HitListener = Callable[[Hit], None]
ChatListener = Callable[[Chat], None]


@dataclass(slots=True)
class _Pending:
    ids: Reply[list[int]]
    hits: Reply[list[BlockEvent]]
    chats: list[Reply[list[ChatEvent]]]
    names: list[tuple[int, Reply[str]]]


class EventPoller:
    """One poll per tick for hits and chat; listeners registered by position or region.

    Use one poller per connection, from one thread or task. A listener that raises is
    logged and does not stop the others.
    """

    def __init__(self, registry: PlayerRegistry | None = None) -> None:
        self.registry = registry if registry is not None else PlayerRegistry()
        self._at: dict[Pos, list[HitListener]] = {}
        self._regions: list[tuple[Cuboid, HitListener]] = []
        self._any_hit: list[HitListener] = []
        self._chat: list[ChatListener] = []

    # ------------------------------------------------------------------ listeners
    def on_hit(
        self,
        listener: HitListener,
        *,
        at: PosLike | Iterable[PosLike] | None = None,
        region: Cuboid | None = None,
    ) -> Callable[[], None]:
        """Call `listener` for hits on `at` (one or several positions), inside `region`, or
        anywhere when both are None. Returns a function that unregisters it."""
        if at is not None and region is not None:
            raise ValueError("give `at` or `region`, not both.")
        if region is not None:
            entry = (region, listener)
            self._regions.append(entry)
            return lambda: self._regions.remove(entry)
        if at is None:
            self._any_hit.append(listener)
            return lambda: self._any_hit.remove(listener)
        positions = _positions(at)
        for p in positions:
            self._at.setdefault(p, []).append(listener)

        def remove() -> None:
            for p in positions:
                self._at[p].remove(listener)
                if not self._at[p]:
                    del self._at[p]

        return remove

    def on_chat(self, listener: ChatListener) -> Callable[[], None]:
        self._chat.append(listener)
        return lambda: self._chat.remove(listener)

    # ------------------------------------------------------------------ polling
    def poll(self, conn: Connection) -> Polled:
        """One write (player ids, hits, per-player chat), dispatch, return what came."""
        batch = conn.batch()
        pending = self._ask(batch)
        batch.flush()
        self.registry.learn(pending.names)
        new = self.registry.update_ids(pending.ids.result() if pending.ids.ok else [])
        if new:
            batch = conn.batch()
            answers = self.registry.ask_names(batch, new)
            batch.flush()
            self.registry.learn(answers)
        return self._dispatch(pending)

    async def apoll(self, conn: AsyncConnection) -> Polled:
        batch = conn.batch()
        pending = self._ask(batch)
        await batch.flush()
        self.registry.learn(pending.names)
        new = self.registry.update_ids(pending.ids.result() if pending.ids.ok else [])
        if new:
            batch = conn.batch()
            answers = self.registry.ask_names(batch, new)
            await batch.flush()
            self.registry.learn(answers)
        return self._dispatch(pending)

    def _ask(self, batch: Batch) -> _Pending:
        return _Pending(
            ids=batch.get_player_ids(),
            hits=batch.poll_block_hits(),
            chats=[batch.poll_chat_posts(i) for i in self.registry.chat_sources()],
            names=self.registry.ask_names(batch, self.registry.known_ids()),
        )

    def _dispatch(self, pending: _Pending) -> Polled:
        polled = Polled()
        name_of = self.registry.name_of
        for event in _results(pending.hits):
            pos = Pos.of(event.pos)
            polled.hits.append(Hit(pos, event.face, event.entityId, name_of(event.entityId)))
        for reply in pending.chats:
            for post in _results(reply):
                polled.chats.append(Chat(post.entityId, name_of(post.entityId), post.message))
        for hit in polled.hits:
            listeners = [
                *self._at.get(hit.pos, ()),
                *(cb for region, cb in self._regions if region.contains(hit.pos)),
                *self._any_hit,
            ]
            for hit_listener in listeners:
                _call(hit_listener, hit)
        for chat in polled.chats:
            for chat_listener in list(self._chat):
                _call(chat_listener, chat)
        return polled


def _results(reply: Reply[list[T]]) -> list[T]:
    if reply.ok:
        return reply.result()
    log.warning("event poll failed: %s", reply.error)
    return []


def _positions(at: PosLike | Iterable[PosLike]) -> list[Pos]:
    if isinstance(at, Pos | Vec3):
        return [Pos.of(at)]
    items = list(at)
    if len(items) == 3 and all(isinstance(v, int | float) for v in items):
        return [Pos.of(items)]
    return [Pos.of(p) for p in items]


def _call(listener: Callable[[T], None], event: T) -> None:
    try:
        listener(event)
    except Exception:
        log.exception("event listener %r failed on %r", listener, event)
