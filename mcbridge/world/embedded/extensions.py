"""``mcbridge.*``: what RaspberryJuice lacks and the games need (private channel, items).

RJ cannot message one player or give items (protocol/raspberryjuice.md §2), but the
games must deal hidden hands. Both servers of this project (the embedded world and the
flying-squid bridge in server/) add the same three commands under the ``mcbridge.``
prefix, which no RJ fork uses, so they can never clash with an RJ command. On a plain RJ
server each of them simply answers ``Fail`` ("not supported"), which is how a client
detects their absence.

Wire format (one request line each, arguments split on ``,`` like every RJ command):

``mcbridge.capabilities()``
    Query. Replies one line: the supported extension names joined by ``,`` -- here
    ``give,tell,private,placements,blocks_with_data,escaped,max_box=4194304`` (private and
    placements: :mod:`.private`). A server may list more names later; clients must ignore
    unknown ones.
    ``escaped`` and ``max_box=N`` are not commands: the first says reply fields with player
    text are escaped (server/README.md), so one chat poll for everyone is unforgeable; the
    second, the largest box (in blocks) that ``world.setBlocks`` accepts, so a paste can cut
    bigger ones.

``world.getBlocksWithData(x1,y1,z1,x2,y2,z2)`` (capability ``blocks_with_data``)
    Query. RaspberryJamMod's region read, same name and format: ``id,data|id,data|...``, one
    record per block of the box in ``world.getBlocks`` order (y, then x, then z fastest).
    ``Fail`` for a box over ``max_box``. Plain RaspberryJuice lacks it (``Fail``), so a client
    uses it only where the capability is listed, else one ``getBlockWithData`` per block.

``mcbridge.give(playerName,itemId,data,count)``
    Setter. Puts ``count`` items ``itemId:data`` (legacy 1.12 numbers, e.g. ``35,14,10``
    for ten red wool) into that player's inventory. No reply on success. ``Fail`` when no
    online player has exactly that name (case-sensitive, like ``world.getPlayerId``),
    when an argument is missing or not an integer, when the item id does not exist in
    1.12 (0 included), when data is outside 0..32767 or count outside 1..2304.

``mcbridge.tell(playerName,text)``
    Setter. Sends ``text`` to that one player only. Everything after the first comma is
    the text, commas included (rejoined like ``chat.post``; trailing commas are lost to
    the split). No reply on success; ``Fail`` when no online player has that name.
"""

from __future__ import annotations

from .commands import MAX_CUBOID_BLOCKS, Call, CommandFailed, command
from .javatext import parse_int
from .world import Player

#: `escaped`: no command, a promise: reply fields with player text are escaped (server/README.md);
#: private, placements: private.py; blocks_with_data: world.getBlocksWithData (commands.py)
CAPABILITIES = ("give", "tell", "private", "placements", "blocks_with_data", "escaped")
MAX_GIVE_COUNT = 36 * 64


def _player(call: Call) -> Player:
    player = call.world.player_named(call.arg(0))
    if player is None:
        raise CommandFailed("no such player")
    return player


@command("mcbridge.capabilities")
def capabilities(call: Call) -> str:
    return ",".join((*CAPABILITIES, f"max_box={MAX_CUBOID_BLOCKS}"))


@command("mcbridge.give")
def give(call: Call) -> None:
    player = _player(call)
    item_id, data = parse_int(call.arg(1)), parse_int(call.arg(2))
    count = parse_int(call.arg(3), 1, MAX_GIVE_COUNT)
    call.world.give(player, item_id, data, count)


@command("mcbridge.tell")
def tell(call: Call) -> None:
    call.world.tell(_player(call), ",".join(call.args[1:]))
