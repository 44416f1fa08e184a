"""The RaspberryJuice 1.12.1 command set, with RJ's replies and RJ's failures.

Each handler reads its arguments in the same order as RJ's ``RemoteSession`` (so the same
malformed requests fail, and the same ones slip through), returns the reply line, or
``None`` for "no reply". Any exception becomes ``Fail``, exactly like RJ's catch-all; so
a failing setter still produces one stray ``Fail`` line. A line without ``(`` (or with
nothing after it) raises :class:`MalformedLine`, which RJ throws *outside* its try/catch:
no reply, and the rest of the tick is abandoned.

Namespaced extensions (``mcbridge.*``) live in :mod:`.extensions` and are registered into
the same table.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TypeVar

from mcbridge.world.sanitize import escape_field

from . import ids
from .javatext import (
    format_double,
    format_float,
    parse_block_coord,
    parse_byte,
    parse_double,
    parse_float,
    parse_int,
    split_args,
    wrap_int,
)
from .session import OVERLONG_LINE, Session
from .storage import Position, state_of
from .world import BlockHit, ChatPost, Entity, Player, World

log = logging.getLogger("mcbridge.world.embedded")

FAIL = "Fail"
#: RJ has no cap on a cuboid; one request covering billions of blocks would stall the
#: server for good, so the embedded world refuses (``Fail``) anything larger than a full
#: 256x64x256 region. sakebomb's fork caps at 1,000,000 by default for the same reason.
MAX_CUBOID_BLOCKS = 256 * 64 * 256
#: Position spellings a session remembers (`Call.block_at`); past it, it starts afresh.
POSITIONS_KEPT = 65536


class MalformedLine(Exception):
    """RJ's ``handleLine`` threw before its try/catch: no reply, tick abandoned."""


class CommandFailed(Exception):
    """RJ's explicit ``send("Fail")``."""


@dataclass
class Call:
    """One request being executed: the session, the world and the raw arguments."""

    session: Session
    world: World
    args: list[str]

    def arg(self, index: int) -> str:
        return self.args[index]  # IndexError -> Fail, as ArrayIndexOutOfBounds in RJ

    def block_position(self, first: int) -> Position:
        return self.block_at(self.arg(first), self.arg(first + 1), self.arg(first + 2))

    def block_at(self, x: str, y: str, z: str) -> Position:
        """``parseRelativeBlockLocation``: (int) of a double, plus the block origin.
        Remembered per session (up to `POSITIONS_KEPT` spellings): parsing three numbers was
        the largest part of a setter's time in a busy tick."""
        key = (x, y, z)
        positions = self.session.positions
        at = positions.get(key)
        if at is None:
            ox, oy, oz = self.session.block_origin
            at = (
                wrap_int(parse_block_coord(x) + ox),
                wrap_int(parse_block_coord(y) + oy),
                wrap_int(parse_block_coord(z) + oz),
            )
            if len(positions) >= POSITIONS_KEPT:
                positions.clear()
            positions[key] = at
        return at

    def location(self, first: int) -> tuple[float, float, float]:
        """``parseRelativeLocation``: doubles plus the (double) origin."""
        assert self.session.origin is not None
        ox, oy, oz = self.session.origin
        x = parse_double(self.arg(first))
        y = parse_double(self.arg(first + 1))
        z = parse_double(self.arg(first + 2))
        return (ox + x, oy + y, oz + z)

    def relative_block(self, position: Position) -> str:
        ox, oy, oz = self.session.block_origin
        x, y, z = position
        return f"{wrap_int(x - ox)},{wrap_int(y - oy)},{wrap_int(z - oz)}"

    def relative_location(self, entity: Entity) -> str:
        assert self.session.origin is not None
        ox, oy, oz = self.session.origin
        return ",".join(map(format_double, (entity.x - ox, entity.y - oy, entity.z - oz)))

    def current_player(self) -> Player:
        """RJ's ``getCurrentPlayer``: the first online player, pinned for the session."""
        if self.session.attached_player is None:
            self.session.attached_player = self.world.players[0] if self.world.players else None
        if self.session.attached_player is None:
            raise CommandFailed("nobody is online")  # RJ: NullPointerException
        return self.session.attached_player

    def entity(self, index: int) -> Entity | None:
        return self.world.entity(parse_int(self.arg(index)))


