"""What each reply line must look like: a line of the wrong shape is a desync, never a value.

RaspberryJuice replies carry no request id, so a dropped, duplicated or cut line (a broken
middlebox, a plugin that prints, a hostile proxy) shifts every later reply onto the wrong
command. Most shifts change the shape: `world.getBlocks` of 4 blocks answered with 2 ids,
a position where an id was due, a hit record with 4 fields. `problem(command, line)` says
what is wrong with a line for a command, or None when it fits; the pipeline then resyncs and
fails the whole batch instead of handing out the value. Shifts that keep the shape are
caught by the batch's closing fence (see `pipeline`).

Commands not listed here (plugins' own) are not checked.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcbridge.world.pipeline import Command

_INT = r"-?\d+"
_FLOAT = r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+(?:[eE][-+]?\d+)?|NaN|Infinity)"
_NAME_FIELD = r"[^,|]*"

Check = Callable[["Command", str], "str | None"]


def _pattern(regex: str, what: str) -> Check:
    compiled = re.compile(regex)

    def check(_command: Command, line: str) -> str | None:
        return None if compiled.fullmatch(line) else what

    return check


def _records(record: str, what: str, *, trailing_bar: bool = False) -> Check:
    """An empty line, or records joined by `|` (RJ's entity lists also end with one)."""
    sep = r"\|"
    regex = f"(?:{record}{sep})*{record}{sep}?" if trailing_bar else f"(?:{record}{sep})*{record}"
    return _pattern(f"(?:{regex})?", what)


def _ints(count: int) -> Check:
    return _pattern(",".join([_INT] * count), f"{count} integer(s)")


def _floats(count: int) -> Check:
    return _pattern(",".join([_FLOAT] * count), f"{count} number(s)")


_ID_LIST = re.compile(rf"{_INT}(?:,{_INT})*")


def _volume(command: Command) -> int | None:
    try:
        x1, y1, z1, x2, y2, z2 = (int(float(a)) for a in command.args[:6])
    except ValueError:
        return None
    return (abs(x2 - x1) + 1) * (abs(y2 - y1) + 1) * (abs(z2 - z1) + 1)


def _one_per_block(records: re.Pattern[str], sep: str, what: str, joined: str) -> Check:
    """A region read: exactly one record (`records` joined by `sep`) per block of the cuboid."""

    def check(command: Command, line: str) -> str | None:
        volume = _volume(command) if len(command.args) >= 6 else None
        if not records.fullmatch(line):
            return f"{volume or 'some'} {joined}"
        if volume is not None and line.count(sep) + 1 != volume:
            return f"{volume} {what} (the cuboid's volume), not {line.count(sep) + 1}"
        return None

    return check


#: `world.getBlocks`: one id per block; `world.getBlocksWithData`: one `id,data` record per block.
_block_ids = _one_per_block(_ID_LIST, ",", "block ids", "comma-separated block ids")
_block_records = _one_per_block(re.compile(rf"{_INT},{_INT}(?:\|{_INT},{_INT})*"), "|", "id,data records",
                                "id,data records joined by |")


_CHAT_HEAD = re.compile(rf"({_INT}),")


def _chat_posts(command: Command, line: str) -> str | None:
    """`id,message|...`: the line starts with a record; a per-player poll's with that id.

    Later records are not checked: plain RaspberryJuice does not escape `|` in messages
    (ours do, server/README.md), so a message may legitimately look like several records.
    """
    if not line:
        return None
    head = _CHAT_HEAD.match(line)
    if head is None:
        return "chat records (entityId,message|...)"
    per_player = command.name == "entity.events.chat.posts" and command.args
    if per_player and head.group(1) != command.args[0].strip():
        return f"chat records of entity {command.args[0]}"
    return None


_HIT = ",".join([_INT] * 5)
_PROJECTILE = ",".join([_INT] * 4 + [_NAME_FIELD] * 2)
_ENTITY = ",".join([_INT, _INT, _NAME_FIELD, _FLOAT, _FLOAT, _FLOAT])

_CHECKS: dict[str, Check] = {
    "world.getBlock": _ints(1),
    "world.getBlockWithData": _ints(2),
    "world.getBlocks": _block_ids,
    "world.getBlocksWithData": _block_records,
    "world.getHeight": _ints(1),
    "world.getPlayerIds": _records(_INT, "player ids joined by |"),
    "world.getPlayerId": _ints(1),
    "world.spawnEntity": _ints(1),
    "world.removeEntity": _ints(1),
    "world.removeEntities": _ints(1),
    "world.getEntities": _records(_ENTITY, "entity records", trailing_bar=True),
    "world.getEntityTypes": _records(f"{_INT},{_NAME_FIELD}", "entity types", trailing_bar=True),
    "player.getTile": _ints(3),
    "entity.getTile": _ints(3),
    "player.getPos": _floats(3),
    "entity.getPos": _floats(3),
    "player.getDirection": _floats(3),
    "entity.getDirection": _floats(3),
    "player.getRotation": _floats(1),
    "entity.getRotation": _floats(1),
    "player.getPitch": _floats(1),
    "entity.getPitch": _floats(1),
    "player.getEntities": _records(_ENTITY, "entity records", trailing_bar=True),
    "entity.getEntities": _records(_ENTITY, "entity records", trailing_bar=True),
    "player.removeEntities": _ints(1),
    "entity.removeEntities": _ints(1),
    "events.block.hits": _records(_HIT, "block-hit records (x,y,z,face,entityId|...)"),
    "player.events.block.hits": _records(_HIT, "block-hit records (x,y,z,face,entityId|...)"),
    "entity.events.block.hits": _records(_HIT, "block-hit records (x,y,z,face,entityId|...)"),
    "events.projectile.hits": _records(_PROJECTILE, "projectile-hit records"),
    "player.events.projectile.hits": _records(_PROJECTILE, "projectile-hit records"),
    "entity.events.projectile.hits": _records(_PROJECTILE, "projectile-hit records"),
    "events.chat.posts": _chat_posts,
    "player.events.chat.posts": _chat_posts,
    "entity.events.chat.posts": _chat_posts,
    "entity.getName": _pattern(r"[^,|]*", "a name"),
    "mcbridge.events.block.placed": _records(",".join([_INT] * 6), "block-change records"),
    "mcbridge.events.block.broken": _records(",".join([_INT] * 6), "block-change records"),
    "mcbridge.capabilities": _pattern(r"(?:[A-Za-z0-9_.=-]+(?:,[A-Za-z0-9_.=-]+)*)?", "names"),
    "mcbridge.getSign": _pattern(r"\[.*\]", "a JSON array"),
    "mcbridge.auth": _pattern(r"1", "1"),
}


def problem(command: Command, line: str) -> str | None:
    """What `line` should have been as the reply to `command`, or None if it fits."""
    check = _CHECKS.get(command.name)
    return None if check is None else check(command, line)
