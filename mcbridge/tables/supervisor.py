"""Many tables over one connection: one round trip per tick for all of them.

Each cycle sends a single write holding (1) every table's pending world changes, chat,
private messages and item gives, then (2) the polls: player list, block hits, chat (one
poll for everyone where the server escapes reply fields, else one per player), player
positions, and the wall reads tables asked for. The server answers all of it
in one tick, so a click is seen within a tick and its effect goes out with the next write:
about two ticks from click to world change, whatever the number of tables.

The supervisor is sans-I/O, the way `websockets` splits protocol and I/O:
`SupervisorProtocol` plans a batch for this cycle (`start_cycle`) and absorbs its replies
(`absorb`, which may ask for one more round: names of players it has not met); it never
touches a socket or a clock. `Supervisor` (sync `Connection`) and `AsyncSupervisor`
(`AsyncConnection`) are the shells that send the batches and loop.

A click's path never waits behind bulk work (issue 12 item 7): while a batch is in flight
the shells run the protocol's `background` (the tables' clocks and the writes they cause),
and in each write the tables clicked go first and always, other input within an allowance
and the rest within a bulk allowance (`mcbridge.tables.write_budget`). In a busy cycle the
chat lines past `CHATS_ON_PATH` and the input past its allowance are taken by `background`
and answered one write later: the write that carries the clicks and the next polls never
misses its tick for them.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable, Sequence
from concurrent import futures
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import dataclass, field

from mcpi.vec3 import Vec3

from mcbridge.tables.area_index import AreaIndex
from mcbridge.tables.kit import ReadKey, Scene
from mcbridge.tables.pause import JOURNAL, WORLD, Pauses
from mcbridge.tables.reconcile import Reconciler
from mcbridge.tables.shell import PROBE_EVERY, ShellWatch, write_shell
from mcbridge.tables.table import Outbox, Table
from mcbridge.tables.write_budget import WriteBudget
from mcbridge.world.aconnection import AsyncConnection
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch, BlockChange
from mcbridge.world.connection import Connection
from mcbridge.world.errors import CommandFailed, WorldError
from mcbridge.world.events import BlockEvent, ChatEvent, PlayerRegistry
from mcbridge.world.geometry import Pos
from mcbridge.world.pipeline import Reply
from mcbridge.world.reads import BLOCKS_WITH_DATA, CellRead, read_cells

log = logging.getLogger(__name__)

#: One fence per this many setters: a failed write is still named within 16 commands,
#: at 1/16 of the extra lines a fence per setter would cost.
FENCE_EVERY = 16
#: Seated players are located once per this many cycles (half a second at 20 TPS), for the booth
#: guard (someone seated elsewhere inside an occupied booth); those not seated, every cycle.
GUARD_EVERY = 10
#: Seconds at most the sync shell waits for its batch to be written before the tables'
#: background work (a reconnect may take longer; the work then goes on meanwhile).
WRITE_WAIT = 1.0
#: The capability of a server whose reply fields are escaped (server/README.md)
ESCAPED = "escaped"
#: Chat lines taken on a click's path per cycle, where the shell overlaps the wait
#: (`SupervisorProtocol.background`); the rest are taken there, a moment later, and answered
#: with the next write. Why: at 50 busy tables 40-80 commands arrive in one cycle, 0.15 ms
#: each to apply, journal and phrase, and taking them all before the write made it miss
#: the tick (and with it every click it carried). [decided here] 16 is about 3 ms.
CHATS_ON_PATH = 16


@dataclass
class CycleStats:
    commands: int = 0
    hits: int = 0
    chats: int = 0
    deferred: int = 0  # tables whose changed output waits for a later write (`write_budget`)
    carried: int = 0  # tables with input past the input allowance: written right behind
    urgent: int = 0  # of `commands`, those of tables with input this cycle (or carried over)


@dataclass
class _Polls:
    """The reply slots of one cycle's polls."""

    ids: Reply[list[int]]
    hits: Reply[list[BlockEvent]]
    chats: list[Reply[list[ChatEvent]]]
    positions: dict[str, Reply[Vec3]]
    reads: list[dict[ReadKey, CellRead]]
    placed: Reply[list[BlockChange]] | None = None
    broken: Reply[list[BlockChange]] | None = None
    names: list[tuple[int, Reply[str]]] = field(default_factory=list)
    shells: list[list[Reply[Block]]] = field(default_factory=list)  # shell probes, when due
    guard: bool = False  # the seated were located too (the booth guard's cycle)


