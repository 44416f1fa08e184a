"""The embedded world's state: blocks, players, mobs, chat, and what players do.

Everything here runs on the server's event-loop thread (the "main server thread" of a
Bukkit server), so nothing locks. Positions are absolute world coordinates; the protocol
layer converts them to and from a session's origin. Player actions (right-click, chat)
are handed to listeners, which is how the server fans them out to the per-connection
event queues that exist *at that moment*, as RaspberryJuice does.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol

from mcbridge.world.sanitize import clean_player_chat, is_java_name

from . import ids
from .javatext import to_float32
from .overlays import BlockChange, PrivateView, seen_state
from .storage import BlockStore, Position, state_of

#: Where players appear and what the relative origin is: on top of the superflat grass.
DEFAULT_SPAWN: Position = (0, 5, 0)
#: Minecraft 1.12 clients cannot send longer chat lines.
MAX_CHAT_CHARS = 256

# TODO(locale): key "world.welcome" = "Welcome {name}" -- RaspberryJuice's own join
# broadcast; kept verbatim because the protocol reference (and clients) expect it.
WELCOME_TEXT = "Welcome {name}"
# TODO(locale): key "world.chat_line" = "<{name}> {message}" -- vanilla chat format.
CHAT_LINE = "<{name}> {message}"


class WorldError(ValueError):
    """A player action the world refuses (the message says what to do instead)."""


@dataclass
class Entity:
    """A player or a mob. Yaw and pitch are Java floats, as Bukkit stores them."""

    entity_id: int
    x: float
    y: float
    z: float
    yaw: float = 0.0
    pitch: float = 0.0
    type: ids.EntityType | None = None  # None for players

    @property
    def name(self) -> str:
        assert self.type is not None
        return self.type.display_name

    def block_position(self) -> Position:
        return (math.floor(self.x), math.floor(self.y), math.floor(self.z))

    def distance_to(self, other: Entity) -> float:
        return math.dist((self.x, self.y, self.z), (other.x, other.y, other.z))

    def set_look(self, yaw: float, pitch: float) -> None:
        self.yaw = to_float32(math.fmod(yaw, 360.0)) if math.isfinite(yaw) else 0.0
        self.pitch = to_float32(max(-90.0, min(90.0, pitch))) if math.isfinite(pitch) else 0.0

    def direction(self) -> tuple[float, float, float]:
        """Bukkit ``Location.getDirection``."""
        yaw, pitch = math.radians(self.yaw), math.radians(self.pitch)
        xz = math.cos(pitch)
        return (-xz * math.sin(yaw), -math.sin(pitch), xz * math.cos(yaw))

    def look_along(self, dx: float, dy: float, dz: float) -> None:
        """Bukkit ``Location.setDirection``."""
        if dx == 0 and dz == 0:
            self.set_look(self.yaw, -90.0 if dy > 0 else 90.0)
            return
        theta = math.atan2(-dx, dz)
        yaw = math.degrees(math.fmod(theta + 2 * math.pi, 2 * math.pi))
        pitch = math.degrees(math.atan(-dy / math.sqrt(dx * dx + dz * dz)))
        self.set_look(to_float32(yaw), to_float32(pitch))


@dataclass
class Player(Entity):
    """An online (or departed) player with what the simulator needs to remember."""

    player_name: str = ""
    online: bool = True
    inventory: dict[tuple[int, int], int] = field(default_factory=dict)
    held: tuple[int, int] = (ids.AIR, 0)
    private_messages: list[str] = field(default_factory=list)
    #: The world's broadcast log and the part of it this player heard (from joining to leaving):
    #: a broadcast is one append for everyone, not one per online player (hundreds per tick
    #: at 50 busy tables).
    heard_log: list[str] = field(default_factory=list, repr=False)
    heard_from: int = 0
    heard_until: int | None = None

    @property
    def name(self) -> str:
        return self.player_name

    @property
    def chat_heard(self) -> list[str]:
        """Every line broadcast while this player was online, oldest first."""
        return self.heard_log[self.heard_from : self.heard_until]


@dataclass(frozen=True)
class BlockHit:
    position: Position  # absolute
    face: int
    entity_id: int


@dataclass(frozen=True)
class ChatPost:
    entity_id: int
    message: str


class WorldListener(Protocol):
    def block_hit(self, hit: BlockHit) -> None: ...

    def chat_posted(self, post: ChatPost) -> None: ...

    def block_placed(self, change: BlockChange) -> None: ...

    def block_broken(self, change: BlockChange) -> None: ...


class World:
    def __init__(self, store: BlockStore | None = None, spawn: Position = DEFAULT_SPAWN) -> None:
        self.store = store if store is not None else BlockStore()
        self.spawn = spawn
        self.players: list[Player] = []  # online players in join order
        self.mobs: dict[int, Entity] = {}
        self.listeners: list[WorldListener] = []
        self.public_chat: list[str] = []  # everything broadcast, as the console saw it
        self.private = PrivateView()  # per-player overlays (the `private` extension)
        self.next_entity_id = 1

    # ----------------------------------------------------------------------- blocks
    def get_block(self, x: int, y: int, z: int) -> tuple[int, int]:
        state = self.store.get(x, y, z)
        return state >> 4, state & 0xF

    def set_block(self, x: int, y: int, z: int, block_id: int, data: int = 0) -> None:
        if block_id not in ids.BLOCK_IDS:
            raise WorldError(f"{block_id} is not a Minecraft 1.12 block id.")
        self.store.set(x, y, z, state_of(block_id, data))

    def set_sign_lines(self, position: Position, lines: dict[int, str]) -> None:
        """Set some of a sign's four lines; the others keep their text."""
        if (self.store.get(*position) >> 4) not in ids.SIGN_BLOCKS:
            return
        text = self.store.signs.setdefault(position, ["", "", "", ""])
        for index, line in lines.items():
            text[index] = line

    def sign_lines(self, position: Position) -> tuple[str, str, str, str] | None:
        if (self.store.get(*position) >> 4) not in ids.SIGN_BLOCKS:
            return None
        a, b, c, d = self.store.signs.get(position, ["", "", "", ""])
        return (a, b, c, d)

    # --------------------------------------------------------------------- entities
    def new_entity_id(self) -> int:
        entity_id = self.next_entity_id
        self.next_entity_id += 1
        return entity_id

    def entity(self, entity_id: int) -> Entity | None:
        """``plugin.getEntity``: online players first, then mobs."""
        for player in self.players:
            if player.entity_id == entity_id:
                return player
        return self.mobs.get(entity_id)

    def player_named(self, name: str) -> Player | None:
        return next((p for p in self.players if p.player_name == name), None)

    def all_entities(self) -> Iterator[Entity]:
        """``world.getEntities()``: players and mobs."""
        yield from self.players
        yield from self.mobs.values()

    def spawn_entity(self, type_id: int, x: float, y: float, z: float) -> Entity:
        entity_type = ids.ENTITY_TYPES.get(type_id)
        if entity_type is None:
            raise WorldError(f"{type_id} is not a spawnable entity type.")
        entity = Entity(self.new_entity_id(), x, y, z, type=entity_type)
        self.mobs[entity.entity_id] = entity
        return entity

    def remove_entity(self, entity_id: int) -> bool:
        return self.mobs.pop(entity_id, None) is not None

    # ---------------------------------------------------------------------- players
    def join(self, name: str) -> Player:
        """A player logs in; names are checked as vanilla checks them (3-16 of A-Z a-z 0-9 _)."""
        if not is_java_name(name):
            raise WorldError(
                f"{name!r} is not a valid player name: use 3-16 letters (A-Z), digits or '_'."
            )
        if self.player_named(name) is not None:
            raise WorldError(f"A player named {name!r} is already online.")
        sx, sy, sz = self.spawn
        player = Player(self.new_entity_id(), sx + 0.5, float(sy), sz + 0.5, player_name=name,
                        heard_log=self.public_chat, heard_from=len(self.public_chat))
        self.players.append(player)
        self.broadcast(WELCOME_TEXT.format(name=name))
        return player

    def leave(self, player: Player) -> None:
        if player.online:
            player.online = False
            player.heard_until = len(self.public_chat)
            self.players.remove(player)

    def broadcast(self, text: str) -> None:
        self.public_chat.append(text)

    def tell(self, player: Player, text: str) -> None:
        player.private_messages.append(text)

    def give(self, player: Player, item_id: int, data: int, count: int) -> None:
        if item_id not in ids.ITEM_IDS or item_id == ids.AIR:
            raise WorldError(f"{item_id} is not a Minecraft 1.12 item id.")
        if not 0 <= data <= 32767 or count < 1:
            raise WorldError("Item data must be 0..32767 and the count at least 1.")
        key = (item_id, data)
        player.inventory[key] = player.inventory.get(key, 0) + count

    def chat(self, player: Player, message: str) -> None:
        """A player typed a line. Slash commands are not chat (and not chat events).

        Control, format and bidi characters and the section sign are stripped before anyone
        sees the line (as the bridge does); a line left empty is dropped.
        """
        self.require_online(player)
        if len(message) > MAX_CHAT_CHARS:
            raise WorldError(f"A chat line is at most {MAX_CHAT_CHARS} characters.")
        message = clean_player_chat(message)
        if not message or message.startswith("/"):
            return
        for listener in list(self.listeners):
            listener.chat_posted(ChatPost(player.entity_id, message))
        self.broadcast(CHAT_LINE.format(name=player.player_name, message=message))

    def right_click(self, player: Player, position: Position, face: int) -> None:
        """Use the held item on a block. RJ queues a hit only for a sword on a block."""
        self.require_online(player)
        if not 0 <= face <= 5:
            raise WorldError(f"Face {face} is not a block face: use 0..5 (0 down, 1 up).")
        if seen_state(self, player.player_name, position) >> 4 == ids.AIR:
            return  # clicking air is RIGHT_CLICK_AIR, not a block hit (private blocks count)
        if player.held[0] in ids.SWORD_IDS:
            for listener in list(self.listeners):
                listener.block_hit(BlockHit(position, face, player.entity_id))

    def place(self, player: Player, position: Position, item: tuple[int, int]) -> None:
        """Place `item` as the block (id, data). For blocks whose data is only their facing
        (torches, signs, buttons...), the item in the inventory has data 0, as in the game,
        where the facing comes from the clicked face."""
        self.require_online(player)
        block = item
        if item[0] in ids.ORIENTED_IDS and player.inventory.get(item, 0) < 1:
            item = (item[0], 0)
        if player.inventory.get(item, 0) < 1:
            raise WorldError(f"{player.player_name} has no {item} to place: give it first.")
        if item[0] not in ids.BLOCK_IDS or item[0] == ids.AIR:
            raise WorldError(f"Item {item[0]} is not a block and cannot be placed.")
        if not self.store.in_world(*position) or self.store.get(*position) >> 4 != ids.AIR:
            raise WorldError(f"Cannot place at {position}: the spot is not free air.")
        player.held = item
        self.store.set(*position, state_of(*block))
        self._take(player, item)
        change = BlockChange(position, player.entity_id, state_of(*block))
        for listener in list(self.listeners):
            listener.block_placed(change)

    def break_block(self, player: Player, position: Position) -> None:
        self.require_online(player)
        state = self.store.get(*position)
        if state >> 4 in (ids.AIR, ids.BEDROCK):
            raise WorldError(f"Nothing breakable at {position}.")
        self.store.set(*position, state_of(ids.AIR))
        for listener in list(self.listeners):
            listener.block_broken(BlockChange(position, player.entity_id, state))

    def hold(self, player: Player, item: tuple[int, int]) -> None:
        self.require_online(player)
        if item[0] != ids.AIR and player.inventory.get(item, 0) < 1:
            self.give(player, item[0], item[1], 1)
        player.held = item

    @staticmethod
    def _take(player: Player, item: tuple[int, int]) -> None:
        left = player.inventory[item] - 1
        if left:
            player.inventory[item] = left
        else:
            del player.inventory[item]
            if player.held == item:
                player.held = (ids.AIR, 0)

    @staticmethod
    def require_online(player: Player) -> None:
        if not player.online:
            raise WorldError(f"{player.player_name} has left the server.")
