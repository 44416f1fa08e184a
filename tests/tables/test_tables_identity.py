"""[FAIRPLAY] controller identity: a player is an entity id with an exact name, never folded.

Names that are no Java name ("Aki ", "Aki\\u202e") are refused by the player registry
(mcbridge.world.events, the `wire` work) before any table hears of them; what the table adds
is that it compares names exactly: "aki" is not "Aki", cannot act for Aki's seat, nor take
it over while Aki is away.
"""

from __future__ import annotations

from collections.abc import Callable

from table_support import Rig, seat_players, shipped_arena, walk_into_booth

from mcbridge.world.embedded import EmbeddedHandle


def test_a_name_that_differs_only_in_case_is_another_player(rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    r = rig(shipped_arena(options={"turns": 1}))
    players = seat_players(r)
    r.run_until(lambda: r.table.state is not None and r.table.state.phase == "bid", max_cycles=100)
    state = r.table.state
    assert state is not None
    [predictor] = state.to_act()
    owner = players[r.table.booth_of(predictor)]
    lookalike = world.players.join(owner.name.lower())
    r.step()  # the table learns who it is
    seq = r.table.seq
    lookalike.chat("!bid red 3")
    r.step()
    r.step()
    assert r.table.seq == seq  # nothing journalled for the seat
    assert any("not seated" in m for m in lookalike.private_messages())

    owner.leave()  # away: the seat is kept for exactly that name
    r.step()
    walk_into_booth(lookalike, r.arena, r.table.booth_of(predictor))
    r.step()
    r.step()
    assert [o.name if o else None for o in r.table.occupants] == [p.name for p in players]
    assert any(m.startswith(f"Booth {r.table.booth_of(predictor) + 1} is taken") for m in lookalike.private_messages())