Handler = Callable[[Call], "str | None"]
COMMANDS: dict[str, Handler] = {}


def command(name: str) -> Callable[[Handler], Handler]:
    """Register a handler under a request name (unknown names answer ``Fail``)."""

    def register(handler: Handler) -> Handler:
        COMMANDS[name] = handler
        return handler

    return register


def run_line(session: Session, world: World, line: str) -> str | None:
    """Execute one request line; the reply line or None."""
    if line == OVERLONG_LINE:
        return FAIL
    paren = line.find("(")
    if paren < 0 or paren + 1 > len(line) - 1:
        raise MalformedLine(line[:80])
    name = line[:paren]
    args = split_args(line[paren + 1 : -1])
    handler = COMMANDS.get(name)
    if handler is None:
        log.warning("%s is not supported.", name[:80])
        return FAIL
    try:
        return handler(Call(session, world, args))
    except Exception as exc:  # RJ's catch-all: every error is a Fail line
        log.debug("%s failed: %r", name, exc)
        return FAIL


# ---------------------------------------------------------------------------- blocks
def _cuboid(call: Call) -> tuple[Position, Position]:
    a, b = call.block_position(0), call.block_position(3)
    low = (min(a[0], b[0]), min(a[1], b[1]), min(a[2], b[2]))
    high = (max(a[0], b[0]), max(a[1], b[1]), max(a[2], b[2]))
    volume = (high[0] - low[0] + 1) * (high[1] - low[1] + 1) * (high[2] - low[2] + 1)
    if volume > MAX_CUBOID_BLOCKS:
        raise CommandFailed(f"cuboid of {volume} blocks is over {MAX_CUBOID_BLOCKS}")
    return low, high


def _block_id(text: str) -> int:
    block_id = parse_int(text)
    if block_id not in ids.BLOCK_IDS:
        raise CommandFailed(f"unknown block id {block_id}")
    return block_id


@command("world.getBlock")
def get_block(call: Call) -> str:
    return str(call.world.store.get(*call.block_position(0)) >> 4)


@command("world.getBlockWithData")
def get_block_with_data(call: Call) -> str:
    state = call.world.store.get(*call.block_position(0))
    return f"{state >> 4},{state & 0xF}"


#: Up to this many blocks a getBlocks is read block by block: faster than an array for the
#: short rows the client uses as fences (one per setter segment and between queries).
_SMALL_READ = 64


@command("world.getBlocks")
def get_blocks(call: Call) -> str:
    low, high = _cuboid(call)
    (x0, y0, z0), (x1, y1, z1) = low, high
    store = call.world.store
    if (x1 - x0 + 1) * (y1 - y0 + 1) * (z1 - z0 + 1) <= _SMALL_READ:
        return ",".join(map(str, store.small_ids(low, high)))
    return ",".join(map(str, (store.read(low, high) >> 4).ravel().tolist()))


@command("world.getBlocksWithData")
def get_blocks_with_data(call: Call) -> str:
    """RaspberryJamMod's region read (`id,data|id,data|...`, getBlocks order): a wool wall's
    colours in one line where RaspberryJuice needs a getBlockWithData per block. Advertised
    as the `blocks_with_data` capability (extensions.py)."""
    low, high = _cuboid(call)
    states = call.world.store.read(low, high).ravel().tolist()
    return "|".join(f"{state >> 4},{state & 0xF}" for state in states)


@command("world.setBlock")
def set_block(call: Call) -> None:
    position = call.block_position(0)
    block_id = _block_id(call.arg(3))
    data = parse_byte(call.arg(4)) if len(call.args) > 4 else 0
    call.world.store.set(*position, state_of(block_id, data))  # no-op when equal


@command("world.setBlocks")
def set_blocks(call: Call) -> None:
    low, high = _cuboid(call)
    block_id = _block_id(call.arg(6))
    data = parse_byte(call.arg(7)) if len(call.args) > 7 else 0
    call.world.store.fill(low, high, state_of(block_id, data))


