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

from sign_support import seat_people, shipped
from table_support import ChatPlayers, Rig, mcpi_client, seat_players, shipped_arena, walk_into_booth

from mcbridge.core import CHANCE
from mcbridge.games.wool_bluff import WoolBluffState
from mcbridge.tables.kits.signs import panel_spots
from mcbridge.tables.kits.wool_bluff_render import WOOL_OF, hand_slots
from mcbridge.tables.supervisor import GUARD_EVERY
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


def dealt(rig: Callable[..., Rig], **options: bool) -> tuple[Rig, list[EmbeddedPlayer]]:
    """Four players seated, their hands dealt and drawn, waiting for the first bid."""
    r = rig(shipped_arena(options={"turns": 2}), **options)
    players = seat_players(r)
    r.run_until(lambda: r.table.state is not None and r.table.state.phase == "bid", max_cycles=100)
    r.step()
    return r, players


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
    r, players = dealt(rig, private=True)
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
    r, players = dealt(rig, private=True)
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
    r, players = dealt(rig, private=False)
    for booth, owner in enumerate(players):
        assert seen_hand(r, owner, booth) == drawn_hand(r, booth)
        assert seen_hand(r, players[(booth + 1) % 4], booth) == drawn_hand(r, booth)  # the walls hide it


def plaza_spot(r: Rig, booth: int) -> Pos:
    shell = r.arena.seats[booth].booth.cuboid
    return r.arena.frame.to_world(Pos((shell.lo.x + shell.hi.x) // 2, shell.lo.y + 1, shell.lo.z - 3))


def test_the_booth_guard_moves_intruders_out_with_one_notice(rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    r = rig(shipped_arena(options={"turns": 2}))  # plain RaspberryJuice rendering: the booth walls hide the hand
    players = seat_players(r, count=3)
    intruder = world.players.join("Eve")
    booth = r.arena.seats[1]
    for who in (intruder, players[0]):  # a spectator, and a player seated in another booth
        walk_into_booth(who, r.arena, 1)
        before = len(who.private_messages())
        for _ in range(GUARD_EVERY + 2):  # the seated are located every GUARD_EVERY cycles
            r.step()
        x, y, z = who.position()
        assert not booth.booth.cuboid.contains(r.arena.frame.to_local(Pos(int(x // 1), int(y // 1), int(z // 1))))
        spot = plaza_spot(r, 1)
        assert (x, y, z) == (spot.x + 0.5, float(spot.y), spot.z + 0.5)
        notices = who.private_messages()[before:]
        assert notices == ["Booth 2 is taken: only its player may stand inside. You are back on the plaza."]
    # the owner and an empty booth are left alone
    walk_into_booth(intruder, r.arena, 3)
    for _ in range(3):
        r.step()
    x, y, z = intruder.position()
    assert r.arena.seats[3].interior.cuboid.contains(r.arena.frame.to_local(Pos(int(x // 1), int(y // 1), int(z // 1))))
    x, y, z = players[1].position()
    assert booth.interior.cuboid.contains(r.arena.frame.to_local(Pos(int(x // 1), int(y // 1), int(z // 1))))


class UntilDiscard:
    """Chat players who stop when the penalty discard comes (the test types it)."""

    def __init__(self, players: ChatPlayers) -> None:
        self.players = players

    def act(self) -> None:
        state = self.players.state()
        if state is not None and state.phase != "discard":
            self.players.act()


ALL_RED = {"red": 1, "blue": 0, "yellow": 0, "green": 0, "black": 0, "white": 0}


def reach_discard(r: Rig) -> tuple[list[EmbeddedPlayer], int]:
    players = seat_players(r)
    r.bots.append(UntilDiscard(ChatPlayers(players, lambda: r.table.state)))  # type: ignore[arg-type,return-value]
    r.run_until(lambda: r.table.state is not None and r.table.state.phase == "discard", max_cycles=2000)
    state = r.table.state
    assert isinstance(state, WoolBluffState)
    seat = min(state.discard_due)
    return players, r.table.booth_of(seat)


def test_a_refusal_that_tells_a_hand_stays_private_without_tell(rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    r = rig(shipped_arena(options={"turns": 2, "weights": ALL_RED}), tell=False)
    players, booth = reach_discard(r)
    spectator = world.players.join("Spectator")
    due = r.table.state.discard_due[r.table.rules_seat(booth)]  # type: ignore[union-attr]
    seq = r.table.seq
    players[booth].chat(f"!discard white {due}")  # an all-red hand holds no white
    r.step()
    r.step()
    assert r.table.seq == seq  # refused
    text = "You hold 0 white wool."
    heard = [line for line in spectator.chat_heard() if not line.startswith("<")]  # not what players typed
    assert not any("white" in line or "hold" in line for line in heard), heard
    assert f"@{players[booth].name}: not possible; the reason is on the info sign in your booth." in heard
    info = _stripped(world.sign_lines(*world_pos(r, r.arena.seats[booth].signs["info"].at)))
    assert info is not None and " ".join(line for line in info if line) == text
    # a refusal that tells nothing hidden is still said in chat, addressed to the player
    players[booth].chat("!bid red 3")
    r.step()
    r.step()
    assert any(line.startswith(f"@{players[booth].name}: You cannot bid now") for line in spectator.chat_heard())


def test_the_refusal_goes_by_private_message_where_there_is_one(rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    r = rig(shipped_arena(options={"turns": 2, "weights": ALL_RED}), private=True)
    players, booth = reach_discard(r)
    spectator = world.players.join("Spectator")
    due = r.table.state.discard_due[r.table.rules_seat(booth)]  # type: ignore[union-attr]
    before = len(players[booth].private_messages())
    players[booth].chat(f"!discard white {due}")
    r.step()
    r.step()
    assert players[booth].private_messages()[before:] == ["You hold 0 white wool."]
    assert not any("white" in line for line in spectator.chat_heard() if not line.startswith("<"))


def test_without_tell_a_private_booth_shows_the_refusal_to_its_player_only(
    rig: Callable[..., Rig], world: EmbeddedHandle
) -> None:
    r = rig(shipped_arena(options={"turns": 2, "weights": ALL_RED}), private=True, tell=False)
    players, booth = reach_discard(r)
    due = r.table.state.discard_due[r.table.rules_seat(booth)]  # type: ignore[union-attr]
    players[booth].chat(f"!discard white {due}")
    r.step()
    r.step()
    info = world_pos(r, r.arena.seats[booth].signs["info"].at)
    owner_sees = _stripped(players[booth].seen_sign(*info))
    assert owner_sees is not None and " ".join(line for line in owner_sees if line) == "You hold 0 white wool."
    other = players[(booth + 1) % 4]
    assert _stripped(other.seen_sign(*info)) == BLANK
    assert _stripped(world.sign_lines(*info)) == BLANK
    assert r.supervisor.step().commands == 0  # the note stays up without being sent again


def test_a_sign_table_booth_is_private_too(rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    """Dice Bluff: the dice under a player's cup and its draft signs, to that player only."""
    r = rig(shipped("dice_bluff"), private=True)
    people = seat_people(r, ["Aki", "Ben"])
    r.run_until(lambda: r.table.state is not None and CHANCE not in r.table.state.to_act(), max_cycles=100)
    r.step()
    for booth, owner in enumerate(people):
        cup = [world_pos(r, spot.at) for spot in panel_spots(r.arena.seats[booth].regions["cup"])]
        dice = [_stripped(owner.seen_sign(*p)) for p in cup]
        hidden = r.table.state.view(r.table.rules_seat(booth))["hidden"]  # type: ignore[union-attr]
        assert hidden and sum(1 for d in dice if d is not None and d != BLANK) == len(hidden)
        other = people[1 - booth]
        assert [_stripped(other.seen_sign(*p)) for p in cup] == [BLANK] * len(cup)
        assert [_stripped(world.sign_lines(*p)) for p in cup] == [BLANK] * len(cup)
