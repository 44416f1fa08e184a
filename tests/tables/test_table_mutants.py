"""A table's lobby, seats, timeouts and prizes at their exact bounds, without a world (issue 20, item 1).

The world tests show a match plays; these drive one `Table` with the test clock and read what
it says (its outbox) and journals: when the countdown starts a match (not a cycle early), who
may sit where, when an absent player loses the booth or a turn, what the standings and prizes
are, and when the table goes back to the lobby. The table is sans-I/O: no server is needed.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from table_support import StepClock, shipped_arena

from mcbridge import CONFIG_DIR
from mcbridge.tables.config import load_arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.table import Table
from mcbridge.textfit import CHAT_CAP
from mcbridge.world.geometry import Pos

STEP = 0.05
ARENA = shipped_arena(options={"turns": 1})
COUNTDOWN = ARENA.lobby.countdown  # 10 s in the shipped arena
HOLD = ARENA.lobby.hold
ABSENT = ARENA.timeouts["absent"]


@pytest.fixture
def journal() -> Iterator[Journal]:
    j = Journal(":memory:")
    yield j
    j.close()


def table(journal: Journal, **options: bool) -> tuple[Table, StepClock]:
    clock = StepClock()
    return Table(ARENA, journal, clock, seed=3, **options), clock


def chat(t: Table) -> list[str]:
    lines, t.outbox.chat = t.outbox.chat, []
    return lines


def booth_spot(booth: int) -> Pos:
    return ARENA.seats[booth].interior.cuboid.lo


def test_the_countdown_counts_whole_seconds_and_starts_the_match_when_it_runs_out(journal: Journal) -> None:
    t, clock = table(journal)
    t.join(0, "Aki")
    assert t.lobby_countdown(clock.now) is None, "one player is not enough"
    clock.now += 3
    t.join(1, "Ben")  # the countdown starts afresh with each join
    assert chat(t) == ["Aki takes seat 1.", "Ben takes seat 2."]
    assert t.lobby_countdown(clock.now) == COUNTDOWN
    assert t.lobby_countdown(clock.now + 0.5) == COUNTDOWN  # 9.5 s left reads "10"
    assert t.lobby_countdown(clock.now + COUNTDOWN - 0.5) == 1
    assert t.lobby_countdown(clock.now + COUNTDOWN + 5) == 0
    start = clock.now
    clock.now = start + COUNTDOWN - STEP
    t.tick()
    assert t.state is None, "not a cycle early"
    clock.now = start + COUNTDOWN
    t.tick()
    assert t.state is not None and t.match_id is not None
    assert t.lobby_countdown(clock.now) is None, "no countdown while a match runs"
    saved = journal.match(t.match_id)
    assert saved.players == ["Aki", "Ben"] and saved.options["booths"] == [0, 1] and "bots" not in saved.options
    assert saved.seed == t.match_seed and journal.count(ARENA.name) == 1


def test_a_table_full_of_people_starts_at_once_in_booth_order(journal: Journal) -> None:
    t, _clock = table(journal)
    for booth, name in ((3, "Dan"), (0, "Aki"), (2, "Chie")):
        t.join(booth, name)
    t.tick()
    assert t.state is None
    t.join(1, "Ben")
    t.tick()
    assert t.state is not None and t.state.players == ["Aki", "Ben", "Chie", "Dan"]
    assert [t.rules_seat(b) for b in range(4)] == [0, 1, 2, 3]


def test_seat_numbers_skip_empty_booths(journal: Journal) -> None:
    t, clock = table(journal)
    t.join(1, "Ben")
    t.join(3, "Dan")
    clock.now += COUNTDOWN
    t.tick()
    assert t.booths == [1, 3] and t.rules_seat(3) == 1 and t.rules_seat(0) is None and t.booth_of(1) == 3
    assert [t.view().seat_of_booth[b] for b in range(4)] == [None, 0, None, 1]


def test_who_may_take_a_booth(journal: Journal) -> None:
    t, clock = table(journal, can_tell=True)
    t.join(0, "Aki")
    t.join(0, "Ben")  # taken
    t.join(1, "BOT 2")  # a bot's name
    t.join(1, "Aki")  # already seated: stays in booth 1
    assert [o.name if o else None for o in t.occupants] == ["Aki", None, None, None]
    assert chat(t) == ["Aki takes seat 1."]
    assert t.outbox.private == [
        ("Ben", "This table is full."),
        ("BOT 2", "That name is kept for the table’s bots; join with your own."),
    ]
    t.join(1, "Ben")
    clock.now += COUNTDOWN
    t.tick()
    t.outbox.private.clear()
    t.join(2, "Chie")  # a match is on
    assert t.occupants[2] is None and t.outbox.private == [("Chie", "This table is full.")]


def test_a_seated_player_gets_a_sword_where_the_server_can_give(journal: Journal) -> None:
    t, _clock = table(journal, can_give=True, can_tell=True)
    t.join(2, "Chie")
    assert t.outbox.gives == [("Chie", 276, 0, 1)]
    assert t.outbox.private == [("Chie", "Here is a sword: right-click the signs in your booth with it.")]
    assert chat(t) == ["Chie takes seat 3."]


def test_walking_into_a_free_booth_takes_it_and_into_a_taken_one_sends_you_out(journal: Journal) -> None:
    t, _clock = table(journal)
    t.on_presence({"Aki", "Ben"}, {"Aki": booth_spot(1)})
    assert t.booth_of_player("Aki") == 1
    t.on_presence({"Aki", "Ben"}, {"Aki": booth_spot(1), "Ben": booth_spot(1)})
    shell = ARENA.seats[1].booth.cuboid
    assert t.outbox.moves == [("Ben", Pos((shell.lo.x + shell.hi.x) // 2, shell.lo.y + 1, shell.lo.z - 3))]
    assert t.booth_of_player("Ben") is None


def test_an_absent_player_keeps_the_booth_until_the_absent_timeout_then_loses_it(journal: Journal) -> None:
    t, clock = table(journal)
    t.join(1, "Aki")
    t.on_presence({"Aki"}, {})
    assert chat(t) == ["Aki takes seat 2."]
    left = clock.now
    t.on_presence(set(), {})
    assert chat(t) == ["Aki left seat 2; the seat is kept for them."]
    assert t.private_viewers() == [None, None, None, None]
    clock.now = left + ABSENT - STEP
    t.tick()
    assert t.booth_of_player("Aki") == 1
    t.on_presence({"Aki"}, {})  # back in time
    assert chat(t) == ["Aki is back at seat 2."] and t.private_viewers()[1] == "Aki"
    t.on_presence(set(), {})
    left = clock.now
    clock.now = left + ABSENT
    t.tick()
    assert t.occupants[1] is None


def test_private_messages_go_privately_where_the_server_can_else_addressed_in_chat(journal: Journal) -> None:
    quiet, _ = table(journal, can_tell=True)
    quiet.tell("Aki", "psst")
    assert quiet.outbox.private == [("Aki", "psst")] and quiet.outbox.chat == []
    loud, _ = table(journal)
    loud.tell("Aki", "psst")
    assert loud.outbox.chat == ["@Aki: psst"] and loud.outbox.private == []


def test_chat_commands_need_a_bang_and_a_seat(journal: Journal) -> None:
    t, _clock = table(journal, can_tell=True)
    t.on_chat("Aki", "bid 3 red")
    assert t.outbox.private == []
    t.on_chat("Aki", "  !bid 3 red")
    assert t.outbox.private == [
        ("Aki", "You are not seated at this table. Right-click the join sign with a sword, or walk into a free booth.")
    ]


def start(journal: Journal, **options: bool) -> tuple[Table, StepClock]:
    t, clock = table(journal, **options)
    t.join(0, "Aki")
    t.join(1, "Ben")
    clock.now += COUNTDOWN
    t.tick()
    assert t.state is not None
    t.tick()  # the deal (chance) and the first deadlines
    chat(t)
    return t, clock


def test_a_turn_times_out_at_its_deadline_not_before(journal: Journal) -> None:
    t, clock = start(journal)
    assert t.state is not None
    waiting = sorted(s for s in t.state.to_act() if s >= 0)
    assert waiting and set(t.deadlines) == set(waiting)
    seat = waiting[0]
    deadline = t.deadlines[seat]
    assert deadline == clock.now + ARENA.timeouts[t.state.phase], "the phase's limit from when the turn came up"
    seq = t.seq
    clock.now = deadline - STEP
    t.tick()
    assert t.seq == seq and chat(t) == []
    clock.now = deadline
    t.tick()
    assert t.seq > seq
    name = t.state.players[seat]
    assert f"{name} took too long; the rules chose for them." in chat(t)
    assert journal.match(t.match_id or 0).actions[seq][0] == seat


def test_standings_prizes_and_the_hold_before_the_lobby(journal: Journal) -> None:
    """Dice Bluff (its match ends by timeouts alone: no world reads) with one die each."""
    arena = dataclasses.replace(load_arena(CONFIG_DIR / "arenas" / "dice_bluff.yaml"), locale="en")
    arena = dataclasses.replace(arena, options={**arena.options, "dice_per_player": 1})
    clock = StepClock()
    t = Table(arena, journal, clock, seed=3, can_give=True)
    t.join(0, "Aki")
    t.join(1, "Ben")
    clock.now += arena.lobby.countdown
    t.tick()
    t.outbox.gives.clear()
    for _ in range(200):  # every turn times out until the match is over
        assert t.state is not None
        if t.state.is_over:
            break
        clock.now += max(arena.timeouts.values()) + 1
        t.tick()
    chat(t)
    t.tick()  # the match is over: standings, prizes, journal
    finished_at = clock.now
    assert t.match_id is not None
    saved = journal.match(t.match_id)
    assert saved.finished is not None and saved.result is not None
    assert [(row["rank"], row["name"]) for row in saved.result["standings"]] == [(1, "Aki"), (2, "Ben")]
    assert chat(t) == [  # seed 3: Aki wins; the arena's prize by rank
        "Final standings:",
        "#1 Aki: 1 dice left",
        "Aki receives 5 diamonds.",
        "#2 Ben: 0 dice left",
        "Ben receives 1 diamond.",
    ]
    assert t.outbox.gives == [("Aki", 264, 0, 5), ("Ben", 264, 0, 1)]
    t.tick()
    assert chat(t) == [] and journal.count(arena.name, finished=True) == 1, "finished once"
    seq = t.seq
    for pos, (kind, booth, _slot) in t.hits.items():  # clicks during the hold do nothing
        if booth == 0 and kind != "join":
            assert t.on_hit(pos, "Aki")
    assert t.seq == seq and chat(t) == [] and t.outbox.private == []
    t.on_presence({"Aki"}, {})  # Ben leaves during the hold
    chat(t)
    clock.now = finished_at + arena.lobby.hold - STEP
    t.tick()
    assert t.state is not None and t.view().holding
    clock.now = finished_at + arena.lobby.hold
    t.tick()
    assert t.state is None and t.match_id is None and t.booths == []
    assert [o.name if o else None for o in t.occupants] == ["Aki"] + [None] * (len(arena.seats) - 1)
    assert not t.view().holding and t.lobby_countdown(clock.now) is None


def test_an_addressed_message_of_zero_width_marks_still_keeps_every_line_within_the_cap(journal: Journal) -> None:
    """Combining marks are 0 px wide: only the character cap splits such a text."""
    t, _clock = table(journal)
    text = "e" + "\u0301" * 600
    t.tell("Aki", text)
    lines = t.outbox.chat
    assert len(lines) > 1 and all(line.startswith("@Aki: ") for line in lines)
    assert all(len(line) <= CHAT_CAP for line in lines)
    assert "".join(line.removeprefix("@Aki: ") for line in lines) == text


def test_help_in_the_lobby_answers_anyone(journal: Journal) -> None:
    t, _clock = table(journal, can_tell=True)
    t.on_chat("Aki", "!help")
    assert len(t.outbox.private) == 1 and t.outbox.private[0][0] == "Aki" and t.outbox.private[0][1]


def test_lang_sets_a_players_language_and_anything_else_gets_the_usage(journal: Journal) -> None:
    t, _clock = table(journal, can_tell=True)
    t.on_chat("Aki", "!lang")
    t.on_chat("Aki", "!lang ja en")
    t.on_chat("Aki", "!lang xx")
    assert t.languages == {} and len(t.outbox.private) == 3
    usage = t.outbox.private[0][1]
    assert all(text == usage for _name, text in t.outbox.private) and "en" in usage
    t.outbox.private.clear()
    t.on_chat("Aki", "!lang ja")
    assert t.languages == {"Aki": "ja"} and t.text_for("Aki").lang == "ja" and len(t.outbox.private) == 1


def test_a_journaled_match_for_more_booths_than_the_arena_has_is_not_resumed(journal: Journal) -> None:
    """The arena file lost a booth since: booth 4 of a 4-booth arena does not exist."""
    match = journal.start_match(ARENA.name, ARENA.game, {"booths": [0, len(ARENA.seats)]}, ["Aki", "Ben"], 9)
    t, _clock = table(journal)
    assert t.state is None and t.match_id is None
    left = journal.unfinished(ARENA.name)
    assert left is not None and left.id == match, "it stays unfinished in the journal"
    fits = journal.start_match(ARENA.name, ARENA.game, {"booths": [0, len(ARENA.seats) - 1]}, ["Aki", "Ben"], 9)
    resumed, _clock = table(journal)
    assert resumed.match_id == fits and resumed.booths == [0, len(ARENA.seats) - 1]


def test_each_update_names_the_journaled_action_it_follows(journal: Journal) -> None:
    """Spectators and stats read `seq` to line updates up with the journal."""
    t, clock = start(journal)
    seen: list[tuple[int, int, int]] = []
    t.updates.subscribe_inline(lambda u: seen.append((u.match, u.seq, u.seat)))
    first = t.seq
    for _ in range(4):  # four turns time out, one action each
        clock.now = min(t.deadlines.values())
        t.tick()
        t.tick()  # the next turn's deadline
    assert t.match_id is not None and t.seq >= first + 4
    saved = journal.match(t.match_id)
    assert seen == [(t.match_id, seq, saved.actions[seq][0]) for seq in range(first, t.seq)]
