"""Helpers for the table tests: a table on the embedded world, bots, and read-backs.

Everything runs for real: the embedded world over TCP on 127.0.0.1, mcbridge's
`Connection` for the controller, the unmodified mcpi client for independent read-backs.
Only the clock is the test's own (`StepClock`): it advances a fixed 50 ms per supervisor
cycle, so start delays, reveal holds and timeouts are counted in cycles and a slow
machine cannot change what happens. Every loop is bounded by a cycle count.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcpi.minecraft import Minecraft

from mcbridge import CONFIG_DIR
from mcbridge.core import CHANCE, Action, Rng
from mcbridge.games.wool_bluff import Bid, Bluff, Discard, Through, WoolBluffBot, WoolBluffState
from mcbridge.tables.build import build_arena
from mcbridge.tables.config import Arena, load_arena
from mcbridge.tables.demo import TableBot
from mcbridge.tables.journal import Journal, JournalMatch
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.world.commands import Batch
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.embedded.simulator import EmbeddedPlayer
from mcbridge.world.geometry import Pos

ARENA_FILE = CONFIG_DIR / "arenas" / "wool_bluff.yaml"
NAMES = ["Aki", "Ben", "Chie", "Dan"]
CYCLE_SECONDS = 0.05  # one supervisor cycle of the test clock, as at 20 TPS
MAX_CYCLES = 6000
READ_TIMEOUT = 10.0


def shipped_arena(**changes: Any) -> Arena:
    """The shipped arena, English, with `options` and the game's own settings (dispensing,
    torches, tamper) merged and other fields replaced."""
    arena = load_arena(ARENA_FILE)
    options = {**arena.options, **changes.pop("options", {})}
    settings = {**arena.settings, **{k: changes.pop(k) for k in list(changes) if k in arena.part.settings}}
    return dataclasses.replace(arena, locale=changes.pop("locale", "en"), options=options, settings=settings,
                               **changes)


class StepClock:
    """The tables' clock: advanced by the rig, one cycle at a time."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Rig:
    """One table on an embedded world, driven cycle by cycle."""

    world: EmbeddedHandle
    arena: Arena
    conn: Connection
    journal: Journal
    table: Table
    supervisor: Supervisor
    clock: StepClock
    bots: list[Any] = field(default_factory=list)

    def step(self) -> None:
        self.clock.now += CYCLE_SECONDS
        self.supervisor.step()

    def cycle(self) -> None:
        """What `mcbridge demo` does per cycle: the controller steps, then the players act."""
        self.step()
        for bot in self.bots:
            bot.act()

    def run_until(self, done: Callable[[], bool], max_cycles: int = MAX_CYCLES,
                  each: Callable[[], None] | None = None) -> None:
        for _ in range(max_cycles):
            if done():
                return
            self.cycle()
            if each is not None:
                each()
        raise AssertionError(f"not done after {max_cycles} cycles; table phase "
                             f"{self.table.state.phase if self.table.state else 'waiting'}")

    def finish(self) -> None:
        """Play to the end, then one more cycle so the last scene and words go out."""
        self.run_until(lambda: self.table.finished)
        self.step()

    def close(self) -> None:
        self.conn.close()
        self.journal.close()


def make_rig(world: EmbeddedHandle, arena: Arena, journal_path: Path, *, seed: int | None = 5,
             reveal_hold: float = 0.5, build: bool = True, hold: float | None = None,
             private: bool = False, tell: bool = True, placements: bool = False) -> Rig:
    """`private`: draw booths through the server's private blocks (off: booths drawn in the
    world, as on plain RaspberryJuice); `tell=False`: act as if the server had no private messages;
    `placements`: the table hears who placed or broke a block."""
    conn = Connection(world.host, world.port)
    if build:
        build_arena(conn, arena)
    caps = conn.capabilities()
    clock = StepClock()
    journal = Journal(journal_path)
    table = Table(arena, journal, clock, seed=seed, can_give="give" in caps, can_tell=tell and "tell" in caps,
                  can_private=private and "private" in caps, can_see_placements=placements and "placements" in caps,
                  start_delay=0.5, reveal_hold=reveal_hold, hold=hold)
    return Rig(world, arena, conn, journal, table, Supervisor(conn, [table]), clock)


def seat_players(rig: Rig, count: int = 4, names: Sequence[str] = NAMES) -> list[EmbeddedPlayer]:
    """Players walk into booths 0..count-1; returns them once the match has started."""
    players = []
    for booth in range(count):
        player = rig.world.players.join(names[booth])
        walk_into_booth(player, rig.arena, booth)
        players.append(player)
    rig.run_until(lambda: rig.table.state is not None, max_cycles=200)
    return players


def seat_bots(rig: Rig, seed: int = 11) -> None:
    """The demo's sign-clicking bots take booths 0-3: half walk in, half click the join sign."""
    for booth, name in enumerate(NAMES):
        bot = TableBot(rig.table, rig.world.players.join(name), booth, seed)
        bot.sit_down(by_walking=booth % 2 == 0)
        rig.bots.append(bot)


