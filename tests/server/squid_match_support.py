"""A Wool Bluff table on the real flying-squid server, played by mineflayer bots.

The controller is mcbridge's own: a `Connection` to the bridge port, the shipped arena built
with `build_arena`, a `Table` (Wool Bluff kit) and its `Supervisor`. The players are `TableBot`s on
mineflayer clients, so every click and every placed wool goes through the Minecraft protocol.
Read-backs go through the bridge on a connection of their own.

Time: the tables run on a step clock that advances 50 ms per supervisor cycle (as at 20 TPS),
so a bot walking for seconds between two cycles cannot make a rules timeout fire, and start
delays and reveal holds are counted in cycles. Every loop has a cycle cap and a wall-clock cap.
Bots act in parallel between supervisor cycles (each is its own client; one walk need not wait
for another), and the supervisor never steps while they act, so they read a still table.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from squid_support import RawClient

from mcbridge import CONFIG_DIR
from mcbridge.games.wool_bluff import WoolBluffState
from mcbridge.tables.build import build_arena
from mcbridge.tables.config import Arena, load_arena
from mcbridge.tables.demo import PASSABLE, TableBot
from mcbridge.tables.journal import Journal, JournalMatch
from mcbridge.tables.kits.wool_bluff_render import COLOUR_OF_WOOL
from mcbridge.tables.layout import arena_layout, wall_torch
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.world.blocks import Block
from mcbridge.world.botrunner import BotPlayer
from mcbridge.world.connection import Connection
from mcbridge.world.geometry import Cuboid, Pos
from mcbridge.world.realserver import FlyingSquidServer

ARENA_FILE = CONFIG_DIR / "arenas" / "wool_bluff.yaml"
CYCLE_SECONDS = 0.05  # one supervisor cycle of the step clock, as at 20 TPS
MAX_CYCLES = 3000
MAX_SECONDS = 90.0  # wall-clock cap on one match
BOT_ACT_TIMEOUT = 60.0  # one bot's act(): the longest is a walk out of the booth and ten placements
#: How far a survival player reaches, from the eyes to the block (vanilla 1.12).
REACH = 4.5
EYE_HEIGHT = 1.62
SIGHT_STEP = 0.05  # blocks between the points checked on a line of sight
#: Where a client may aim at a block: its centre or the middle of one of its six faces.
AIMS = [(0, 0, 0), (-1, 0, 0), (1, 0, 0), (0, -1, 0), (0, 1, 0), (0, 0, -1), (0, 0, 1)]


def shipped_arena(**changes: Any) -> Arena:
    """The shipped arena (Japanese signs and chat) with `options` and the game's own settings
    (dispensing, torches, tamper) merged and other fields replaced."""
    arena = load_arena(ARENA_FILE)
    options = {**arena.options, **changes.pop("options", {})}
    settings = {**arena.settings, **{k: changes.pop(k) for k in list(changes) if k in arena.part.settings}}
    return dataclasses.replace(arena, options=options, settings=settings, **changes)


class StepClock:
    """The tables' clock, advanced by the rig one cycle at a time."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class ReachingPlayer:
    """A mineflayer bot that refuses to click or place what a real client could not reach.

    A real client reaches 4.5 blocks from the eyes and cannot click through a wall; flying-squid
    checks neither. This wrapper stands between `TableBot` and the bot and fails the test when a
    click or placement is too far away, or when every line from the eyes to the block (its
    centre or a face's middle) crosses the arena's structure (a booth wall, say), so a bot that
    did not walk up to a sign or out to its wall is caught.
    """

    def __init__(self, bot: BotPlayer, arena: Arena) -> None:
        self.bot = bot
        self.name = bot.name
        structure = arena_layout(arena)
        self.solid = frozenset(
            arena.frame.to_world(p) for p, block in structure.blocks.items() if block.id not in PASSABLE
        )
        self.reached: list[float] = []  # the eye-to-block distance of every click and placement

    @property
    def entity_id(self) -> int:
        return self.bot.entity_id

    def _check_reach(self, x: int, y: int, z: int) -> None:
        px, py, pz = self.bot.position()
        eye = (px, py + EYE_HEIGHT, pz)
        nearest = [min(max(e, lo), lo + 1) for e, lo in zip(eye, (x, y, z), strict=True)]
        distance = math.dist(eye, nearest)
        where = f"{self.name} at {px:.1f},{py:.1f},{pz:.1f} tried to reach the block at {x},{y},{z}"
        assert distance <= REACH, f"{where}, {distance:.1f} blocks away: a real client reaches {REACH}"
        aims = [(x + 0.5 + dx * 0.49, y + 0.5 + dy * 0.49, z + 0.5 + dz * 0.49) for dx, dy, dz in AIMS]
        assert any(self._in_sight(eye, aim) for aim in aims), f"{where} through a wall"
        self.reached.append(distance)

    def _in_sight(self, eye: tuple[float, float, float], aim: tuple[float, float, float]) -> bool:
        """Whether the line from the eyes to a point of the target block misses the structure."""
        target = Pos.of(aim)
        steps = math.ceil(math.dist(eye, aim) / SIGHT_STEP)
        for k in range(steps):
            at = Pos.of([e + (a - e) * k / steps for e, a in zip(eye, aim, strict=True)])
            if at != target and at in self.solid:
                return False
        return True

    def position(self) -> tuple[float, float, float]:
        return self.bot.position()

    def walk_to(self, x: float, y: float, z: float, timeout: float = 10.0) -> None:
        self.bot.walk_to(x, y, z, timeout)

    def hold(self, item_id: int, data: int = 0) -> None:
        self.bot.hold(item_id, data)

    def right_click(self, x: int, y: int, z: int, face: int = 1) -> None:
        self._check_reach(x, y, z)
        self.bot.right_click(x, y, z, face)

    def place(self, x: int, y: int, z: int, item_id: int, data: int = 0) -> None:
        self._check_reach(x, y, z)
        self.bot.place(x, y, z, item_id, data)

    def break_block(self, x: int, y: int, z: int) -> None:
        self._check_reach(x, y, z)
        self.bot.break_block(x, y, z)

    def chat(self, text: str) -> None:
        self.bot.chat(text)

    def inventory(self) -> dict[tuple[int, int], int]:
        return self.bot.inventory()

    def private_messages(self) -> list[str]:
        return self.bot.private_messages()

    def chat_heard(self) -> list[str]:
        return self.bot.chat_heard()

    def leave(self) -> None:
        self.bot.leave()


