"""Many tables over one connection: one round trip per tick for all of them.

Each cycle sends a single write holding (1) every table's pending world changes, chat,
private messages and item gives, then (2) the polls: player list, block hits, chat per
player, player positions, and the wall reads tables asked for. The server answers all of it
in one tick, so a click is seen within a tick and its effect goes out with the next write:
about two ticks from click to world change, whatever the number of tables.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

from mcbridge.tables.reconcile import Reconciler
from mcbridge.tables.wool_table import ReadKey, WoolBluffTable
from mcbridge.world.blocks import Block
from mcbridge.world.connection import Connection
from mcbridge.world.errors import CommandFailed, WorldError
from mcbridge.world.events import PlayerRegistry
from mcbridge.world.geometry import Pos
from mcbridge.world.pipeline import Reply

log = logging.getLogger(__name__)

#: One fence per this many setters: a failed write is still named within 16 commands,
#: at 1/16 of the extra lines a fence per setter would cost.
FENCE_EVERY = 16


@dataclass
class CycleStats:
    commands: int = 0
    hits: int = 0
    chats: int = 0


class Supervisor:
    def __init__(self, conn: Connection, tables: list[WoolBluffTable]) -> None:
        self.conn = conn
        self.tables = tables
        self.reconcilers = [Reconciler(t.arena.frame) for t in tables]
        #: each arena's bounds in world coordinates: only players inside concern its table
        self.areas = [t.arena.frame.cuboid_to_world(t.arena.bounds) for t in tables]
        self.registry = PlayerRegistry()
        self.online: dict[str, Pos] | None = None  # block positions last passed to the tables
        self.cycles = 0
        conn.on_reconnect.append(lambda _conn: self.forget())

    def forget(self) -> None:
        """Re-render everything on the next write (after a reconnect the world may be stale)."""
        for r in self.reconcilers:
            r.forget()

    def step(self) -> CycleStats:
        stats = CycleStats()
        batch = self.conn.batch(fence_every=FENCE_EVERY)
        for table, rec in zip(self.tables, self.reconcilers, strict=True):
            out = table.outbox.drain()
            rec.forget_cells(out.refresh)
            scene = table.scene()
            stats.commands += rec.write(batch, scene.blocks, scene.signs)
            for line in out.chat:
                batch.post_chat(line)
            for player, text in out.private:
                batch.tell(player, text)
            for player, item_id, data, count in out.gives:
                batch.give(player, (item_id, data), count)
            for cell in out.clears:
                batch.set_block(table.arena.frame.to_world(cell), Block(0))

        ids = batch.get_player_ids()
        hits = batch.poll_block_hits()
        chats = [batch.poll_chat_posts(i) for i in self.registry.chat_sources()]
        positions = {name: batch.entity_pos(eid) for name, eid in self.registry.players().items()}
        reads: list[dict[ReadKey, list[Reply[Block]]]] = []
        for table in self.tables:
            frame = table.arena.frame
            reads.append(
                {
                    key: [batch.get_block_with_data(frame.to_world(p)) for p in cells]
                    for key, cells in table.reads_wanted().items()
                }
            )
        try:
            batch.flush()
        except CommandFailed as exc:
            log.warning("a world write failed: %s", exc)
        self.cycles += 1
        new = self.registry.update_ids(ids.result() if ids.ok else [])
        if new:
            names = self.conn.batch()
            answers = self.registry.ask_names(names, new)
            try:
                names.flush()
            except WorldError as exc:
                log.warning("could not read player names: %s", exc)
            self.registry.learn(answers)
        self._dispatch(hits, chats, positions, reads, stats)
        for table in self.tables:
            table.tick()
        return stats

    def _dispatch(self, hits, chats, positions, reads, stats: CycleStats) -> None:
        online: dict[str, Pos] = {}
        for name, reply in positions.items():
            if reply.ok:
                online[name] = Pos.of(reply.result())
        if online != self.online:  # nobody moved a block or came or went: nothing to tell the tables
            self.online = online
            for table, area in zip(self.tables, self.areas, strict=True):
                frame = table.arena.frame
                inside = {n: frame.to_local(p) for n, p in online.items() if area.contains(p)}
                table.on_presence(online.keys(), inside)
        for event in hits.result() if hits.ok else []:
            name = self.registry.name_of(event.entityId)
            if name is None:
                continue
            stats.hits += 1
            for table in self.tables:
                if table.on_hit(table.arena.frame.to_local(Pos.of(event.pos)), name):
                    break
        for reply in chats:
            for post in reply.result() if reply.ok else []:
                name = self.registry.name_of(post.entityId)
                if name is None:
                    continue
                stats.chats += 1
                for table in self.tables:
                    table.on_chat(name, post.message)
        for table, wanted in zip(self.tables, reads, strict=True):
            if wanted:
                table.on_reads({key: _blocks(replies) for key, replies in wanted.items()})

    def run(self, until: Callable[[], bool], max_seconds: float, min_cycle: float = 0.0) -> None:
        """Cycle until `until()` is true or the time is up (every wait is bounded)."""
        deadline = time.monotonic() + max_seconds
        while not until():
            if time.monotonic() > deadline:
                raise TimeoutError(f"tables did not finish within {max_seconds} s")
            started = time.monotonic()
            try:
                self.step()
            except WorldError as exc:
                log.warning("world connection trouble (%s); retrying", exc)
                self.forget()
                time.sleep(0.2)
            spare = min_cycle - (time.monotonic() - started)
            if spare > 0:
                time.sleep(spare)


def _blocks(replies: list[Reply[Block]]) -> list[Block]:
    """Read results; a failed read counts as air (the table then reports it, never guesses)."""
    return [r.result() if r.ok else Block(0) for r in replies]