def walk_into_booth(player: EmbeddedPlayer, arena: Arena, booth: int) -> None:
    inside = arena.seats[booth].interior.cuboid
    centre = arena.frame.to_world(Pos((inside.lo.x + inside.hi.x) // 2, inside.lo.y, (inside.lo.z + inside.hi.z) // 2))
    player.walk_to(centre.x + 0.5, centre.y, centre.z + 0.5)


# -- read-backs -------------------------------------------------------------------------------
def mcpi_client(world: EmbeddedHandle) -> Minecraft:
    """The unmodified mcpi client, with a socket timeout so no read can hang."""
    mc = Minecraft.create(world.host, world.port)
    mc.conn.socket.settimeout(READ_TIMEOUT)
    return mc


def torch_walls(mc: Minecraft, arena: Arena) -> list[int]:
    """Redstone torches (id 76) on each seat's torch wall, read with world.getBlocks."""
    counts = []
    for seat in arena.seats:
        box = arena.frame.cuboid_to_world(seat.torch_wall.cuboid)
        counts.append(list(mc.getBlocks(*box.args())).count(76))
    return counts


def replay(game: Any, saved: JournalMatch) -> WoolBluffState:
    """A fresh core state with every journalled action applied."""
    state = game.new_match(saved.players, saved.seed)
    for seat, data in saved.actions:
        state.apply(seat, game.action_from_json(data))
    assert isinstance(state, WoolBluffState)
    return state


def booth_cells(arena: Arena) -> set[Pos]:
    return {p for seat in arena.seats for p in seat.booth.cuboid}


def outside_booths(arena: Arena) -> list[Pos]:
    """Every arena-local cell that is not part of a booth shell or its inside."""
    inside = booth_cells(arena)
    return [p for p in arena.bounds if p not in inside]


def world_snapshot(world: EmbeddedHandle, arena: Arena, cells: Iterable[Pos]) -> dict[Pos, Any]:
    """(id, data) and sign text of each local cell, read straight from the world's store."""
    frame = arena.frame
    cells = list(cells)
    store = world.server.world
    ox, oy, oz = world.origin

    def read() -> dict[Pos, Any]:
        out: dict[Pos, Any] = {}
        for p in cells:
            w = frame.to_world(p)
            at = (w.x + ox, w.y + oy, w.z + oz)
            out[p] = (store.get_block(*at), _blank(store.sign_lines(at)))
        return out

    return world.call(read)


def sign_text(world: EmbeddedHandle, arena: Arena, local: Pos) -> tuple[str, ...] | None:
    w = arena.frame.to_world(local)
    return _blank(world.sign_lines(w.x, w.y, w.z))


def _blank(lines: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """Sign lines as a player reads them: tables write a blank line as one space (RJ cannot
    clear a last line otherwise)."""
    return None if lines is None else tuple(line.strip() for line in lines)


# -- a player who types commands ----------------------------------------------------------------
CHAT_FORMS = {
    "en": {"bid": "!bid {colour} {count}", "through": "!through", "bluff": "!bluff", "discard": "!discard {wool}"},
    "ja": {"bid": "!予想 {colour} {count}", "through": "!スルー", "bluff": "!ブラフ", "discard": "!捨て {wool}"},
}
JA_COLOURS = {"red": "赤", "blue": "青", "yellow": "黄", "green": "緑", "black": "黒", "white": "白"}


def chat_command(action: Action, lang: str) -> str:
    forms = CHAT_FORMS[lang]

    def colour(c: str) -> str:
        return JA_COLOURS[c] if lang == "ja" else c

    if isinstance(action, Bid):
        return forms["bid"].format(colour=colour(action.colour), count=action.count)
    if isinstance(action, Through):
        return forms["through"]
    if isinstance(action, Bluff):
        return forms["bluff"]
    assert isinstance(action, Discard)
    return forms["discard"].format(wool=" ".join(f"{colour(c)}{n}" if lang == "ja" else f"{colour(c)} {n}"
                                                 for c, n in action.wool))


class ChatPlayers:
    """Seated players who play only by chat, choosing with the game's bot from their own view.

    `state` is a callable so the same players work against an in-process table or a
    journal replayed from another process. Each decision is typed once; `retype()` forgets
    what was typed (after a controller restart lost it).
    """

    def __init__(self, players: Sequence[EmbeddedPlayer], state: Callable[[], WoolBluffState | None],
                 seed: int = 3, languages: Sequence[str] = ("en", "ja")) -> None:
        self.players = list(players)
        self.state = state
        self.policy = WoolBluffBot()
        self.rng = Rng(seed)
        self.languages = list(languages)
        self.typed: dict[tuple[Any, ...], tuple[int, Action, str]] = {}
        self.sent: list[tuple[int, Action, str]] = []

    def act(self) -> None:
        state = self.state()
        if state is None or state.is_over:
            return
        for seat in sorted(state.to_act() - {CHANCE}):
            bid = state.bid and state.bid.get("count")
            key = (state.seed, seat, state.turn, state.phase, bid, len(state.responses))
            if key in self.typed:
                continue
            action = self.policy.choose(state.view(seat), state.legal_actions(seat), self.rng)
            kind = type(action).__name__  # each kind of command alternates between the languages
            lang = self.languages[sum(1 for _, a, _ in self.sent if type(a).__name__ == kind) % len(self.languages)]
            line = chat_command(action, lang)
            self.players[seat].chat(line)
            self.typed[key] = (seat, action, line)
            self.sent.append((seat, action, line))

    def retype(self) -> None:
        self.typed.clear()


def player_actions(saved: JournalMatch) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, data) for seat, data in saved.actions if seat != CHANCE]


#: what a quiet world answers to the queries a table makes: nothing happened, air
QUIET_WORLD = {"world.getBlockWithData": "0,0"}


def answer(batch: Batch, lines: dict[str, str] | None = None) -> list[str]:
    """Stand in for the server: every setter succeeds, each query gets `lines[name]` (or an
    empty reply). Returns the command names, in order."""
    names = []
    for item in batch.items:
        names.append(item.command.name)
        if item.reply.is_setter:
            item.reply._succeed()
        else:
            item.reply._set_line((lines or {}).get(item.command.name, QUIET_WORLD.get(item.command.name, "")))
    return names
