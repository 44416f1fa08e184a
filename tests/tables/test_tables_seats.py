"""Seats: a match in some of the booths, a stranger walking into a free booth, a player who
leaves and comes back to the seat that was kept for them."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from table_support import ChatPlayers, Rig, shipped_arena, sign_text, walk_into_booth

from mcbridge.world.embedded import EmbeddedHandle


def test_a_player_who_leaves_gets_the_seat_back_and_plays_on(rig: Callable[..., Rig],
                                                            world: EmbeddedHandle) -> None:
    r = rig(shipped_arena(options={"turns": 2}))
    aki, chie = world.players.join("Aki"), world.players.join("Chie")
    walk_into_booth(aki, r.arena, 0)
    walk_into_booth(chie, r.arena, 2)  # booths 1 and 3 stay empty
    r.run_until(lambda: r.table.state is not None, max_cycles=100)  # after the start delay
    table = r.table
    assert table.state is not None and table.state.players == ["Aki", "Chie"]
    assert table.booths == [0, 2]

    stranger = world.players.join("Stranger")
    for cell in list(r.arena.seats[1].interior.cuboid)[:20]:  # walks about inside a free booth
        p = r.arena.frame.to_world(cell)
        stranger.walk_to(p.x + 0.5, p.y, p.z + 0.5)
        r.step()
    assert table.occupants[1] is None  # no seat taken during a match
    # told once that a match is on (not every cycle the stranger stands there)
    assert stranger.private_messages() == ["A match is on at this table; booth 2 is free for the next one."]
    join_sign = sign_text(world, r.arena, r.arena.seats[1].signs["join"].at)
    assert join_sign is not None and "free" in join_sign

    aki.leave()
    for _ in range(3):
        r.step()
    assert table.occupants[0] is not None and not table.occupants[0].present
    aki = world.players.join("Aki")  # a new entity id, the same name
    walk_into_booth(aki, r.arena, 0)
    for _ in range(3):
        r.step()
    assert table.occupants[0].present
    assert "Aki is back at seat 1." in chie.chat_heard()

    r.bots.append(ChatPlayers([aki, chie], lambda: table.state))
    r.finish()
    assert table.state.is_over
    saved = r.journal.match(table.match_id)
    assert any(seat == 0 for seat, data in saved.actions if data["type"] in ("Bid", "Through", "Bluff"))


def test_a_player_away_longer_than_absent_is_played_for_at_once(rig: Callable[..., Rig],
                                                               world: EmbeddedHandle) -> None:
    """`timeouts.absent`: once a seated player has been offline that long, the rules act for
    them as soon as it is their turn, instead of waiting the phase's full timeout each time."""
    arena = shipped_arena(options={"turns": 1})
    arena = dataclasses.replace(arena, timeouts={**arena.timeouts, "absent": 2, "bid": 600, "respond": 600})
    r = rig(arena)
    aki, ben = world.players.join("Aki"), world.players.join("Ben")
    walk_into_booth(aki, r.arena, 0)
    walk_into_booth(ben, r.arena, 1)
    r.run_until(lambda: r.table.state is not None and r.table.state.phase == "bid", max_cycles=200)
    table = r.table
    assert table.state is not None
    ben.leave()

    class OnlyAki(ChatPlayers):
        def act(self) -> None:
            state = self.state()
            if state is not None and 0 in state.to_act():
                super().act()

    r.bots.append(OnlyAki([aki, ben], lambda: table.state))
    # 600 s phase timeouts are 12,000 cycles; the absent rule ends the turn in about 40
    r.run_until(lambda: table.finished, max_cycles=400)
    assert "Ben left seat 2; the seat is kept for them." in aki.chat_heard()
    assert any("Ben took too long" in line for line in aki.chat_heard())