@command("world.setSign")
def set_sign(call: Call) -> None:
    position = call.block_position(0)
    block_id = _block_id(call.arg(3))
    data = parse_byte(call.arg(4))
    call.world.store.set(*position, state_of(block_id, data))
    lines = {index - 5: call.args[index] for index in range(5, min(9, len(call.args)))}
    call.world.set_sign_lines(position, lines)


@command("world.getHeight")
def get_height(call: Call) -> str:
    ox, oy, oz = call.session.block_origin
    x = wrap_int(parse_block_coord(call.arg(0)) + ox)
    z = wrap_int(parse_block_coord(call.arg(1)) + oz)
    return str(call.world.store.highest_open_y(x, z) - oy)


# --------------------------------------------------------------------------- players
@command("world.getPlayerIds")
def get_player_ids(call: Call) -> str:
    if not call.world.players:
        return FAIL
    return "|".join(str(p.entity_id) for p in call.world.players)


@command("world.getPlayerId")
def get_player_id(call: Call) -> str:
    player = call.world.player_named(call.arg(0))
    return FAIL if player is None else str(player.entity_id)


@command("entity.getName")
def get_name(call: Call) -> str | None:
    entity = call.entity(0)
    # Unknown id: RJ sends nothing at all. Names are escaped (server/README.md).
    return None if entity is None else escape_field(entity.name)


@command("player.getTile")
def player_get_tile(call: Call) -> str:
    return call.relative_block(call.current_player().block_position())


@command("player.setTile")
def player_set_tile(call: Call) -> None:
    x, y, z = call.arg(0), call.arg(1), call.arg(2)
    player = call.current_player()
    player.x, player.y, player.z = map(float, call.block_at(x, y, z))


@command("player.getPos")
def player_get_pos(call: Call) -> str:
    return call.relative_location(call.current_player())


@command("player.setPos")
def player_set_pos(call: Call) -> None:
    call.arg(2)
    player = call.current_player()
    player.x, player.y, player.z = call.location(0)


@command("player.getAbsPos")
def player_get_abs_pos(call: Call) -> str:
    p = call.current_player()
    # RJ sends Location.toString(), which no client can parse; reproduced as is.
    return (
        f"Location{{world=CraftWorld{{name=world}},x={format_double(p.x)},"
        f"y={format_double(p.y)},z={format_double(p.z)},pitch={format_float(p.pitch)},"
        f"yaw={format_float(p.yaw)}}}"
    )


@command("player.setAbsPos")
def player_set_abs_pos(call: Call) -> None:
    x, y, z = call.arg(0), call.arg(1), call.arg(2)
    player = call.current_player()
    player.x, player.y, player.z = parse_double(x), parse_double(y), parse_double(z)


@command("player.getDirection")
def player_get_direction(call: Call) -> str:
    return ",".join(map(format_double, call.current_player().direction()))


@command("player.setDirection")
def player_set_direction(call: Call) -> None:
    vector = parse_double(call.arg(0)), parse_double(call.arg(1)), parse_double(call.arg(2))
    call.current_player().look_along(*vector)


@command("player.getRotation")
def player_get_rotation(call: Call) -> str:
    return format_float(abs(call.current_player().yaw))  # RJ flips a negative yaw's sign


@command("player.setRotation")
def player_set_rotation(call: Call) -> None:
    yaw = parse_float(call.arg(0))
    player = call.current_player()
    player.set_look(yaw, player.pitch)


@command("player.getPitch")
def player_get_pitch(call: Call) -> str:
    return format_float(call.current_player().pitch)


@command("player.setPitch")
def player_set_pitch(call: Call) -> None:
    pitch = parse_float(call.arg(0))
    player = call.current_player()
    player.set_look(player.yaw, pitch)


# --------------------------------------------------------------------------- entities
def _found(entity: Entity | None) -> Entity:
    if entity is None:
        raise CommandFailed("entity not found")
    return entity


