"""The embedded world: a Python server that speaks RaspberryJuice like a Bukkit server.

Without a Minecraft server the whole project still runs for real against this package:
it implements every command of RaspberryJuice 1.12.1 that a Bukkit server supports, with
RJ's observable behaviour (protocol/raspberryjuice.md is the authority): replies only on a
tick, at most 9000 lines per connection per tick, ``Fail`` exactly where RJ fails, silence
(and the rest of the tick abandoned) on a malformed line, relative coordinates, and event
queues per connection. Players are simulated.

Use from synchronous code (tests, bots, demo)::

    from mcbridge.world.embedded import start_embedded

    with start_embedded(port=0, tps=0) as server:      # tps=0: tick as soon as there is work
        alice = server.players.join("alice")            # a SimPlayer
        alice.hold(276)                                 # diamond sword
        mc = mcpi.minecraft.Minecraft.create(server.host, server.port)
        ...

``start_embedded(host="127.0.0.1", port=0, *, tps=20, world=None, world_file=None,
absolute=False)`` returns an :class:`EmbeddedHandle`, which implements
:class:`mcbridge.world.driver.ServerHandle` (``kind``, ``host``, ``port``, ``players``,
``stop()``) and adds:

* ``get_block/set_block/fill/sign_lines`` -- world access without the wire, in protocol
  coordinates (relative to ``origin``);
* ``give(name, item_id, data, count)`` and ``tell(name, text)`` -- the server side of the
  ``mcbridge.give``/``mcbridge.tell`` extensions (see :mod:`.extensions` for the wire
  format, which the flying-squid bridge implements identically);
* ``ticks``, ``pause()``, ``resume()``, ``step(n)``, ``queued_lines()`` -- the tick clock,
  for tests that count ticks instead of measuring time;
* ``save(path)`` -- write the world (see :mod:`.worldfile`); ``world_file=`` loads one;
* ``public_chat()`` -- every broadcast line; ``call(func)`` -- run ``func`` on the
  server's loop thread between ticks (the escape hatch for anything else).

The world is flying-squid's superflat (bedrock y=0, dirt 1-3, grass 4) with the spawn,
and so the relative origin, at (0,5,0). ``absolute=True`` makes the origin (0,0,0), like
RJ's ``location: ABSOLUTE``. :class:`EmbeddedServer` is the asyncio server itself, for
code that already runs a loop (``mcbridge world serve`` uses it).

Deliberate differences from RJ, each to keep a test server alive and bounded: lines over
1 MiB and cuboids over 256x64x256 blocks answer ``Fail``; a connection's input is read no
further while 100,000 lines wait; event queues keep the newest 100,000 events; players are
never removed by ``removeEntity(ies)``; no block physics; block data is stored as its low
four bits; nobody shoots arrows, so projectile polls are always empty.
"""

from .handle import EmbeddedHandle, start_embedded
from .server import DEFAULT_PORT, EmbeddedServer
from .simulator import EmbeddedPlayer, EmbeddedPlayers
from .world import World, WorldError
from .worldfile import WorldFileError, load_world, save_world

__all__ = [
    "DEFAULT_PORT",
    "EmbeddedHandle",
    "EmbeddedPlayer",
    "EmbeddedPlayers",
    "EmbeddedServer",
    "World",
    "WorldError",
    "WorldFileError",
    "load_world",
    "save_world",
    "start_embedded",
]