@dataclass
class SquidRig:
    """One table on flying-squid, driven cycle by cycle; bots act in parallel in between."""

    arena: Arena
    conn: Connection
    journal: Journal
    table: Table
    supervisor: Supervisor
    clock: StepClock
    bots: list[TableBot] = field(default_factory=list)
    pool: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(max_workers=4))
    cycles: int = 0

    def step(self) -> None:
        self.clock.now += CYCLE_SECONDS
        self.supervisor.step()
        self.cycles += 1

    def in_parallel(self, actions: list[Callable[[], None]]) -> None:
        """Run one action per bot at once, all within `BOT_ACT_TIMEOUT`; re-raise the first failure."""
        futures = [self.pool.submit(action) for action in actions]
        _, pending = wait(futures, timeout=BOT_ACT_TIMEOUT)
        if pending:
            raise AssertionError(f"{len(pending)} bot(s) still busy after {BOT_ACT_TIMEOUT:.0f} s")
        for future in futures:
            future.result()

    def run_until(
        self,
        done: Callable[[], bool],
        what: str,
        max_cycles: int = MAX_CYCLES,
        max_seconds: float = MAX_SECONDS,
        each: Callable[[], None] | None = None,
        bots_act: bool = True,
    ) -> None:
        """Cycle until `done()`: the supervisor steps, `each()` looks at the world, the bots act."""
        deadline = time.monotonic() + max_seconds
        for _ in range(max_cycles):
            if done():
                return
            if time.monotonic() > deadline:
                break
            self.step()
            if each is not None:
                each()
            if bots_act:
                self.in_parallel([bot.act for bot in self.bots])
        state = self.table.state
        raise AssertionError(
            f"{what}: not done after {self.cycles} cycles / {max_seconds:.0f} s "
            f"(table phase {state.phase if state else 'waiting'}, turn {state.turn if state else 0})"
        )

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.conn.close()
        self.journal.close()