class SupervisorProtocol:
    """The supervisor's logic without I/O: plan a batch, absorb the replies."""

    def __init__(self, tables: Sequence[Table]) -> None:
        self.tables = list(tables)
        self.reconcilers = [
            Reconciler(t.arena.frame, t.arena.materials["wall"], [seat.booth.cuboid for seat in t.arena.seats])
            for t in self.tables
        ]
        #: each arena's bounds in world coordinates: only players inside concern its table
        self.areas = AreaIndex([t.arena.frame.cuboid_to_world(t.arena.bounds) for t in self.tables])
        #: world cell -> the table whose clickable cell it is (the first, should arenas overlap):
        #: a click is routed by one lookup, not offered to every table in turn
        self.hit_owner: dict[Pos, Table] = {}
        for table in self.tables:
            for cell in table.hits:
                self.hit_owner.setdefault(table.arena.frame.to_world(cell), table)
        self.registry = PlayerRegistry()
        self.online: dict[str, Pos | None] | None = None  # online players (located or not) last told
        self._located: dict[str, Pos] = {}  # where each player was last located (see `_presence_moved`)
        self.cycles = 0
        self.stats = CycleStats()
        self.pauses = Pauses(self.tables)
        self.shells = [ShellWatch(t.arena, {*t.scene().blocks, *t.scene().signs}) for t in self.tables]
        self._rebuild: set[int] = set()  # tables whose shell the next write puts back
        self._probe_due = True  # the first cycle checks the world has the arenas
        self._polls: _Polls | None = None
        self.budget = WriteBudget()
        self._inputs: set[int] = set()  # tables that got input in the last dispatch: they write first
        self._clicked: set[int] = set()  # of those, the tables clicked: they write at once, always
        #: tables with input past this cycle's input allowance: written by `background`, ahead
        #: of the next write (or by the next `start_cycle` when the shell does not call it)
        self._carried: set[int] = set()
        #: chat lines past `CHATS_ON_PATH`: (table index, speaker, message), taken by `background`
        #: (or, for a table whose reads are in flight, by the next `absorb`, before its new chat)
        self._later_chats: list[tuple[int, str, str]] = []
        self._overlapped = False  # the shell runs `background` (so chat can wait for it)
        self._shown: list[Scene | None] = [None] * len(self.tables)  # each table's scene last written
        self._index = {id(t): i for i, t in enumerate(self.tables)}
        self._everything = False  # the next write is a full re-render of every table (after forget)
        self._next: tuple[Batch, CycleStats] | None = None  # the next write, begun by `background`
        self._background_done = False  # `background` ran this cycle
        self._ticked: set[int] = set()  # tables ticked in `background` this cycle (not again in `absorb`)
        self._reading: set[int] = set()  # tables whose reads are in this cycle's batch
        self._reconnect_seen = False  # set by `note_reconnect` (the I/O thread), applied here
        #: One chat poll for everyone (`events.chat.posts`) instead of one per player: only on a
        #: server that escapes reply fields (capability `escaped`), where a `|` typed in a message
        #: cannot forge a record from someone else. The shells set it from the capabilities.
        self.chat_all = False
        #: Walls read in one line each (`world.getBlocksWithData`) where the server has it.
        self.region_reads = False

    def forget(self) -> None:
        """Re-render everything on the next write (after a reconnect the world may be stale)."""
        for r in self.reconcilers:
            r.forget()
        self._everything = True

    def reconnected(self) -> None:
        """The world may have restarted: re-render, probe the shells, and learn every
        player's name afresh (a restarted server hands the old entity ids to other people)."""
        self.forget()
        self.registry = PlayerRegistry()
        self.online = None
        self._located = {}
        self._probe_due = True

    def note_reconnect(self) -> None:
        """The connection reconnected (called on the shell's I/O thread, while `background`
        may run): applied as `reconnected` before the next reply is absorbed."""
        self._reconnect_seen = True

    def _apply_reconnect(self) -> None:
        if self._reconnect_seen:
            self._reconnect_seen = False
            self.reconnected()

    def start_cycle(self) -> Batch:
        """This cycle's one write: every table's changes, then the polls.

        Tables clicked (or rebuilding) write first and always; those with other input next,
        within the input allowance, past it right behind (`background`); the others' changes
        share a bulk allowance and may wait a few cycles (`write_budget`). What `background`
        wrote ahead goes first. A table reads the world only in a cycle whose write leaves the
        world showing its scene (what it reads must be what it drew); else its reads wait a
        cycle, and they never make it jump the queue (at 50 tables a fifth of them read each
        cycle, for the torch checks alone)."""
        self._apply_reconnect()
        self._background_done, self._ticked = False, set()
        if self._next is not None:
            (batch, self.stats), self._next = self._next, None
        else:
            batch, self.stats = Batch(fence_every=FENCE_EVERY), CycleStats()
            self.budget.start(self.cycles)
        # asked before the writes (what a table hands out meanwhile goes with them)
        wanted = [table.reads_wanted() for table in self.tables]
        # input carried over and not written ahead: as input again where `background` runs
        # (within the allowance, else carried again), else at once (nothing else would write it)
        carried = set() if self._overlapped else self._carried
        urgent = self._clicked | self._rebuild | carried
        soon = (self._inputs | self._carried) - urgent
        if self._everything:
            urgent, soon = set(range(len(self.tables))), set()
            self._everything = False
        self._inputs, self._clicked, self._carried = set(), set(), set()
        self._write_tables(batch, self.stats, urgent, soon=soon)
        self.stats.deferred = len(self.budget.waiting)
        self.stats.carried = len(self._carried)
        for index, reads in enumerate(wanted):  # a table reads only a world that shows its scene
            if reads and self.tables[index].scene_changed(self._shown[index]):
                wanted[index] = {}
        self._reading = {i for i, w in enumerate(wanted) if w}
        self._add_polls(batch, wanted)
        return batch

    def background(self, replies_in: Callable[[], bool] | None = None) -> None:
        """The work no reply is needed for, which a shell does while the batch is in flight
        (the server answers on its next tick, up to 50 ms later): the tables' clocks (chance,
        library bots, timeouts, a match's end, reset and the next start), their journal
        commit, and the next write for the tables that changed by it, within the bulk
        allowance. So a click's path (its poll's reply, dispatch, its table's write) never
        waits behind bulk work. Optional: without it `absorb` ticks the tables, as before.
        Journaled before the world is told, as always: the commit ends the tick, the writes
        go out with the next batch.

        A table whose reads are in the batch ticks in `absorb` instead, after its reads are
        taken, as without `background`: what it read always describes the state it asked in
        (a Wool Bluff Reveal, say, must never see walls read for the previous one). A table
        that gets input ticks again in `absorb`, right after it, as without `background`.

        `replies_in` (the shell's "have the replies arrived?"): the writes ahead stop, between
        two tables, once it says yes; the tables left write from the next cycle on as before
        (input carried over within the input allowance, the rest within the bulk one), so a
        burst of work never holds up the replies' absorb, and with it the next write. The
        ticks and their commit never stop early: when a table ticks never depends on it."""
        if self._background_done:
            return
        self._background_done = self._overlapped = True
        with self._journal_group():
            later, self._later_chats = self._later_chats, []
            for index, speaker, message in later:
                if index in self._reading:  # its reads are in flight: after them, in `absorb`
                    self._later_chats.append((index, speaker, message))
                else:
                    self.tables[index].on_chat(speaker, message)
                    self._carried.add(index)  # its answer goes ahead now, with the clocks' writes
            for index, table in enumerate(self.tables):
                if index not in self._reading:
                    table.tick()
                    self._ticked.add(index)
        batch, stats = Batch(fence_every=FENCE_EVERY), CycleStats()
        self.budget.start(self.cycles + 1)  # the allowance of the cycle that sends it
        carried, self._carried = self._carried, set()
        # the input carried over first, always (what `replies_in` cuts short waits as input)
        self._write_tables(batch, stats, carried, ahead=True, stop=replies_in)
        self._next = batch, stats

    def _journal_group(self) -> ExitStack:
        """One commit per journal for what is applied inside (see `Journal.group`)."""
        journals = ExitStack()
        for journal in {id(t.journal): t.journal for t in self.tables}.values():
            journals.enter_context(journal.group())
        return journals

    def _write_tables(self, batch: Batch, stats: CycleStats, urgent: set[int], ahead: bool = False,
                      soon: set[int] | frozenset[int] = frozenset(), stop: Callable[[], bool] | None = None) -> None:
        """Each table's output that may go now (`write_budget`) into `batch`: `urgent` always,
        `soon` (other input) while the input allowance lasts, then it is carried to
        `background`; the others within the bulk allowance. `ahead` (from `background`): only
        the scenes, the outboxes (chat, items, moves) are taken when the batch is completed,
        so whatever a table has queued goes out with the very batch that empties its outbox,
        and with its scene. `stop`: asked before each table that has something to write;
        once it says yes, the urgent tables not yet written are carried over, the rest wait."""
        order = self.budget.order(len(self.tables), urgent, soon)
        for place, index in enumerate(order):
            table, rec = self.tables[index], self.reconcilers[index]
            if stop is not None and stop() and table.scene_changed(self._shown[index]):
                self._carried.update(i for i in order[place:] if i in urgent)
                return
            if index in soon and not self.budget.input_room() and table.scene_changed(self._shown[index]):
                self._carried.add(index)  # its output, chat with the scene, goes right behind
                continue
            for line in () if ahead else self.pauses.notices.pop(index, []):
                batch.post_chat(line)
            if table.paused or table.journal.trouble is not None:
                # its outbox and scene wait: nothing shows that the journal lacks (a commit that
                # failed just now pauses the table at the next absorb; until then, this holds it)
                continue
            now, shown = index in urgent or index in soon, self._shown[index]
            inputs = table.scene_inputs()
            changed = table.scene_changed(shown, inputs)
            if changed and not self.budget.admit(index, now):
                continue  # its output waits as a whole, chat with the scene
            viewers = table.private_viewers() if table.can_private else None
            if (not changed and index not in self._rebuild and (ahead or not table.outbox.pending())
                    and rec.shows(shown, viewers)):
                continue  # the world has all of it (what the steps below would find, sooner)
            commands = 0
            if index in self._rebuild:
                self._rebuild.discard(index)
                commands += write_shell(batch, table.arena)
                rec.forget()
            out = None if ahead else table.outbox.drain()
            if out is not None:
                rec.forget_cells(out.refresh)
            scene = self._shown[index] = table.scene(inputs)
            commands += rec.write(batch, scene, viewers)
            self.budget.spend(commands, now)
            if index in soon:
                self.budget.spend_input(commands)
            stats.commands += commands
            stats.urgent += commands if now else 0
            if out is not None:
                self._write_outbox(batch, table, out)

    def _write_outbox(self, batch: Batch, table: Table, out: Outbox) -> None:
        """What the table queued besides its scene: chat, private words, items, moves."""
        for line in out.chat:
            batch.post_chat(line)
        for player, text in out.private:
            batch.tell(player, text)
        for player, item_id, data, count in out.gives:
            batch.give(player, (item_id, data), count)
        for cell in out.clears:
            batch.set_block(table.arena.frame.to_world(cell), Block(0))
        for cell, block in out.puts:
            batch.set_block(table.arena.frame.to_world(cell), block)
        for player, spot in out.moves:
            entity = self.registry.players().get(player)
            if entity is not None:
                at = table.arena.frame.to_world(spot)
                batch.set_entity_pos(entity, at.x + 0.5, at.y, at.z + 0.5)

    def _add_polls(self, batch: Batch, wanted: list[dict[ReadKey, Sequence[Pos]]]) -> None:
        """The cycle's polls and reads, after every write."""
        shells = []  # after the writes, so a shell rebuilt in this batch reads back whole
        if self._probe_due or self.cycles % PROBE_EVERY == 0:
            self._probe_due = False
            shells = [watch.probe(batch) for watch in self.shells]
        seated = {o.name for t in self.tables for o in t.occupants if o is not None}
        guard = self.cycles % GUARD_EVERY == GUARD_EVERY - 1
        reads = []
        for table, cells_wanted in zip(self.tables, wanted, strict=True):
            frame = table.arena.frame
            reads.append(
                {
                    key: read_cells(batch, frame, cells, with_data=self.region_reads)
                    for key, cells in cells_wanted.items()
                }
            )
        self._polls = _Polls(
            ids=batch.get_player_ids(),
            hits=batch.poll_block_hits(),
            chats=([batch.poll_chat_posts()] if self.chat_all
                   else [batch.poll_chat_posts(i) for i in self.registry.chat_sources()]),
            # where the seated stand matters only to the booth guard (presence comes from the player
            # list): those not seated anywhere are located every cycle, to see them walk into a booth
            positions={
                name: batch.entity_pos(eid)
                for name, eid in self.registry.players().items()
                if guard or name not in seated
            },
            reads=reads,
            shells=shells,
            guard=guard,
        )
        if any(t.can_see_placements for t in self.tables):  # who put or broke what, before the reads
            self._polls.placed, self._polls.broken = batch.poll_placed(), batch.poll_broken()

    def absorb(self) -> Batch | None:
        """Take the replies of the batch just sent. Returns a follow-up batch to send (the
        shell probe after a reconnect, the names of new players, needed before their clicks
        can be dispatched) or None when the cycle is done (the tables have then ticked: in
        `background`, or here after the dispatch when the shell did not call it)."""
        self._apply_reconnect()
        polls = self._polls
        assert polls is not None, "absorb() without start_cycle()"
        if self._probe_due:  # reconnected during this batch: probe the world before anything ticks
            self._probe_due = False  # (an emptied world would otherwise get this cycle's gives twice)
            follow_up = Batch()
            polls.shells = [watch.probe(follow_up) for watch in self.shells]
            return follow_up
        if polls.names:
            self.registry.learn(polls.names)
        else:
            new = self.registry.update_ids(polls.ids.result() if polls.ids.ok else [])
            if new:
                names = Batch()
                polls.names = self.registry.ask_names(names, new)
                return names
        self._polls = None
        self.cycles += 1
        for index, (watch, probe) in enumerate(zip(self.shells, polls.shells, strict=False)):  # none when not due
            if not watch.intact(probe):
                log.warning("arena %s: its shell is gone (world restarted or wiped?); rebuilding it",
                            self.tables[index].arena.name)
                self._rebuild.add(index)
                self.tables[index].on_world_emptied()
                self.online = None  # the next dispatch tells presence: swords owed go out then
        self.pauses.set_all(WORLD, False)  # a cycle went through: the world answers
        self._check_journals()
        with self._journal_group():  # committed before the next write
            self._dispatch(polls)
            for index, table in enumerate(self.tables):
                # those with input tick (again) right after it, as without `background`: what an
                # input sets going (a draw after a discard) goes out with the very next write
                if index not in self._ticked or index in self._inputs:
                    table.tick()
        return None

    def world_lost(self) -> None:
        """The world stopped answering: pause every table (timers included) until it does."""
        self.pauses.set_all(WORLD, True)
        self.forget()

    def _check_journals(self) -> None:
        """Pause the tables whose journal cannot take writes (see `Journal.ready`), resume
        the others: one `stat` per journal per cycle, a retry only while in trouble."""
        ready = {id(t.journal): t.journal.ready() for t in self.tables}
        for index, table in enumerate(self.tables):
            self.pauses.set(index, JOURNAL, not ready[id(table.journal)])

    def _chat_table(self, name: str, online: dict[str, Pos | None], seated: dict[str, Table]) -> Table:
        """The one table a chat command is for: where the speaker sits (`seated`, see
        `_seated`), else the arena they stand in, else the first table (which tells them how
        to sit down)."""
        if name in seated:
            return seated[name]
        where = online.get(name)
        index = self.areas.first(where) if where is not None else None
        return self.tables[index if index is not None else 0]

    def _dispatch(self, polls: _Polls) -> None:
        stats = self.stats
        online: dict[str, Pos | None] = dict.fromkeys(self.registry.players())
        located = {player: Pos.of(where.result()) for player, where in polls.positions.items() if where.ok}
        online.update(located)
        moved = self._presence_moved(online, located)
        if moved or polls.guard:  # else nobody moved a block or came or went
            self.online = online
            inside: list[dict[str, Pos]] = [{} for _ in self.tables]
            for player, where in located.items():
                for index in self.areas.holding(where):
                    inside[index][player] = self.tables[index].arena.frame.to_local(where)
            for index, table in enumerate(self.tables):
                before = _presence_mark(table)
                table.on_presence(online.keys(), inside[index])
                if _presence_mark(table) != before:  # someone sat, left, came back or was guarded out
                    self._inputs.add(index)
        for event in polls.hits.result() if polls.hits.ok else []:
            name = self.registry.name_of(event.entityId)
            if name is None:
                continue
            stats.hits += 1
            at = Pos.of(event.pos)
            owner = self.hit_owner.get(at)
            if owner is not None:
                self._inputs.add(self._index[id(owner)])
                self._clicked.add(self._index[id(owner)])
                owner.on_hit(owner.arena.frame.to_local(at), name)
        held, self._later_chats = self._later_chats, []
        for index, name, message in held:  # typed before this cycle's chat: first
            self._inputs.add(index)
            self.tables[index].on_chat(name, message)
        seated: dict[str, Table] | None = None  # after the clicks, which may seat someone
        taken = 0
        for posts in polls.chats:
            for post in posts.result() if posts.ok else []:
                speaker = self.registry.name_of(post.entityId)
                if speaker is None:
                    continue
                stats.chats += 1
                seated = self._seated() if seated is None else seated
                table = self._chat_table(speaker, online, seated)
                index = self._index[id(table)]
                if self._overlapped and taken >= CHATS_ON_PATH:
                    self._later_chats.append((index, speaker, post.message))  # `background` takes it
                    continue
                taken += 1
                self._inputs.add(index)
                table.on_chat(speaker, post.message)
        for kind, changes in (("placed", polls.placed), ("broken", polls.broken)):
            for change in changes.result() if changes is not None and changes.ok else []:
                self._block_changed(kind, change)
        for table, wanted in zip(self.tables, polls.reads, strict=True):
            if wanted:
                table.on_reads({key: read.blocks() for key, read in wanted.items()})

    def _presence_moved(self, online: dict[str, Pos | None], located: dict[str, Pos]) -> bool:
        """Whether the tables must hear about presence this cycle (besides every guard cycle):
        someone came or went, or a player located now stands on another cell than when last
        located.

        Why not `online != self.online`: the seated are located only on the booth guard's
        cycles (`GUARD_EVERY`), so that comparison saw everyone seated "move" twice per guard
        period (to their cell, then back to unlocated) and told all tables twice for nobody who
        had moved. Now the tables hear it once per guard period (which also seats, within half
        a second, someone who stood still in a free booth while its match ran) and whenever
        anyone moved. [decided here] A location that failed to come back is "not located"."""
        moved = self.online is None or online.keys() != self.online.keys()
        last = self._located
        for name, where in located.items():
            if last.get(name) != where:
                last[name] = where
                moved = True
        if len(last) > 2 * len(online) + 64:  # those gone for good are forgotten now and then
            self._located = {name: where for name, where in last.items() if name in online}
        return moved

    def _seated(self) -> dict[str, Table]:
        """Each seated person's table (the first, as `booth_of_player` finds them; bots are
        nobody's name): built once per cycle with chat, since chat seats nobody."""
        seated: dict[str, Table] = {}
        for table in self.tables:
            for occ in table.occupants:
                if occ is not None and not occ.bot:
                    seated.setdefault(occ.name, table)
        return seated

    def _block_changed(self, kind: str, change: BlockChange) -> None:
        """A player placed or broke a block: to the table whose arena holds it, with who."""
        at = Pos.of(change.pos)
        for index in self.areas.holding(at):
            table = self.tables[index]
            if table.can_see_placements:
                self._inputs.add(index)
                name = self.registry.name_of(change.entity_id)
                table.on_block_change(kind, table.arena.frame.to_local(at), name, change.block)
                return


