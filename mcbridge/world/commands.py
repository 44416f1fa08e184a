"""Building request lines (sanitised, floored) and parsing their replies.

`make` is the single door every outgoing command passes through, whether it comes from
the mcpi-compatible facade or from a `Batch`: numbers are checked, text is sanitised by
its role (chat text, sign line, name), so nothing a player typed can end a line early.
`Batch` collects typed commands whose results arrive later in `Reply` slots; the sync and
asyncio connections flush it in one write.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeAlias, TypeVar

from mcpi.event import BlockEvent, ChatEvent
from mcpi.vec3 import Vec3

from mcbridge.world import sanitize
from mcbridge.world.blocks import Block
from mcbridge.world.errors import ProtocolError, ReplyTimeout, Unsupported
from mcbridge.world.geometry import Cuboid, Pos
from mcbridge.world.pipeline import MAX_REQUEST_CHARS, Command, Item, Reply

log = logging.getLogger(__name__)
T = TypeVar("T")

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)*")

#: Pi-API commands mcpi still exposes but RaspberryJuice answers with `Fail`.
_NOT_IN_RJ = ("world.checkpoint.", "world.setting", "player.setting", "camera.")

#: Queries RaspberryJuice may never answer: always followed by a fence (see `Batch.command`).
MAY_STAY_SILENT = frozenset({"entity.getName"})

#: Commands that have the same effect when they run twice: a batch of only these is sent
#: again after a desync or a timeout (`Connection.retries`). Event polls (they consume the
#: events), chat, private messages, gives and entity spawns or removals are not.
IDEMPOTENT = frozenset(
    {
        "world.getBlock", "world.getBlockWithData", "world.getBlocks", "world.getBlocksWithData", "world.getHeight",
        "world.getPlayerIds", "world.getPlayerId", "world.getEntities", "world.getEntityTypes",
        "world.setBlock", "world.setBlocks", "world.setSign",
        "entity.getName", "entity.getPos", "entity.getTile", "entity.getDirection",
        "entity.getRotation", "entity.getPitch", "entity.setPos", "entity.setTile",
        "player.getPos", "player.getTile", "player.getDirection", "player.getRotation",
        "player.getPitch", "mcbridge.capabilities", "mcbridge.getSign",
    }
)  # fmt: skip

#: Extension commands and the capability each needs (mcbridge.capabilities()).
EXTENSIONS = {
    "mcbridge.give": "give",
    "mcbridge.tell": "tell",
    "mcbridge.private.setBlock": "private",
    "mcbridge.private.setSign": "private",
    "mcbridge.private.clear": "private",
    "mcbridge.events.block.placed": "placements",
    "mcbridge.events.block.broken": "placements",
    "world.getBlocksWithData": "blocks_with_data",  # RaspberryJamMod's name; not in RaspberryJuice
}

#: Who may own private blocks: exactly the names a Java server lets log in (never a name
#: that sanitising would fold into someone else's).
_PLAYER_NAME = re.compile(r"[A-Za-z0-9_]{1,16}")

Cleaner = Callable[[str], str]


def _text_role(name: str, index: int) -> Cleaner:
    """How a text argument is cleaned, by command and position."""
    if name == "chat.post" or (name == "mcbridge.tell" and index >= 1):
        return sanitize.chat_text  # the server joins these arguments back with commas
    if (name == "world.setSign" and index >= 5) or (
        name == "mcbridge.private.setSign" and index >= 6
    ):
        return sanitize.sign_line
    return sanitize.arg_text


def make(name: str | bytes, args: Iterable[object] = ()) -> Command:
    """One safe request line: `make("chat.post", ["hi\\nworld.setBlock(0,0,0,1)"])` stays one
    line. Nested iterables (Vec3, Block, tuples) are flattened as mcpi does."""
    if isinstance(name, bytes):
        name = name.decode("ascii")
    if name not in _CHECKED_NAMES:
        _check_name(name)
    out: list[str] = []
    _flatten_into(name, args, out)
    command = Command(name, tuple(out))
    if sum(map(len, out)) > MAX_REQUEST_CHARS:
        raise ValueError(f"{name}: request longer than {MAX_REQUEST_CHARS} characters.")
    return command


_CHECKED_NAMES: set[str] = set()


def _ints_command(name: str, values: tuple[object, ...]) -> Command:
    """`make(name, values)` for a known command of whole numbers (positions, blocks, ids):
    the same line, without the general walk (`str` is all an int needs; anything else,
    a bool included, goes through `make`)."""
    for value in values:
        if type(value) is not int:
            return make(name, values)
    return Command(name, tuple(map(str, values)))


#: Cache sizes: cleared when full. Plain dicts of tuples of ints and text, which the garbage
#: collector stops tracking, unlike `functools.lru_cache`'s nodes and Command objects: a cache
#: of those made full collections slower than the encoding they saved.
_CACHE_LIMIT = 4096
_SIGN_ARGS: dict[tuple[object, ...], tuple[str, ...]] = {}
_SIGN_LINES: dict[str, str] = {}


def _sign_command(pos: Pos, block: Block, lines: tuple[str, ...]) -> Command:
    """The `world.setSign` line for exactly this content. Tables write the same few texts at
    the same signs again and again (a colour cycle, "waiting", a seat's name), and cleaning
    and joining them was a good part of a write. Keyed by everything the line says, so it
    can never hand out an old text for a new one."""
    key = (*pos, *block, *lines)
    args = _SIGN_ARGS.get(key)
    if args is None:
        if len(_SIGN_ARGS) >= _CACHE_LIMIT:
            _SIGN_ARGS.clear()
        head = _ints_command("world.setSign", (pos.x, pos.y, pos.z, block.id, block.data))
        args = _SIGN_ARGS[key] = (*head.args, *map(_sign_line, lines))
    return Command("world.setSign", args)


def _sign_line(text: str) -> str:
    """A sign line cleaned: the lines repeat far more than whole signs do (a blank, a card's
    name, a seat's label), also where a countdown makes every sign text new."""
    clean = _SIGN_LINES.get(text)
    if clean is None:
        if len(_SIGN_LINES) >= _CACHE_LIMIT:
            _SIGN_LINES.clear()
        clean = _SIGN_LINES[text] = sanitize.sign_line(text)
    return clean


def _check_name(name: str) -> None:
    if not _NAME.fullmatch(name):
        raise ValueError(f"{name!r} is not a RaspberryJuice command name.")
    if name.startswith(_NOT_IN_RJ):
        raise Unsupported(
            f"{name} is a Raspberry Pi command that RaspberryJuice does not implement "
            "(the server would answer Fail); leave it out."
        )
    if len(_CHECKED_NAMES) < 1024:
        _CHECKED_NAMES.add(name)


def _flatten_into(name: str, values: Iterable[object], out: list[str]) -> None:
    """mcpi's flatten (every non-text iterable is expanded), with each leaf made safe."""
    for value in values:
        kind = type(value)
        if kind is int:
            out.append(str(value))
        elif kind is str:
            out.append(_text_role(name, len(out))(value))  # type: ignore[arg-type]
        elif isinstance(value, int | float):
            out.append(sanitize.number(value))
        elif isinstance(value, str):
            out.append(_text_role(name, len(out))(value))
        elif hasattr(value, "__iter__") and not isinstance(value, bytes | bytearray):
            _flatten_into(name, value, out)
        else:
            out.append(sanitize.arg_text(str(value)))


def worth_retrying(error: BaseException | None, items: Sequence[Item]) -> bool:
    """Send a batch again only if its stream lost its place and running it twice is safe."""
    lost_place = isinstance(error, ReplyTimeout) or (isinstance(error, ProtocolError) and error.desync)
    return lost_place and all(item.command.name in IDEMPOTENT for item in items)


def reset_replies(items: Iterable[Item]) -> None:
    for item in items:
        item.reply._reset()


def extensions_needed(items: Iterable[Item]) -> set[str]:
    """Capabilities (`mcbridge.capabilities()`) these commands need from the server."""
    return {EXTENSIONS[i.command.name] for i in items if i.command.name in EXTENSIONS}


# --- reply parsers ----------------------------------------------------------------------


def parse_ints(line: str, sep: str = ",") -> list[int]:
    return [int(part) for part in line.split(sep)] if line else []


def parse_block(line: str) -> Block:
    block_id, data = line.split(",")
    return Block(int(block_id), int(data))


def parse_blocks_with_data(line: str) -> list[Block]:
    """`id,data|id,data|...` (`world.getBlocksWithData`; its shape is checked before this)."""
    numbers = list(map(int, line.replace("|", ",").split(",")))
    if len(numbers) % 2 or line.count("|") + 1 != len(numbers) // 2:
        raise ValueError(f"not id,data records: {line[:80]!r}")
    pairs = iter(numbers)
    return list(map(Block, pairs, pairs))


def parse_vec3(line: str) -> Vec3:
    x, y, z = (float(part) for part in line.split(","))
    return Vec3(x, y, z)


def parse_tile(line: str) -> Pos:
    x, y, z = (int(part) for part in line.split(","))
    return Pos(x, y, z)


def parse_name(line: str) -> str:
    """The exact name, escapes decoded: nothing is folded (see `PlayerRegistry.learn`)."""
    return sanitize.unescape_field(line)


def parse_hits(line: str) -> list[BlockEvent]:
    """`x,y,z,face,entityId|...`; a malformed record raises (the stream is out of step)."""
    hits = []
    for record in line.split("|") if line else []:
        x, y, z, face, entity = (int(part) for part in record.split(","))
        hits.append(BlockEvent.Hit(x, y, z, face, entity))
    return hits


def parse_chats(line: str, entity_id: int | None = None) -> list[ChatEvent]:
    """`entityId,message|...`, messages escaped (server/README.md). On plain RaspberryJuice,
    which does not escape, a `|` typed in a message splits it into fake records; a record
    that does not start with the expected id is glued back onto the previous message.

    With `entity_id` (a per-player poll) every genuine record has that id, so a player
    cannot forge a message from someone else by typing `|<their id>,text`.
    """
    posts: list[list[int | str]] = []
    for record in line.split("|") if line else []:
        head, sep, text = record.partition(",")
        genuine = bool(sep) and head.lstrip("-").isdigit()
        if genuine and entity_id is not None and int(head) != entity_id:
            genuine = False
        if genuine:
            posts.append([int(head), text])
        elif posts:
            posts[-1][1] = f"{posts[-1][1]}|{record}"
        else:
            log.warning("ignoring a malformed chat record %r", record[:80])
    return [ChatEvent.Post(int(eid), sanitize.incoming_text(sanitize.unescape_field(str(text)))) for eid, text in posts]


@dataclass(frozen=True)
class BlockChange:
    """A block a player placed (`block` = what it put there) or broke (what was there)."""

    entity_id: int
    pos: Pos
    block: Block


def parse_block_changes(line: str) -> list[BlockChange]:
    """`entityId,x,y,z,id,data|...`; any malformed record makes the whole reply unreadable
    (a `ProtocolError`): an attribution is never guessed."""
    changes = []
    for record in line.split("|") if line else []:
        entity, x, y, z, block_id, data = (int(part) for part in record.split(","))
        changes.append(BlockChange(entity, Pos(x, y, z), Block(block_id, data)))
    return changes


def _player_name(name: str) -> str:
    if not _PLAYER_NAME.fullmatch(name):
        raise ValueError(
            f"{name[:20]!r} is not a player name (1-16 of A-Z, a-z, 0-9, _): private blocks "
            "go only to an exact name."
        )
    return name


def parse_capabilities(line: str) -> frozenset[str]:
    return frozenset(part.strip() for part in line.split(",") if part.strip())


def capability_number(caps: frozenset[str], name: str) -> int | None:
    """The positive N of a ``name=N`` capability, or None when absent or malformed."""
    for cap in caps:
        key, sep, value = cap.partition("=")
        if sep and key == name and value.isdigit() and int(value) > 0:
            return int(value)
    return None


# --- batches ------------------------------------------------------------------------------

PosLike: TypeAlias = "Pos | Vec3 | Sequence[float]"
BlockLike: TypeAlias = "Block | Iterable[int] | int"


def _block(block: BlockLike, data: int | None = None) -> Block:
    if isinstance(block, int):
        return Block(block, data or 0)
    b = Block(*block)
    return b if data is None else b.with_data(data)


class Batch:
    """Commands to send in one write; queries return `Reply` slots filled by the flush.

    Setters also return a `Reply` (holding None or the `CommandFailed`), and are confirmed
    by fences: one per `fence_every` setters (1 = every failure is named exactly).
    Coordinates are floored; text is sanitised by `make`.
    """

    def __init__(self, fence_every: int = 1) -> None:
        self.fence_every = fence_every
        self.items: list[Item] = []

    def __len__(self) -> int:
        return len(self.items)

    def command(
        self,
        name: str | bytes,
        *args: object,
        parse: Callable[[str], T] | None = None,
        guarded: bool | None = None,
    ) -> Reply[T]:
        """Any command: a setter when `parse` is None, else a query parsed by `parse`.

        A guarded query is followed by a fence, so if the server never answers it (RJ's
        entity.getName of an unknown id) the fence's reply shows it at once: a
        `CommandFailed`, not a timeout, and no later reply is mistaken for its answer.
        `guarded=None` guards exactly the commands in `MAY_STAY_SILENT`.
        """
        return self._add(make(name, args), parse, guarded)

    def _add(self, cmd: Command, parse: Callable[[str], T] | None = None, guarded: bool | None = None) -> Reply[T]:
        if guarded is None:
            guarded = parse is not None and cmd.name in MAY_STAY_SILENT
        reply: Reply[T] = Reply(cmd, parse, index=len(self.items))
        self.items.append(Item(cmd, reply, guarded))  # type: ignore[arg-type]
        return reply

    # setters
    def set_block(self, pos: PosLike, block: BlockLike, data: int | None = None) -> Reply[None]:
        if type(pos) is Pos and type(block) is Block and data is None:  # the tables' case, hundreds a cycle
            return self._add(_ints_command("world.setBlock", (pos.x, pos.y, pos.z, block.id, block.data)))
        return self.command("world.setBlock", Pos.of(pos), _block(block, data))

    def set_blocks(self, corner1: PosLike, corner2: PosLike, block: BlockLike) -> Reply[None]:
        if type(corner1) is Pos and type(corner2) is Pos and type(block) is Block:
            a, b = corner1, corner2
            return self._add(_ints_command("world.setBlocks", (a.x, a.y, a.z, b.x, b.y, b.z, block.id, block.data)))
        return self.command("world.setBlocks", Pos.of(corner1), Pos.of(corner2), _block(block))

    def fill(self, cuboid: Cuboid, block: BlockLike) -> Reply[None]:
        return self.command("world.setBlocks", cuboid.args(), _block(block))

    def set_sign(self, pos: PosLike, block: BlockLike, lines: Sequence[str] = ()) -> Reply[None]:
        if type(pos) is Pos and type(block) is Block and all(type(line) is str for line in lines):
            return self._add(_sign_command(pos, block, tuple(lines)[:4]))
        return self.command("world.setSign", Pos.of(pos), _block(block), list(lines)[:4])

    def post_chat(self, text: str) -> Reply[None]:
        return self.command("chat.post", str(text))

    def clear_events(self) -> Reply[None]:
        return self.command("events.clear")

    def set_entity_tile(self, entity_id: int, pos: PosLike) -> Reply[None]:
        return self.command("entity.setTile", int(entity_id), Pos.of(pos))

    def set_entity_pos(self, entity_id: int, x: float, y: float, z: float) -> Reply[None]:
        return self.command("entity.setPos", int(entity_id), float(x), float(y), float(z))

    def give(self, player: str, item: BlockLike, count: int = 1) -> Reply[None]:
        """Server extension (`mcbridge.give`): items into one player's inventory."""
        return self.command("mcbridge.give", str(player), _block(item), int(count))

    def tell(self, player: str, text: str) -> Reply[None]:
        """Server extension (`mcbridge.tell`): a message only that player sees."""
        return self.command("mcbridge.tell", str(player), str(text))

    def private_set_block(
        self, player: str, pos: PosLike, block: BlockLike, data: int | None = None
    ) -> Reply[None]:
        """Server extension (`private`): only `player` sees `block` at `pos`; everyone else
        (and every read) sees the world's block there. Kept per name, across rejoins."""
        return self.command(
            "mcbridge.private.setBlock", _player_name(player), Pos.of(pos), _block(block, data)
        )

    def private_set_sign(
        self, player: str, pos: PosLike, block: BlockLike, lines: Sequence[str] = ()
    ) -> Reply[None]:
        """Server extension (`private`): a sign (63/68) and its text for `player` only."""
        return self.command(
            "mcbridge.private.setSign",
            _player_name(player),
            Pos.of(pos),
            _block(block),
            list(lines)[:4],
        )

    def private_clear(self, player: str, cuboid: Cuboid | None = None) -> Reply[None]:
        """Server extension (`private`): `player` sees the world again (inside `cuboid`)."""
        if cuboid is None:
            return self.command("mcbridge.private.clear", _player_name(player))
        return self.command("mcbridge.private.clear", _player_name(player), cuboid.args())

    # queries
    def get_block(self, pos: PosLike) -> Reply[int]:
        return self.command("world.getBlock", Pos.of(pos), parse=int)

    def get_block_with_data(self, pos: PosLike) -> Reply[Block]:
        if type(pos) is Pos:
            return self._add(_ints_command("world.getBlockWithData", (pos.x, pos.y, pos.z)), parse_block)
        return self.command("world.getBlockWithData", Pos.of(pos), parse=parse_block)

    def get_blocks(self, cuboid: Cuboid) -> Reply[list[int]]:
        """Ids only, in `cuboid` order (y, then x, then z fastest): `cuboid.at(i)`."""
        return self.command("world.getBlocks", cuboid.args(), parse=parse_ints)

    def get_blocks_with_data(self, cuboid: Cuboid) -> Reply[list[Block]]:
        """Ids and data in `cuboid` order, in one line: only where the server lists the
        `blocks_with_data` capability (the connection refuses the batch elsewhere)."""
        return self._add(_ints_command("world.getBlocksWithData", cuboid.args()), parse_blocks_with_data)

    def get_height(self, x: float, z: float) -> Reply[int]:
        return self.command("world.getHeight", sanitize.floor(x), sanitize.floor(z), parse=int)

    def get_player_ids(self) -> Reply[list[int]]:
        """RJ answers `Fail` when nobody is online: that slot then holds a CommandFailed."""
        return self.command("world.getPlayerIds", parse=lambda line: parse_ints(line, "|"))

    def get_player_id(self, name: str) -> Reply[int]:
        return self.command("world.getPlayerId", str(name), parse=int)

    def entity_name(self, entity_id: int) -> Reply[str]:
        return self.command("entity.getName", int(entity_id), parse=parse_name)

    def entity_pos(self, entity_id: int) -> Reply[Vec3]:
        return self._add(_ints_command("entity.getPos", (int(entity_id),)), parse_vec3)

    def entity_tile(self, entity_id: int) -> Reply[Pos]:
        return self.command("entity.getTile", int(entity_id), parse=parse_tile)

    def poll_block_hits(self) -> Reply[list[BlockEvent]]:
        return self.command("events.block.hits", parse=parse_hits)

    def poll_chat_posts(self, entity_id: int | None = None) -> Reply[list[ChatEvent]]:
        """All chat (`entity_id` None) or one player's: only the latter resists forged `|`."""
        if entity_id is None:
            return self.command("events.chat.posts", parse=parse_chats)
        eid = int(entity_id)
        return self._add(_ints_command("entity.events.chat.posts", (eid,)), lambda line: parse_chats(line, eid))

    def poll_placed(self) -> Reply[list[BlockChange]]:
        """Server extension (`placements`): blocks players placed since the last poll."""
        return self.command("mcbridge.events.block.placed", parse=parse_block_changes)

    def poll_broken(self) -> Reply[list[BlockChange]]:
        """Server extension (`placements`): blocks players broke since the last poll."""
        return self.command("mcbridge.events.block.broken", parse=parse_block_changes)

    def capabilities(self) -> Reply[frozenset[str]]:
        return self.command("mcbridge.capabilities", parse=parse_capabilities)
