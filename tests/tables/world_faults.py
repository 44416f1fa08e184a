"""Fault harness for tables on the embedded world: kill it, restart it empty on the same
port, and drive a rig through the outage the way `Supervisor.run` does.

[decided here] It lives beside table_support until the `wire` branch's `tests/faults`
package (the link-fault `FaultProxy`) is on main; then it belongs there, next to the proxy.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from table_support import MAX_CYCLES, Rig

from mcbridge.tables.demo import TableBot
from mcbridge.world.embedded import EmbeddedHandle, start_embedded
from mcbridge.world.errors import WorldError


def kill_world(world: EmbeddedHandle) -> int:
    """Stop the world at once (every connection dropped, nothing saved); returns its port."""
    port = world.port
    world.stop()
    return port


def restart_world(world: EmbeddedHandle) -> EmbeddedHandle:
    """Kill the world and start an empty one on the same port, as a server restarted
    without its save would be. The caller stops the new one."""
    return start_embedded(port=kill_world(world), tps=0)


def step_through_outages(rig: Rig) -> bool:
    """One controller cycle; a lost world pauses the tables as `Supervisor.run` does.
    Returns whether the cycle went through."""
    rig.clock.now += 0.05
    try:
        rig.supervisor.step()
    except WorldError:
        rig.supervisor.protocol.world_lost()
        return False
    return True


def run_until(rig: Rig, done: Callable[[], bool], max_cycles: int = MAX_CYCLES) -> None:
    """Cycle (controller, then the bots) until `done()`, riding out outages."""
    for _ in range(max_cycles):
        if done():
            return
        if step_through_outages(rig):
            for bot in rig.bots:
                bot.act()
    raise AssertionError(f"not done after {max_cycles} cycles")


def rejoin_bots(world: EmbeddedHandle, bots: Sequence[TableBot], order: Sequence[int]) -> None:
    """The bots' players join `world` in `order` (indexes into `bots`): entity ids then go
    to other people than before a restart."""
    for i in order:
        bot = bots[i]
        bot.player = world.players.join(bot.player.name)
        bot.spot = None


def walk_bots_in(bots: Sequence[TableBot]) -> None:
    for bot in bots:
        bot.sit_down(by_walking=True)
