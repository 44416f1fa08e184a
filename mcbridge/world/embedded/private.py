"""Private blocks and placement attribution: the ``private`` and ``placements`` extensions.

The flying-squid bridge shows a private block to one client only (server/lib/private.js);
here there are no clients, so "what a player sees" is the world with that player's
overlays on top (:mod:`.overlays`: ``seen_block``/``seen_sign``, what a simulated player
would read from its chunk data). Everybody else reads the neutral world block.

Wire format (server/README.md has the full table; both servers answer the same):

``mcbridge.private.setBlock(player,x,y,z,id[,data])``
    Setter. ``player`` sees id:data at x,y,z; the world keeps its own block there.
``mcbridge.private.setSign(player,x,y,z,id,data[,line1..line4])``
    Setter. A private sign (id 63 or 68); lines not given keep the text of the same private
    sign. ``Fail`` for any other id.
``mcbridge.private.clear(player[,x1,y1,z1,x2,y2,z2])``
    Setter. Removes that player's overlays (inside the cuboid when given).
``mcbridge.events.block.placed()`` / ``mcbridge.events.block.broken()``
    Queries. ``entityId,x,y,z,id,data`` records joined by ``|``, oldest first: every block a
    player placed (or broke: the block it was) since the last poll on this connection.

``Fail`` for a name that is not 1-16 of ``[A-Za-z0-9_]``, an unknown block id, or past the
caps of :mod:`.overlays` (which bound what one runaway controller can pin in memory).
"""

from __future__ import annotations

from collections import deque

from . import ids
from .commands import Call, CommandFailed, _block_id, _cuboid, command
from .javatext import parse_byte
from .overlays import BlockChange
from .storage import state_of


@command("mcbridge.private.setBlock")
def private_set_block(call: Call) -> None:
    owner, position = call.arg(0), call.block_position(1)
    block_id = _block_id(call.arg(4))
    data = parse_byte(call.arg(5)) if len(call.args) > 5 else 0
    if call.world.store.in_world(*position):
        call.world.private.set(owner, position, state_of(block_id, data))


@command("mcbridge.private.setSign")
def private_set_sign(call: Call) -> None:
    owner, position = call.arg(0), call.block_position(1)
    block_id = _block_id(call.arg(4))
    data = parse_byte(call.arg(5))
    if block_id not in ids.SIGN_BLOCKS:
        raise CommandFailed(f"block {block_id} is no sign")
    lines = {index - 6: call.args[index] for index in range(6, min(10, len(call.args)))}
    if call.world.store.in_world(*position):
        call.world.private.set(owner, position, state_of(block_id, data), lines)


@command("mcbridge.private.clear")
def private_clear(call: Call) -> None:
    owner = call.arg(0)
    if len(call.args) > 1:
        shifted = Call(call.session, call.world, call.args[1:])
        call.world.private.clear(owner, *_cuboid(shifted))
    else:
        call.world.private.clear(owner)


def _changes(call: Call, queue: deque[BlockChange]) -> str:
    taken = list(queue)
    queue.clear()
    return "|".join(
        f"{c.entity_id},{call.relative_block(c.position)},{c.state >> 4},{c.state & 0xF}"
        for c in taken
    )


@command("mcbridge.events.block.placed")
def events_block_placed(call: Call) -> str:
    return _changes(call, call.session.placed)


@command("mcbridge.events.block.broken")
def events_block_broken(call: Call) -> str:
    return _changes(call, call.session.broken)
