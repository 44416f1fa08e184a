"""The fault harness: kill a world, bring it back empty on the same port, drive a controller
through the outage, and bring the players back in another order. Links that break are
`faults.proxy.FaultProxy` (re-exported here, so one import gives the whole harness).

Worlds: the embedded one (`kill_world`, `restart_world`) and flying-squid (`kill_squid`,
`restart_squid`: SIGKILL of the Node process by PID, a new one on the same two ports with a
fresh temporary world, so it comes back empty, as a server restarted without its save).
Controllers: anything with a step clock (`clock.now`) and a `Supervisor` (`supervisor`), the
table rigs of tests/tables and tests/server alike; `step_through_outages` does what
`Supervisor.run` does when the world is lost (pause every table, retry next cycle), on the
rig's step clock. Usable from any test directory and from bench/ (tests/ on sys.path).
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from faults.proxy import FaultProxy, Faults
from mcbridge.tables.supervisor import Supervisor
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.errors import WorldError
from mcbridge.world.realserver import FlyingSquidServer, start_flying_squid

__all__ = [
    "FaultProxy", "Faults", "kill_squid", "kill_world", "rejoin", "restart_squid", "restart_world",
    "run_until", "step_through_outages",
]  # fmt: skip

CYCLE_SECONDS = 0.05  # one controller cycle on the step clock, as at 20 TPS
MAX_CYCLES = 6000
KILL_TIMEOUT = 10.0


class _Clock(Protocol):
    now: float


class Actor(Protocol):
    def act(self) -> None: ...


class Controlled(Protocol):
    """A table rig: its step clock and its supervisor (and the bots playing at it)."""

    @property
    def clock(self) -> _Clock: ...
    @property
    def supervisor(self) -> Supervisor: ...
    @property
    def bots(self) -> Sequence[Actor]: ...


# -- worlds ---------------------------------------------------------------------------------
def kill_world(world: EmbeddedHandle) -> int:
    """Stop the embedded world at once (every connection dropped, nothing saved); its port."""
    port = world.port
    world.stop()
    return port


def restart_world(world: EmbeddedHandle) -> EmbeddedHandle:
    """Kill the world and start an empty one on the same port. The caller stops the new one."""
    return start_embedded(port=kill_world(world), tps=0)


def kill_squid(server: FlyingSquidServer) -> tuple[int, int]:
    """SIGKILL the flying-squid process by its PID (no save, no goodbye to anyone), then stop
    its bots' process; returns (Minecraft port, bridge port) for the restart."""
    ports = (server.minecraft_port, server.port)
    os.kill(server.pid, signal.SIGKILL)
    assert server.process.wait(KILL_TIMEOUT) == -signal.SIGKILL
    server.stop()  # the bots' Node process and the handle's own link
    if server.log_path is not None:
        server.log_path.unlink(missing_ok=True)  # killed on purpose: its log tells nothing
    return ports


def restart_squid(server: FlyingSquidServer, **options: Any) -> FlyingSquidServer:
    """Kill the server and start a new one on the same ports with an empty temporary world
    (`options` go to `start_flying_squid`). The caller stops the new one."""
    minecraft_port, bridge_port = kill_squid(server)
    return start_flying_squid(port=minecraft_port, bridge_port=bridge_port, **options)


# -- controllers ----------------------------------------------------------------------------
def step_through_outages(rig: Controlled, seconds: float = CYCLE_SECONDS) -> bool:
    """One controller cycle; a lost world pauses the tables as `Supervisor.run` does.
    Returns whether the cycle went through."""
    rig.clock.now += seconds
    try:
        rig.supervisor.step()
    except WorldError:
        rig.supervisor.protocol.world_lost()
        return False
    return True


def run_until(rig: Controlled, done: Callable[[], bool], max_cycles: int = MAX_CYCLES) -> None:
    """Cycle (controller, then the bots) until `done()`, riding out outages."""
    for _ in range(max_cycles):
        if done():
            return
        if step_through_outages(rig):
            for bot in rig.bots:
                bot.act()
    raise AssertionError(f"not done after {max_cycles} cycles")


# -- players --------------------------------------------------------------------------------
class _Seated(Protocol):
    player: Any
    spot: Any


def rejoin(bots: Sequence[_Seated], order: Sequence[int], join: Callable[[str], Any]) -> None:
    """The bots' players join again in `order` (indexes into `bots`) through `join(name)`
    (a world's `players.join`, or a wrapper): after a restart, entity ids then go to other
    people than before. Each bot has to walk back to its booth (`spot` forgotten)."""
    for i in order:
        bot = bots[i]
        bot.player = join(bot.player.name)
        bot.spot = None