@command("entity.getTile")
def entity_get_tile(call: Call) -> str:
    return call.relative_block(_found(call.entity(0)).block_position())


@command("entity.setTile")
def entity_set_tile(call: Call) -> None:
    call.arg(3)
    entity = _found(call.entity(0))
    entity.x, entity.y, entity.z = map(float, call.block_position(1))


@command("entity.getPos")
def entity_get_pos(call: Call) -> str:
    return call.relative_location(_found(call.entity(0)))


@command("entity.setPos")
def entity_set_pos(call: Call) -> None:
    call.arg(3)
    entity = _found(call.entity(0))
    entity.x, entity.y, entity.z = call.location(1)


@command("entity.getDirection")
def entity_get_direction(call: Call) -> str:
    return ",".join(map(format_double, _found(call.entity(0)).direction()))


@command("entity.getRotation")
def entity_get_rotation(call: Call) -> str:
    return format_float(_found(call.entity(0)).yaw)


@command("entity.getPitch")
def entity_get_pitch(call: Call) -> str:
    return format_float(_found(call.entity(0)).pitch)


@command("entity.setDirection")
def entity_set_direction(call: Call) -> None:
    entity = call.entity(0)
    if entity is not None:  # RJ: silent when the id is unknown
        entity.look_along(
            parse_double(call.arg(1)), parse_double(call.arg(2)), parse_double(call.arg(3))
        )


@command("entity.setRotation")
def entity_set_rotation(call: Call) -> None:
    entity = call.entity(0)
    if entity is not None:
        entity.set_look(parse_float(call.arg(1)), entity.pitch)


@command("entity.setPitch")
def entity_set_pitch(call: Call) -> None:
    entity = call.entity(0)
    if entity is not None:
        entity.set_look(entity.yaw, parse_float(call.arg(1)))


# ----------------------------------------------------------------- entity collections
def _entity_record(entity: Entity) -> str:
    assert entity.type is not None
    coords = ",".join(map(format_double, (entity.x, entity.y, entity.z)))
    return f"{entity.entity_id},{entity.type.type_id},{entity.type.name},{coords}|"


def _spawnable_of_type(world: World, type_id: int) -> Iterable[Entity]:
    """RJ's getEntities filter: spawnable types (so never players), -1 for all."""
    return (
        e
        for e in world.mobs.values()
        if e.type is not None and type_id in (-1, e.type.type_id)
    )


def _near(centre: Entity | None, distance: int, found: Iterable[Entity]) -> list[Entity]:
    # RJ's getDistance answers -1 for an unknown centre entity, which is always "near".
    return [e for e in found if centre is None or centre.distance_to(e) <= distance]


def _remove(world: World, doomed: Iterable[Entity]) -> str:
    # Players are never removed: the embedded world keeps its simulated players online.
    return str(sum(world.remove_entity(e.entity_id) for e in list(doomed)))


@command("world.spawnEntity")
def spawn_entity(call: Call) -> str:
    x, y, z = call.block_position(0)
    type_id = parse_int(call.arg(3))
    return str(call.world.spawn_entity(type_id, float(x), float(y), float(z)).entity_id)


@command("world.getEntityTypes")
def get_entity_types(call: Call) -> str:
    return "".join(f"{t.type_id},{t.name}|" for t in ids.ENTITY_TYPES.values())


@command("world.getEntities")
def world_get_entities(call: Call) -> str:
    type_id = parse_int(call.arg(0))
    return "".join(map(_entity_record, _spawnable_of_type(call.world, type_id)))


@command("world.removeEntity")
def world_remove_entity(call: Call) -> str:
    if not any(True for _ in call.world.all_entities()):
        return "0"  # RJ parses the id inside its loop over the world's entities
    return "1" if call.world.remove_entity(parse_int(call.arg(0))) else "0"


@command("world.removeEntities")
def world_remove_entities(call: Call) -> str:
    type_id = parse_int(call.arg(0))
    return _remove(call.world, _spawnable_of_type(call.world, type_id))


