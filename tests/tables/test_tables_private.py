"""[FAIRPLAY] on the table side: private booths, the booth guard, private refusals.

On a server with private blocks (`private`) each booth's private part (hand display, bid
draft, info line, action signs) goes only to its occupant: the world holds the booth wall
material and blank signs there, which is all a spectator, another seated player or a client
reading chunk data sees. Overlays go when the occupant leaves (offline mode: a later joiner
with the same name sees nothing stale) and come back when they return. Without the
capability the booth is drawn in the world, hidden by its walls, and the booth guard moves
anyone else out of an occupied booth.
"""

from __future__ import annotations

from collections.abc import Callable

from table_support import Rig, mcpi_client, seat_players, shipped_arena, walk_into_booth

from mcbridge.games.wool_bluff import WoolBluffState
from mcbridge.tables.kits.wool_bluff_render import WOOL_OF, hand_slots
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.embedded.simulator import EmbeddedPlayer
from mcbridge.world.geometry import Pos

PRIVATE_SIGNS = ("colour", "bid", "info")
BLANK = ("", "", "", "")
DIAMOND_SWORD = 276


def world_pos(r: Rig, local: Pos) -> tuple[int, int, int]:
    p = r.arena.frame.to_world(local)
    return (p.x, p.y, p.z)


def seen_hand(r: Rig, viewer: EmbeddedPlayer, booth: int) -> list[tuple[int, int]]:
    """The hand display of `booth` as `viewer`'s client shows it (its overlays on the world)."""
    return [viewer.seen_block(*world_pos(r, cell)) for cell in r.arena.seats[booth].hand_display.cells]


def seen_signs(r: Rig, viewer: EmbeddedPlayer, booth: int) -> list[tuple[str, ...] | None]:
    signs = r.arena.seats[booth].signs
    seen = [viewer.seen_sign(*world_pos(r, signs[name].at)) for name in PRIVATE_SIGNS]
    return [None if s is None else tuple(line.strip() for line in s) for s in seen]


def drawn_hand(r: Rig, booth: int) -> list[tuple[int, int]]:
    """The hand as the table draws it for its owner (wool by slot, the rest empty slots)."""
    state = r.table.state
    assert isinstance(state, WoolBluffState)
    seat = r.table.rules_seat(booth)
    assert seat is not None
    slots = hand_slots(state.hands[seat])
    cells = r.arena.seats[booth].hand_display.cells
    return [(WOOL_OF[c].id, WOOL_OF[c].data) for c in slots] + [(95, 8)] * (len(cells) - len(slots))


def wall_material(r: Rig) -> tuple[int, int]:
    wall = r.arena.materials["wall"]
    return (wall.id, wall.data)


def test_only_the_occupant_sees_the_hand_and_private_signs(rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    r = rig(shipped_arena(options={"turns": 2}), private=True)
    players = seat_players(r)
    spectator = world.players.join("Spectator")
    walk_into_booth(spectator, r.arena, 2)  # inside someone else's booth (the guard moves them out later)
    r.run_until(lambda: r.table.state is not None and r.table.state.phase == "bid", max_cycles=100)
    r.step()
    neutral = wall_material(r)
    mc = mcpi_client(world)
    for booth, owner in enumerate(players):
        hand = drawn_hand(r, booth)
        assert any(block[0] == 35 for block in hand)
        assert seen_hand(r, owner, booth) == hand
        owner_signs = seen_signs(r, owner, booth)
        assert all(s is not None and s != BLANK for s in owner_signs)  # colour, bid draft, info line
        for other in [spectator, *(p for p in players if p is not owner)]:
            assert seen_hand(r, other, booth) == [neutral] * len(hand), (other.name, booth)
            assert seen_signs(r, other, booth) == [BLANK] * len(PRIVATE_SIGNS), (other.name, booth)
        # what any client reads from the world (getBlocks, chunk data) is the neutral block
        for cell in r.arena.seats[booth].hand_display.cells:
            assert tuple(mc.getBlockWithData(*world_pos(r, cell))) == neutral
        for name in PRIVATE_SIGNS:
            assert _stripped(world.sign_lines(*world_pos(r, r.arena.seats[booth].signs[name].at))) == BLANK
    mc.conn.socket.close()


def _stripped(lines: tuple[str, ...] | None) -> tuple[str, ...] | None:
    return None if lines is None else tuple(line.strip() for line in lines)


def test_a_draft_change_sends_one_private_sign_and_nothing_public(
    rig: Callable[..., Rig], world: EmbeddedHandle
) -> None:
    r = rig(shipped_arena(options={"turns": 2}), private=True)
    players = seat_players(r)
    r.run_until(lambda: r.table.state is not None and r.table.state.phase == "bid", max_cycles=100)
    r.step()
    assert r.supervisor.step().commands == 0  # nothing changed: nothing sent, private or public
    state = r.table.state
    assert state is not None
    [predictor] = state.to_act()
    booth = r.table.booth_of(predictor)
    before = seen_signs(r, players[booth], booth)[1]
    plus = world_pos(r, r.arena.seats[booth].signs["plus"].at)
    players[booth].hold(DIAMOND_SWORD)
    players[booth].right_click(*plus)
    r.step()  # the click is read
    stats = r.supervisor.step()  # the new draft goes out
    assert stats.commands == 1  # the bid button, to its owner only
    after = seen_signs(r, players[booth], booth)[1]
    assert after != before and after is not None
    assert _stripped(world.sign_lines(*world_pos(r, r.arena.seats[booth].signs["bid"].at))) == BLANK


def test_overlays_go_when_the_owner_leaves_and_come_back_with_them(
    rig: Callable[..., Rig], world: EmbeddedHandle
) -> None:
    r = rig(shipped_arena(options={"turns": 2}), private=True)
    players = seat_players(r)
    r.run_until(lambda: r.table.state is not None and r.table.state.phase == "bid", max_cycles=100)
    r.step()
    booth = 1
    hand = drawn_hand(r, booth)
    players[booth].leave()
    r.step()
    r.step()
    # offline mode: a name is no login; whoever joins as Ben now sees only the neutral world
    impostor = world.players.join(players[booth].name)
    assert seen_hand(r, impostor, booth) == [wall_material(r)] * len(hand)
    assert seen_signs(r, impostor, booth) == [BLANK] * len(PRIVATE_SIGNS)
    assert world.call(lambda: world.server.world.private.by_owner.get(players[booth].name)) is None
    # the seat is theirs again once they are back (the table cannot tell a name from a login)
    r.step()
    r.step()
    assert seen_hand(r, impostor, booth) == drawn_hand(r, booth)


def test_without_private_blocks_the_booth_is_drawn_in_the_world(rig: Callable[..., Rig]) -> None:
    r = rig(shipped_arena(options={"turns": 2}), private=False)
    players = seat_players(r)
    r.run_until(lambda: r.table.state is not None and r.table.state.phase == "bid", max_cycles=100)
    r.step()
    for booth, owner in enumerate(players):
        assert seen_hand(r, owner, booth) == drawn_hand(r, booth)
        assert seen_hand(r, players[(booth + 1) % 4], booth) == drawn_hand(r, booth)  # the walls hide it
