"""[FAIRPLAY] walls nobody can frame: an intruder's wool on a seat's wall, a broken torch.

Where the server reports placements with the placer's entity id, wool someone else puts on a
seat's wool wall is taken down at once and said in chat with the placer's name; the seat is
never blamed for it at the Reveal. A torch broken off a wall the controller lights is put
back and reported (who, where). Both dispensing modes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from table_support import MAX_CYCLES, Rig, mcpi_client, seat_bots, shipped_arena

from mcbridge.games.wool_bluff import WoolBluffState
from mcbridge.tables.kits.wool_bluff import TORCH_CHECK_EVERY
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.geometry import Pos

RED_WOOL = (35, 14)
REDSTONE_TORCH = 76


def reveals(r: Rig) -> list[dict[str, Any]]:
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    return [data for _, data in saved.actions if data["type"] == "Reveal"]


@pytest.mark.parametrize("mode", ["give", "booth"])
def test_wool_put_on_another_seats_wall_is_taken_down_and_blamed_on_nobody(
    rig: Callable[..., Rig], world: EmbeddedHandle, mode: str
) -> None:
    r = rig(shipped_arena(dispensing=mode, tamper="forfeit", options={"turns": 1}), placements=True)
    assert r.table.kit.dispensing == mode  # type: ignore[attr-defined]
    spectator = world.players.join("Spectator")
    seat_bots(r)
    r.run_until(lambda: r.table.state is not None and r.table.state.phase == "bid", max_cycles=400)
    eve = world.players.join("Eve")
    world.give("Eve", *RED_WOOL, 2)
    cell = r.arena.seats[1].wool_wall.cells[-1]  # the last cell: where Ben's tenth wool goes
    at = r.arena.frame.to_world(cell)
    eve.place(at.x, at.y, at.z, *RED_WOOL)
    r.step()  # the placement is polled, with Eve's entity id
    r.step()  # and taken down with the next write
    mc = mcpi_client(world)
    assert mc.getBlock(at.x, at.y, at.z) == 0
    mc.conn.socket.close()
    said = f"Eve put a block on seat 2's wool wall at {at.x} {at.y} {at.z}: taken down, it counts against nobody."
    assert said in " ".join(" ".join(spectator.chat_heard()).split())  # cut into chat-box lines

    r.finish()
    state = r.table.state
    assert isinstance(state, WoolBluffState)
    assert [reveal["tampered"] for reveal in reveals(r)] == [[]]  # nobody blamed (forfeit would eliminate)
    assert not any(state.forfeited)


@pytest.mark.parametrize("placements", [True, False])
def test_a_broken_torch_is_put_back_and_reported(
    rig: Callable[..., Rig], world: EmbeddedHandle, placements: bool
) -> None:
    """With placement reports at once and naming the breaker; without, at the next look at the walls."""
    r = rig(shipped_arena(options={"turns": 2}), placements=placements)
    spectator = world.players.join("Spectator")
    seat_bots(r)

    def torches_up() -> bool:
        state = r.table.state
        return isinstance(state, WoolBluffState) and state.turn == 2 and state.phase == "bid" and any(state.torches)

    r.run_until(torches_up, max_cycles=MAX_CYCLES)
    r.step()
    state = r.table.state
    assert isinstance(state, WoolBluffState)
    seat = next(s for s, n in enumerate(state.torches) if n)
    booth = r.table.booth_of(seat)
    cell: Pos = r.arena.seats[booth].torch_wall.cells[0]
    at = r.arena.frame.to_world(cell)
    mc = mcpi_client(world)
    assert mc.getBlock(at.x, at.y, at.z) == REDSTONE_TORCH
    eve = world.players.join("Eve")
    eve.break_block(at.x, at.y, at.z)
    assert mc.getBlock(at.x, at.y, at.z) == 0
    for _ in range(2 if placements else TORCH_CHECK_EVERY + 2):
        r.step()
    assert mc.getBlock(at.x, at.y, at.z) == REDSTONE_TORCH
    mc.conn.socket.close()
    if placements:
        said = f"Eve broke a torch on seat {booth + 1}'s wall at {at.x} {at.y} {at.z}: it is back."
    else:
        said = f"A torch on seat {booth + 1}'s wall at {at.x} {at.y} {at.z} was gone: it is back."
    assert said in " ".join(" ".join(spectator.chat_heard()).split())  # cut into chat-box lines


def test_give_mode_wool_another_player_breaks_off_a_wall_is_put_back(
    rig: Callable[..., Rig], world: EmbeddedHandle
) -> None:
    r = rig(shipped_arena(dispensing="give", tamper="forfeit", options={"turns": 1}), placements=True)
    spectator = world.players.join("Spectator")
    seat_bots(r)
    r.run_until(lambda: r.table.state is not None and r.table.state.phase == "reveal", max_cycles=MAX_CYCLES)
    eve = world.players.join("Eve")
    cell = r.arena.seats[1].wool_wall.cells[0]
    at = r.arena.frame.to_world(cell)
    mc = mcpi_client(world)
    # Ben puts up his hand (the bots act after each cycle); Eve breaks a wool of it at once
    r.run_until(lambda: mc.getBlock(at.x, at.y, at.z) == RED_WOOL[0], max_cycles=20)
    put_up = tuple(mc.getBlockWithData(at.x, at.y, at.z))
    eve.break_block(at.x, at.y, at.z)
    r.step()  # the break is polled, with Eve's id
    r.step()  # and the wool put back with the next write
    assert tuple(mc.getBlockWithData(at.x, at.y, at.z)) == put_up
    mc.conn.socket.close()
    said = f"Eve broke a block of seat 2's wool wall at {at.x} {at.y} {at.z}: it is back."
    assert said in " ".join(" ".join(spectator.chat_heard()).split())  # cut into chat-box lines
    r.finish()
    state = r.table.state
    assert isinstance(state, WoolBluffState)
    assert [reveal["tampered"] for reveal in reveals(r)] == [[]]
    assert not any(state.forfeited)