@command("player.getEntities")
def player_get_entities(call: Call) -> str:
    player = call.current_player()
    distance, type_id = parse_int(call.arg(0)), parse_int(call.arg(1))
    found = _near(player, distance, _spawnable_of_type(call.world, type_id))
    return "".join(map(_entity_record, found))


@command("player.removeEntities")
def player_remove_entities(call: Call) -> str:
    player = call.current_player()
    distance, type_id = parse_int(call.arg(0)), parse_int(call.arg(1))
    return _remove(call.world, _near(player, distance, _spawnable_of_type(call.world, type_id)))


@command("entity.getEntities")
def entity_get_entities(call: Call) -> str:
    centre = call.entity(0)
    distance, type_id = parse_int(call.arg(1)), parse_int(call.arg(2))
    found = _near(centre, distance, _spawnable_of_type(call.world, type_id))
    return "".join(map(_entity_record, found))


@command("entity.removeEntities")
def entity_remove_entities(call: Call) -> str:
    centre = call.entity(0)
    distance, type_id = parse_int(call.arg(1)), parse_int(call.arg(2))
    return _remove(call.world, _near(centre, distance, _spawnable_of_type(call.world, type_id)))


# ------------------------------------------------------------------------ chat, events
@command("chat.post")
def chat_post(call: Call) -> None:
    if not call.args:
        raise CommandFailed("nothing left after split")  # RJ: substring(0, -1) throws
    call.world.broadcast(",".join(call.args))


_Event = TypeVar("_Event", BlockHit, ChatPost)


def _take(queue: deque[_Event], entity_id: int | None) -> list[_Event]:
    """Remove and return the queued events of one entity (None: all), oldest first."""
    taken = [e for e in queue if entity_id is None or e.entity_id == entity_id]
    kept = [e for e in queue if entity_id is not None and e.entity_id != entity_id]
    queue.clear()
    queue.extend(kept)
    return taken


def _hits(call: Call, entity_id: int | None) -> str:
    return "|".join(
        f"{call.relative_block(hit.position)},{hit.face},{hit.entity_id}"
        for hit in _take(call.session.hits, entity_id)
    )


def _chats(call: Call, entity_id: int | None) -> str:
    return "|".join(
        f"{post.entity_id},{escape_field(post.message)}"
        for post in _take(call.session.chats, entity_id)
    )


def _clear_events(call: Call, entity_id: int) -> None:
    _take(call.session.hits, entity_id)
    _take(call.session.chats, entity_id)


@command("events.clear")
def events_clear(call: Call) -> None:
    call.session.hits.clear()
    call.session.chats.clear()
    call.session.placed.clear()
    call.session.broken.clear()


@command("events.block.hits")
def events_block_hits(call: Call) -> str:
    return _hits(call, None)


@command("events.chat.posts")
def events_chat_posts(call: Call) -> str:
    return _chats(call, None)


# The simulator has no bows, so projectile queues are always empty; the argument checks
# still match RJ (an entity id is parsed, a current player is required).
@command("events.projectile.hits")
def projectile_hits(call: Call) -> str:
    return ""


@command("entity.events.projectile.hits")
def entity_projectile_hits(call: Call) -> str:
    parse_int(call.arg(0))
    return ""


@command("player.events.projectile.hits")
def player_projectile_hits(call: Call) -> str:
    call.current_player()
    return ""


@command("entity.events.clear")
def entity_events_clear(call: Call) -> None:
    _clear_events(call, parse_int(call.arg(0)))


@command("entity.events.block.hits")
def entity_block_hits(call: Call) -> str:
    return _hits(call, parse_int(call.arg(0)))


@command("entity.events.chat.posts")
def entity_chat_posts(call: Call) -> str:
    return _chats(call, parse_int(call.arg(0)))


@command("player.events.clear")
def player_events_clear(call: Call) -> None:
    _clear_events(call, call.current_player().entity_id)


@command("player.events.block.hits")
def player_block_hits(call: Call) -> str:
    return _hits(call, call.current_player().entity_id)


@command("player.events.chat.posts")
def player_chat_posts(call: Call) -> str:
    return _chats(call, call.current_player().entity_id)