class Supervisor:
    """The sync shell: one `Connection`, one cycle per `step()`."""

    def __init__(self, conn: Connection, tables: Sequence[Table],
                 while_waiting: Callable[[], None] | None = None) -> None:
        """`while_waiting`: the application's own work for the wait, after the tables' (such
        as `collector.collect_ahead`, which only a program may decide on); left out of a
        cycle whose replies came in before it, when the wait is already over."""
        self.conn = conn
        self.protocol = SupervisorProtocol(tables)
        self.while_waiting = while_waiting
        conn.on_reconnect.append(lambda _conn: self.protocol.note_reconnect())
        #: sends each cycle's batch and waits for its replies while this thread does the
        #: protocol's `background` work (the socket wait releases the GIL)
        self._io = ThreadPoolExecutor(max_workers=1, thread_name_prefix="mcbridge-io")

    @property
    def tables(self) -> list[Table]:
        return self.protocol.tables

    @property
    def cycles(self) -> int:
        return self.protocol.cycles

    def forget(self) -> None:
        self.protocol.forget()

    def step(self) -> CycleStats:
        caps = self.conn.capabilities()  # asked once per connection
        self.protocol.chat_all, self.protocol.region_reads = ESCAPED in caps, BLOCKS_WITH_DATA in caps
        batch = self.protocol.start_cycle()
        written = threading.Event()
        sending = self._io.submit(self._send, batch, written)
        try:
            # the batch is encoded and written before the tables' own work takes the
            # interpreter (sharing it, the encoding could miss the tick), as the asyncio shell does
            written.wait(WRITE_WAIT)
            self.protocol.background(replies_in=sending.done)
            if self.while_waiting is not None and not sending.done():  # only in a wait left over
                self.while_waiting()
        finally:  # never leave the connection mid-batch (its own timeouts bound this wait)
            futures.wait([sending])
        sending.result()
        while (follow_up := self.protocol.absorb()) is not None:
            self._send(follow_up)
        return self.protocol.stats

    def _send(self, batch: Batch, written: threading.Event | None = None) -> None:
        try:
            self.conn.run_batch(batch.items, batch.fence_every, on_written=written.set if written else None)
        except CommandFailed as exc:
            log.warning("a world write failed: %s", exc)
        finally:
            if written is not None:
                written.set()  # failed before writing, too: never keep the tables waiting

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
                self.protocol.world_lost()
                time.sleep(0.2)
            spare = min_cycle - (time.monotonic() - started)
            if spare > 0:
                time.sleep(spare)


