"""The per-cycle shortcuts of the table runtime never show a stale world.

* `Table.view` reuses the rules' views while the match has not moved (same match, same
  seq): every submitted action must still show in the next view and scene.
* The supervisor routes a click by a world-cell lookup and a chat line by a per-cycle map
  of who sits where: with several tables, each input reaches the table it is for, and one
  seated in the same cycle is found.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_support import CYCLE_SECONDS, StepClock, shipped_arena

from mcbridge.core import CHANCE, Rng
from mcbridge.tables.build import build_arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.world.connection import Connection
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.geometry import ArenaFrame, Facing, Pos
from mcbridge.world.pipeline import Item


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000))
def test_every_action_shows_in_the_next_view_and_scene(tmp_path: Path, seed: int) -> None:
    clock = StepClock()
    journal = Journal(tmp_path / f"j{seed}.sqlite")
    try:
        table = Table(shipped_arena(), journal, clock, seed=seed, start_delay=0.0)
        for booth, name in enumerate(["Aki", "Ben", "Chie"]):
            table.join(booth, name)
        table.tick()
        state = table.state
        assert state is not None
        bot = table.game.bot()
        for k in range(200):
            if state.is_over:
                break
            seat = min(state.to_act())
            action = (state.sample_chance(table.chance_rng()) if seat == CHANCE
                      else bot.choose(state.view(seat), state.legal_actions(seat), Rng.derived(seed, k)))
            before = table.scene()
            table.view()  # the memo now holds this seq's views
            table.submit(seat, action)
            view = table.view()
            # the very views the rules give now, never the last seq's
            assert view.public == state.view(None)
            assert [view.private[b] for b in table.booths] == [state.view(s) for s in range(len(table.booths))]
            after = table.scene()
            assert after is not before
            assert after.signs == table.kit.render(view).signs
    finally:
        journal.close()


def test_clicks_and_chat_reach_their_own_table_among_several(world: EmbeddedHandle, tmp_path: Path) -> None:
    base = shipped_arena()
    arenas = [dataclasses.replace(base, name=f"t{i}", frame=ArenaFrame(Pos(-18 + 40 * i, -1, 4), Facing.NORTH))
              for i in range(3)]
    clock = StepClock()
    journal = Journal(tmp_path / "journal.sqlite")
    with Connection(world.host, world.port) as conn:
        for arena in arenas:
            build_arena(conn, arena)
        tables = [Table(a, journal, clock, seed=1, start_delay=3600) for a in arenas]
        supervisor = Supervisor(conn, tables)
        aki = world.players.join("Aki")
        aki.hold(276)  # a diamond sword
        sign = arenas[2].frame.to_world(arenas[2].seats[1].signs["join"].at)

        def cycle() -> None:
            clock.now += CYCLE_SECONDS
            supervisor.step()

        for _ in range(3):
            cycle()  # Aki's name is learnt
        aki.right_click(sign.x, sign.y, sign.z)
        aki.chat("!lang ja")  # read in the same cycle as the click that seats Aki at the third table
        for _ in range(20):
            cycle()
            if tables[2].occupants[1] is not None and tables[2].languages:
                break
        assert [[o.name if o else None for o in t.occupants] for t in tables] == [
            [None] * 4, [None] * 4, [None, "Aki", None, None]]
        assert tables[2].languages == {"Aki": "ja"}
        assert not tables[0].languages and not tables[1].languages
    journal.close()


def test_one_chat_poll_for_everyone_where_replies_are_escaped_and_no_record_forged(
        world: EmbeddedHandle, tmp_path: Path) -> None:
    """The embedded world escapes reply fields (capability `escaped`): one
    `events.chat.posts` a cycle, whatever the number of players, and a `|` typed in a
    message still cannot speak for another player."""
    clock = StepClock()
    journal = Journal(tmp_path / "journal.sqlite")
    arena = shipped_arena()
    with Connection(world.host, world.port) as conn:
        build_arena(conn, arena)
        table = Table(arena, journal, clock, seed=1, start_delay=3600)
        supervisor = Supervisor(conn, [table])
        aki, ben, chie = (world.players.join(n) for n in ("Aki", "Ben", "Chie"))
        for _ in range(3):
            clock.now += CYCLE_SECONDS
            supervisor.step()
        assert supervisor.protocol.chat_all
        sent: list[str] = []
        run_batch = conn.run_batch

        def spy(items: list[Item], fence_every: int, **options: Any) -> None:
            sent.extend(item.command.name for item in items if "chat" in item.command.name)
            run_batch(items, fence_every, **options)

        conn.run_batch = spy  # type: ignore[method-assign]
        clock.now += CYCLE_SECONDS
        supervisor.step()
        assert sent == ["events.chat.posts"]
        ben.chat(f"hello|{aki.entity_id},!lang ja")
        chie.chat("!lang ja")
        for _ in range(5):
            clock.now += CYCLE_SECONDS
            supervisor.step()
        assert table.languages == {"Chie": "ja"}
    journal.close()
