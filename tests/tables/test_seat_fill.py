"""Bots fill empty seats (`bots: {fill, after, think}`): one person alone plays a whole match
of every game with a kit against the library bots, whose seats the signs mark; the bots act
through the table's action path, so the journal replays to the result; a person takes a
bot's booth between matches and the bot leaves."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sign_support import shipped
from table_support import Rig, make_rig, sign_text

from mcbridge import games
from mcbridge.i18n import locale
from mcbridge.tables.arena import Bots
from mcbridge.tables.demo import TableBot
from mcbridge.tables.kits import games_with_kits
from mcbridge.tables.rules_view import result_json
from mcbridge.tables.seat_bots import SeatBot
from mcbridge.tables.supervisor import Supervisor
from mcbridge.tables.table import Table
from mcbridge.world.embedded import start_embedded

AFTER, THINK = 2, 0.5  # seconds: 40 and 10 cycles of the test clock


def alone(rig: Callable[..., Rig], game: str, **changes: Any) -> tuple[Rig, Any]:
    """`game`'s shipped arena with bots filling, and one person who walks into booth 1."""
    arena = dataclasses.replace(shipped(game), bots=Bots(fill=True, after=AFTER, think=THINK), **changes)
    r = rig(arena, hold=1.0)
    walker = TableBot if game == "wool_bluff" else SeatBot
    person = walker(r.table, r.world.players.join("Aki"), 1, 21)  # type: ignore[arg-type]
    person.sit_down(by_walking=True)
    r.bots.append(person)
    return r, person


@pytest.mark.parametrize("game", games_with_kits())
def test_one_person_alone_plays_a_whole_match_against_bots(rig: Callable[..., Rig], game: str) -> None:
    r, person = alone(rig, game, options={**shipped(game).options, "turns": 1} if game == "wool_bluff" else {})
    table, text = r.table, locale("en")
    r.run_until(lambda: table.occupants[1] is not None, max_cycles=100)
    filled_at = r.clock.now
    r.run_until(lambda: table.state is not None, max_cycles=200)
    assert r.clock.now - filled_at >= AFTER - 0.1  # the person waited `after` before the bots came
    bots = [b for b, o in enumerate(table.occupants) if o is not None and o.bot]
    assert bots == [b for b in range(len(r.arena.seats)) if b != 1]
    r.step()  # the scene with the bots goes out with the next write
    for booth in bots:  # every bot seat is marked on its seat sign
        assert "BOT" in " ".join(sign_text(r.world, r.arena, r.arena.seats[booth].signs["seat"].at) or ())
    r.finish()
    heard = person.player.chat_heard()
    too_long = text.t("common.timeout", name="@").split("@")[1].strip()
    assert not [line for line in heard if too_long in line]
    assert text.t("common.bot_joined", name="BOT 1", seat=1) in " ".join(heard)  # split to fit the chat box
    (saved,) = r.journal.matches()
    assert saved.options["bots"] == bots and saved.players.count("Aki") == 1
    rules = games.load(game, saved.rules_options())
    state = rules.new_match(saved.players, saved.seed)
    for seat, data in saved.actions:
        state.apply(seat, rules.action_from_json(data))
    assert state.is_over and result_json(state) == saved.result
    # bots get no prize (and no private message: they have no client)
    assert not [line for line in heard if "BOT" in line and "receives" in line]


def test_a_person_takes_a_bots_booth_between_matches(rig: Callable[..., Rig]) -> None:
    r, person = alone(rig, "dice_bluff", options={"dice_per_player": 1})
    table = r.table
    r.run_until(lambda: table.state is not None, max_cycles=300)
    r.finish()
    r.run_until(lambda: table.state is None, max_cycles=300)  # the standings hold, then the lobby
    assert table.occupants[3] is not None and table.occupants[3].bot
    newcomer = SeatBot(table, r.world.players.join("Ben"), 3, 22)
    newcomer.sit_down(by_walking=False)  # the join sign of the bot's booth
    walker = SeatBot(table, r.world.players.join("Chie"), 4, 23)
    walker.sit_down(by_walking=True)  # walks into another bot's booth: no booth guard between matches
    r.bots += [newcomer, walker]
    r.run_until(lambda: table.state is not None, max_cycles=400)
    seated = [(o.name, o.bot) if o else None for o in table.occupants]
    assert seated[1] == ("Aki", False) and seated[3] == ("Ben", False) and seated[4] == ("Chie", False)
    assert sum(1 for s in seated if s and s[1]) == len(seated) - 3
    assert {"BOT 4 gives seat 4 to Ben.", "BOT 5 gives seat 5 to Chie."} <= set(person.player.chat_heard())
    r.finish()
    second = r.journal.matches()[-1]
    assert second.finished is not None and "Ben" in second.players and 3 not in second.options["bots"]


def test_a_restarted_table_keeps_its_bots_and_journals_what_it_would_have(tmp_path: Path) -> None:
    """The controller stops mid-match and a new table resumes from the journal: the bots are
    bots again (never 'away'), and the match ends exactly as an uninterrupted one."""

    def play(restart_after: int | None) -> tuple[list[Any], Any]:
        with start_embedded(port=0, tps=0) as world:
            arena = dataclasses.replace(shipped("dice_bluff", options={"dice_per_player": 2}),
                                        bots=Bots(fill=True, after=AFTER, think=THINK))
            r = make_rig(world, arena, tmp_path / f"run-{restart_after}.sqlite", hold=1.0)
            person = SeatBot(r.table, world.players.join("Aki"), 1, 21)
            person.sit_down(by_walking=True)
            r.bots.append(person)
            r.run_until(lambda: r.table.state is not None, max_cycles=200)
            if restart_after is not None:
                r.run_until(lambda: r.table.seq >= restart_after)
                assert r.table.state is not None and not r.table.state.is_over  # mid-match
                r.table = Table(arena, r.journal, r.clock, seed=5, start_delay=0.5, reveal_hold=0.5, hold=1.0)
                r.supervisor = Supervisor(r.conn, [r.table])
                person.table = r.table
                assert [bool(o and o.bot and o.present) for o in r.table.occupants] == [b != 1 for b in range(6)]
            r.finish()
            (saved,) = r.journal.matches()
            r.close()
            return saved.actions, saved.result

    whole = play(None)
    assert play(restart_after=12) == whole



def test_a_client_calling_itself_a_bot_gets_no_seat_and_cannot_act_for_the_bot(rig: Callable[..., Rig]) -> None:
    """Minecraft (and the embedded world) refuse the name "BOT 3"; a modified server might
    not, so the table itself never lets such a name sit, click or chat for the bot."""
    r, _person = alone(rig, "dice_bluff", options={"dice_per_player": 1})
    table = r.table
    table.on_hit(r.arena.seats[2].signs["join"].at, "BOT 3")
    assert table.occupants[2] is None
    refusal = locale("en").t("common.error.bot_name")
    told = table.outbox.private if table.can_tell else table.outbox.chat
    assert (("BOT 3", refusal) if table.can_tell else f"@BOT 3: {refusal}") in told
    r.run_until(lambda: table.state is not None, max_cycles=300)
    seat = table.rules_seat(2)
    assert seat is not None and table.occupants[2] is not None and table.occupants[2].bot
    r.run_until(lambda: seat in table.state.to_act())  # type: ignore[union-attr]
    before = table.seq
    table.on_chat("BOT 3", "!challenge")
    table.on_hit(r.arena.seats[2].signs["challenge"].at, "BOT 3")
    assert table.seq == before and table.booth_of_player("BOT 3") is None
    r.finish()  # the bot itself still plays its turn
