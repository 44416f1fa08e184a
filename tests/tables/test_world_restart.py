"""A world that restarts empty mid-match (issue 15, item 1): the controller notices, rebuilds
the arena shell, re-renders, learns who is who again (the restarted server hands the old
entity ids to other people), holds the turn timers through the outage, and the match ends
exactly as it would have without the restart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from faults.harness import rejoin, restart_world, run_until, step_through_outages
from table_support import Rig, make_rig, seat_bots, shipped_arena, sign_text

from mcbridge.tables.shell import ShellWatch
from mcbridge.world.embedded import EmbeddedHandle, start_embedded

SEED = 2
RESTART_AT = 30  # actions into the match: a few turns in


def played(r: Rig) -> tuple[list[tuple[int, dict[str, Any]]], dict[str, Any] | None]:
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    return saved.actions, saved.result


def baseline(tmp_path: Path) -> tuple[list[tuple[int, dict[str, Any]]], dict[str, Any] | None]:
    with start_embedded(port=0, tps=0) as world:
        r = make_rig(world, shipped_arena(), tmp_path / "baseline.sqlite", seed=SEED)
        try:
            seat_bots(r)
            run_until(r, lambda: r.table.finished)
            return played(r)
        finally:
            r.close()


def shell_in_place(world: EmbeddedHandle, r: Rig) -> bool:
    watch = ShellWatch(r.arena)
    return all(world.get_block(p.x, p.y, p.z)[0] == want for p, want in watch.expected.items())


def test_an_empty_restart_mid_match_rebuilds_relearns_names_and_ends_as_without_it(
        world: EmbeddedHandle, tmp_path: Path) -> None:
    expected = baseline(tmp_path)
    r = make_rig(world, shipped_arena(), tmp_path / "journal.sqlite", seed=SEED)
    restarted = None
    try:
        seat_bots(r)
        run_until(r, lambda: r.table.state is not None and r.table.seq >= RESTART_AT)
        assert step_through_outages(r)  # the bots' last clicks are taken before the world goes
        old_ids = {bot.player.name: bot.player.entity_id for bot in r.bots}

        restarted = restart_world(world)
        assert not shell_in_place(restarted, r)  # empty: no arena
        rejoin(r.bots, [3, 2, 1, 0], restarted.players.join)  # before the controller is back
        new_ids = {bot.player.name: bot.player.entity_id for bot in r.bots}
        assert any(old_ids[a] == new_ids[b] for a in old_ids for b in new_ids if a != b), "no id was reused"

        assert not step_through_outages(r)  # the controller sees the world gone: paused
        at = r.table.seq
        left = {seat: due - r.clock.now for seat, due in r.table.deadlines.items()}
        r.clock.now += 10 * max(r.arena.timeouts.values())  # a long outage
        for _ in range(20):
            if step_through_outages(r):
                break
        else:
            raise AssertionError("the controller did not reconnect")
        assert r.table.seq == at  # nobody was played through for the outage
        assert {s: due - r.clock.now for s, due in r.table.deadlines.items()}.keys() == left.keys()
        assert all(abs(r.table.deadlines[s] - r.clock.now - left[s]) < 1.0 for s in left)  # the time left
        for _ in range(3):
            step_through_outages(r)  # probe, rebuild, re-render
        assert shell_in_place(restarted, r)
        join_sign = r.arena.seats[0].signs["join"].at
        assert sign_text(restarted, r.arena, join_sign) is not None

        for bot in r.bots:
            bot.sit_down(by_walking=True)
        run_until(r, lambda: r.table.finished)
        assert played(r) == expected
    finally:
        r.close()
        if restarted is not None:
            restarted.stop()