class AsyncSupervisor:
    """The asyncio shell: the same protocol over an `AsyncConnection`."""

    def __init__(self, conn: AsyncConnection, tables: Sequence[Table]) -> None:
        self.conn = conn
        self.protocol = SupervisorProtocol(tables)
        conn.on_reconnect.append(lambda _conn: self.protocol.note_reconnect())

    async def step(self) -> CycleStats:
        caps = await self.conn.capabilities()  # asked once per connection
        self.protocol.chat_all, self.protocol.region_reads = ESCAPED in caps, BLOCKS_WITH_DATA in caps
        batch = self.protocol.start_cycle()
        sending = asyncio.ensure_future(self._send(batch))
        await asyncio.sleep(0)  # the batch is written before the tables' own work blocks the loop
        try:
            self.protocol.background()  # the replies wait in the socket meanwhile
        finally:
            await asyncio.wait([sending])
        sending.result()
        while (follow_up := self.protocol.absorb()) is not None:
            await self._send(follow_up)
        return self.protocol.stats

    async def _send(self, batch: Batch) -> None:
        try:
            await self.conn.run_batch(batch.items, batch.fence_every)
        except CommandFailed as exc:
            log.warning("a world write failed: %s", exc)

    async def run(self, until: Callable[[], bool], max_seconds: float, min_cycle: float = 0.0) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + max_seconds
        while not until():
            if loop.time() > deadline:
                raise TimeoutError(f"tables did not finish within {max_seconds} s")
            started = loop.time()
            try:
                await self.step()
            except WorldError as exc:
                log.warning("world connection trouble (%s); retrying", exc)
                self.protocol.world_lost()
                await asyncio.sleep(0.2)
            await asyncio.sleep(max(0.0, min_cycle - (loop.time() - started)))


def _presence_mark(table: Table) -> tuple[object, ...]:
    """What presence can change at a table and a player waits to see: who sits (and is
    there), and what it says or does to someone (a guard's move, a private word)."""
    seats = tuple((o.name, o.present) if o is not None else None for o in table.occupants)
    out = table.outbox
    return seats, len(out.chat), len(out.private), len(out.moves), len(out.gives)