def make_rig(server: FlyingSquidServer, arena: Arena, journal_path: Path, seed: int, private: bool = False) -> SquidRig:
    """Build the arena on the server and set up its table (start delay and reveal hold: 10 cycles);
    `private`: booths through the bridge's private blocks (off: drawn in the world)."""
    conn = Connection(server.host, server.port)
    build_arena(conn, arena)
    caps = conn.capabilities()
    clock = StepClock()
    journal = Journal(journal_path)
    table = Table(
        arena,
        journal,
        clock,
        seed=seed,
        can_give="give" in caps,
        can_tell="tell" in caps,
        can_private=private and "private" in caps,
        start_delay=0.5,
        reveal_hold=0.5,
    )
    return SquidRig(arena, conn, journal, table, Supervisor(conn, [table]), clock)


# -- read-backs through the bridge ------------------------------------------------------------
class BridgeReader:
    """Reads through the bridge on a bare RaspberryJuice connection, pipelined: every request
    of one read goes out in one write and is answered within one server tick (one request at
    a time would cost a tick each)."""

    def __init__(self, port: int) -> None:
        self.client = RawClient(port)

    def ask_all(self, requests: list[str]) -> list[str]:
        self.client.send("".join(line + "\n" for line in requests))
        return self.client.lines(len(requests))

    def blocks_with_data(self, cells: list[Pos]) -> list[Block]:
        """world.getBlockWithData at each protocol position."""
        replies = self.ask_all([f"world.getBlockWithData({p.x},{p.y},{p.z})" for p in cells])
        return [Block(*(int(v) for v in reply.split(","))) for reply in replies]

    def block_ids(self, boxes: list[Cuboid]) -> list[list[int]]:
        """world.getBlocks over each protocol cuboid."""
        replies = self.ask_all([f"world.getBlocks({','.join(map(str, box.args()))})" for box in boxes])
        return [[int(v) for v in reply.split(",")] for reply in replies]

    def close(self) -> None:
        self.client.close()


def torch_walls(reader: BridgeReader, arena: Arena) -> list[int]:
    """Lit torches per seat, read through the bridge: world.getBlocks over each torch wall and
    world.getBlockWithData on each of its cells. A wall is lit from its first cell in reading
    order with wall torches hanging the wall's way; anything else there fails the read-back."""
    frame = arena.frame
    walls = [seat.torch_wall for seat in arena.seats]
    ids = reader.block_ids([frame.cuboid_to_world(wall.cuboid) for wall in walls])
    cells = [[frame.to_world(c) for c in wall.cells] for wall in walls]
    found = reader.blocks_with_data([p for wall_cells in cells for p in wall_cells])
    counts = []
    for k, wall in enumerate(walls):
        assert wall.faces is not None
        torch = frame.block_to_world(wall_torch(wall.faces))
        mine, found = found[: len(cells[k])], found[len(cells[k]) :]
        lit = mine.count(torch)
        assert mine == [torch] * lit + [Block(0)] * (len(mine) - lit), f"seat {k}: torch wall {mine}"
        assert ids[k].count(torch.id) == lit
        counts.append(lit)
    return counts


def wool_walls(reader: BridgeReader, arena: Arena) -> list[list[str]]:
    """Colours on each seat's wool wall in the wall's reading order (world.getBlockWithData)."""
    frame = arena.frame
    walls = [[frame.to_world(c) for c in seat.wool_wall.cells] for seat in arena.seats]
    found = reader.blocks_with_data([p for wall in walls for p in wall])
    shown = []
    for wall in walls:
        mine, found = found[: len(wall)], found[len(wall) :]
        shown.append([COLOUR_OF_WOOL[b.data] for b in mine if b.id == 35])
    return shown


def replay(game: Any, saved: JournalMatch) -> WoolBluffState:
    """A fresh core state with every journalled action applied."""
    state = game.new_match(saved.players, saved.seed)
    for seat, data in saved.actions:
        state.apply(seat, game.action_from_json(data))
    assert isinstance(state, WoolBluffState)
    return state
