"""Hidden information: before a Reveal, nothing of a hand leaves its booth.

Two ways. (1) Two matches with the same public history but different hands must look the
same to a spectator everywhere outside the booths: chat, private messages, every block
and every sign text. (2) In a whole bot match, before each Reveal, no wool or stained
glass lies outside a booth and every sign outside the booths says exactly what the public
view alone says.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from table_support import (
    MAX_CYCLES,
    Rig,
    booth_cells,
    make_rig,
    outside_booths,
    seat_bots,
    seat_players,
    shipped_arena,
    world_snapshot,
)

from mcbridge.games.wool_bluff import COLOURS, Bid, Bluff, Through
from mcbridge.tables.kits.wool_bluff_render import SeatUi, render
from mcbridge.world.embedded import EmbeddedHandle, start_embedded

WOOL, STAINED_GLASS = 35, 95


def click(rig: Rig, player: Any, booth: int, sign: str) -> None:
    p = rig.arena.frame.to_world(rig.arena.seats[booth].signs[sign].at)
    player.right_click(p.x, p.y, p.z)


def scripted_turn(rig: Rig, players: list[Any], spectator: Any) -> list[Any]:
    """Bid red 3 by clicks, two THROUGHs, then BLUFF; what the spectator can see before the BLUFF."""
    table = rig.table
    outside = outside_booths(rig.arena)

    def seen() -> Any:
        rig.step()  # the last action is drawn
        return (spectator.chat_heard(), spectator.private_messages(), world_snapshot(rig.world, rig.arena, outside))

    def applied(action: Any, booth: int, *signs: str) -> None:
        before = table.seq
        for sign in signs:
            click(rig, players[booth], booth, sign)
        rig.run_until(lambda: table.seq > before, max_cycles=20)
        saved = rig.journal.match(table.match_id)  # type: ignore[arg-type]
        assert table.game.action_from_json(saved.actions[-1][1]) == action

    state = table.state
    assert state is not None and state.phase == "bid"
    views = [seen()]
    [predictor] = state.to_act()
    applied(Bid("red", 3), predictor, "plus", "plus", "bid")
    views.append(seen())
    for _ in range(2):
        [responder] = state.to_act()
        applied(Through(), responder, "through")
        views.append(seen())
    [responder] = state.to_act()
    applied(Bluff(), responder, "bluff")
    rig.run_until(lambda: table.finished, max_cycles=50)  # the Reveal ends this one-turn match
    return views


def test_different_hands_look_the_same_outside_the_booths(tmp_path: Path) -> None:
    # Same seeds and the same clicks; only the colour weights differ, so the first predictor (the
    # first draw) is the same and the deals are not. Nothing public draws the weights.
    all_red = {c: (1 if c == "red" else 0) for c in COLOURS}
    runs = []
    for name, weights in [("usual", None), ("all_red", all_red)]:
        options: dict[str, Any] = {"turns": 1} if weights is None else {"turns": 1, "weights": weights}
        with start_embedded(port=0, tps=0) as world:
            rig = make_rig(world, shipped_arena(options=options), tmp_path / f"{name}.sqlite")
            spectator = world.players.join("Spectator")
            players = seat_players(rig)  # this test clicks for them
            for player in players:
                player.hold(276)  # a diamond sword
            rig.step()  # first predictor and deals
            rig.step()  # the hands appear in the booths
            inside = world_snapshot(world, rig.arena, sorted(booth_cells(rig.arena)))
            views = scripted_turn(rig, players, spectator)
            runs.append((rig.table.state, inside, views))
            rig.close()
    (a, inside_a, views_a), (b, inside_b, views_b) = runs
    assert a is not None and b is not None and a.last_reveal and b.last_reveal
    assert a.seed == b.seed and a.last_reveal["bidder"] == b.last_reveal["bidder"]  # same public history
    assert a.hands != b.hands and inside_a != inside_b  # different hands, and the booths show them
    for step, (seen_a, seen_b) in enumerate(zip(views_a, views_b, strict=True)):
        chat_a, private_a, world_a = seen_a
        chat_b, private_b, world_b = seen_b
        assert chat_a == chat_b, f"chat differs after action {step}"
        assert private_a == private_b == []
        differing = [p for p in world_a if world_a[p] != world_b[p]]
        assert differing == [], f"outside the booths, {differing[:5]} differ after action {step}"


def public_scene(rig: Rig) -> Any:
    """What the table would draw from the public view alone (no hand, no draft)."""
    t = rig.table
    assert t.state is not None
    n = len(rig.arena.seats)
    names = [o.name if o else None for o in t.occupants]
    return render(rig.arena, t.text, t.state.view(None), [None] * n, names, [t.rules_seat(b) for b in range(n)],
                  [SeatUi() for _ in range(n)], False, True)


def test_before_each_reveal_nothing_private_is_outside_a_booth(rig: Callable[..., Rig],
                                                              world: EmbeddedHandle) -> None:
    r = rig(shipped_arena(options={"turns": 3}))
    seat_bots(r)
    outside = outside_booths(r.arena)
    inside = booth_cells(r.arena)
    checked: set[int] = set()
    compared: list[str] = []
    for _ in range(MAX_CYCLES):
        t = r.table
        if t.finished:
            break
        state = t.state
        due = state is not None and state.phase in ("discard", "bid", "respond") and t.seq not in checked
        if due:
            checked.add(t.seq)
            public, phase = public_scene(r), state.phase  # type: ignore[union-attr]
        r.step()  # draws the state as it was before this step
        if due:
            compared.append(phase)
            snapshot = world_snapshot(world, r.arena, outside)
            loose = [p for p, ((block_id, _), _) in snapshot.items() if block_id in (WOOL, STAINED_GLASS)]
            assert loose == [], f"wool or glass outside a booth before the Reveal: {loose[:5]}"
            for p, lines in public.signs.items():
                if p not in inside:
                    assert snapshot[p][1] == lines, f"sign at {p} shows more than the public view"
            for p, block in public.blocks.items():
                if p not in inside:
                    assert snapshot[p][0] == tuple(block), f"block at {p} differs from the public view"
        for bot in r.bots:
            bot.act()
    assert r.table.finished
    assert {"discard", "bid", "respond"} <= set(compared) and len(compared) >= 10
