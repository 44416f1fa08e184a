"""The hand-table kits' per-part caches never show stale text.

A kit hands back the very same part while its key is unchanged (`signs.PartMemo`), takes a
view's key text once per view object (`PartMemo.view_key`) and shares fitted texts per
language (`signs.SignTexts`). So a key that misses an input would keep showing the old
sign. These tests change one input at a time (the countdown, the phase, a seat's private
view, a draft click, a refusal note) and check that the next scene shows it; and over
random play, that the cached render equals a render from a fresh memo, sign for sign.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcbridge import CONFIG_DIR
from mcbridge.core import CHANCE, Rng
from mcbridge.tables.config import load_arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.kits.signs import PartMemo, sign_texts, time_left, turn_lines
from mcbridge.tables.table import Table

PLAYERS = {"dice_bluff": 4, "bribery": 4, "braff": 4, "briscola_bugiarda": 5}
GAMES = sorted(PLAYERS)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def make_table(tmp_path: Path, game: str, lang: str = "en", seed: int = 1) -> tuple[Table, Clock, Journal]:
    arena = dataclasses.replace(load_arena(CONFIG_DIR / "arenas" / f"{game}.yaml"), locale=lang)
    journal = Journal(tmp_path / f"{game}-{lang}-{seed}.sqlite")
    clock = Clock()
    table = Table(arena, journal, clock, seed=seed, start_delay=0.0, hold=3.0)
    for booth in range(PLAYERS[game]):
        table.join(booth, f"P{booth}_{game[:4]}")
    table.tick()
    assert table.state is not None
    return table, clock, journal


def fresh_render(table: Table) -> Any:
    """The kit's render with no part cached (a new part memo)."""
    kit: Any = table.kit
    kept = kit.memo
    kit.memo = PartMemo()
    try:
        return kit.render(table.view(table.lobby_countdown(table.clock())))
    finally:
        kit.memo = kept


def assert_fresh(table: Table) -> None:
    """The table's scene shows what a render from scratch shows, sign for sign and block for
    block (a refusal note, the table's own part over the info sign, aside)."""
    scene, fresh = table.scene(), fresh_render(table)
    notes = {table.arena.seats[b].signs["info"].at for b, _ in table._notes()}
    assert {p: v for p, v in scene.signs.items() if p not in notes} == {
        p: v for p, v in fresh.signs.items() if p not in notes
    }
    assert scene.blocks == fresh.blocks


def board_text(table: Table, name: str) -> tuple[str, ...]:
    return table.scene().signs[table.arena.board_signs[name].at]


def play_until(table: Table, done: Any, limit: int = 400) -> None:
    """Chance and the library bot act until `done(table)`."""
    bot = table.game.bot()
    for k in range(limit):
        if done(table):
            return
        state = table.state
        assert state is not None and not state.is_over
        seats = sorted(state.to_act())
        seat = seats[0]
        if seat == CHANCE:
            table.tick()
            if table.state is state and CHANCE in state.to_act():
                table.submit(CHANCE, state.sample_chance(table.chance_rng()))
            continue
        table.submit(seat, bot.choose(state.view(seat), state.legal_actions(seat), Rng.derived(7, k)))
    raise AssertionError("never got there")


def waiting_for_a_person(table: Table) -> bool:
    state = table.state
    return state is not None and bool(state.to_act() - {CHANCE}) and time_left(table) is not None


@pytest.mark.parametrize("game", GAMES)
def test_the_countdown_alone_moves_the_clock_sign_and_nothing_else(tmp_path: Path, game: str) -> None:
    table, clock, journal = make_table(tmp_path, game)
    try:
        play_until(table, waiting_for_a_person)
        before = table.scene()
        seconds = time_left(table)
        assert seconds is not None and seconds > 3
        clock.now += 2.0
        after = table.scene()
        assert time_left(table) == seconds - 2
        turn = table.arena.board_signs["turn"].at
        assert after.signs[turn] != before.signs[turn]
        state = table.state
        assert state is not None
        names = [state.players[s] for s in sorted(state.to_act()) if s >= 0]
        assert after.signs[turn] == turn_lines(table.text, names, seconds - 2)
        # every other part is the very same object: one sign rebuilt for a second gone
        changed = [k for k, (a, b) in enumerate(zip(before.parts, after.parts, strict=True)) if a is not b]
        assert len(changed) == 1 and set(after.parts[changed[0]].signs) == {turn}
    finally:
        journal.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_new_phase_shows_on_the_status_sign(tmp_path: Path, game: str) -> None:
    table, _clock, journal = make_table(tmp_path, game)
    try:
        state = table.state
        assert state is not None
        first = state.phase
        shown = board_text(table, "status")
        play_until(table, lambda t: t.state is not None and t.state.phase != first)
        assert board_text(table, "status") != shown
        assert table.state is not None
        phase = table.text.t(f"{game}.phase.{table.state.phase}")
        assert any(phase[:6] in line for line in board_text(table, "status")), (phase, board_text(table, "status"))
        assert_fresh(table)
    finally:
        journal.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_seats_private_view_shows_in_its_booth_at_once(tmp_path: Path, game: str) -> None:
    """Every action that changes a booth's private view changes that booth's part, and the
    part says what a render from scratch says."""
    table, _clock, journal = make_table(tmp_path, game)
    try:
        changed_booths = 0
        bot = table.game.bot()
        for k in range(120):
            state = table.state
            if state is None or state.is_over:
                break
            views = list(table.view().private)
            seat = min(state.to_act())
            action = (state.sample_chance(table.chance_rng()) if seat == CHANCE
                      else bot.choose(state.view(seat), state.legal_actions(seat), Rng.derived(3, k)))
            table.submit(seat, action)
            assert_fresh(table)
            changed_booths += sum(a != b for a, b in zip(views, table.view().private, strict=True))
        assert changed_booths > 10
    finally:
        journal.close()


@pytest.mark.parametrize("game", GAMES)
def test_a_draft_click_shows_on_the_booth_signs(tmp_path: Path, game: str) -> None:
    """Clicks that only change a draft (no action) still show in the next scene."""
    table, _clock, journal = make_table(tmp_path, game, seed=4)
    try:
        rng = Rng(5)
        seen = 0
        for _ in range(60):
            if table.state is None or table.state.is_over or seen >= 3:
                break
            play_until(table, waiting_for_a_person)
            state = table.state
            assert state is not None
            booth = table.booth_of(min(state.to_act() - {CHANCE}))
            occupant = table.occupants[booth]
            assert occupant is not None
            cells = sorted(pos for pos, (_kind, b, _slot) in table.hits.items() if b == booth)
            seq, before = table.seq, table.scene()
            table.on_hit(cells[rng.randrange(len(cells))], occupant.name)
            if table.seq == seq and table.scene() is not before:
                seen += 1  # a draft moved: no action, a new scene
            assert_fresh(table)
        assert seen > 0
    finally:
        journal.close()


def test_a_refusal_note_shows_on_the_info_sign_and_goes_with_the_next_action(tmp_path: Path) -> None:
    table, _clock, journal = make_table(tmp_path, "bribery")
    try:
        play_until(table, waiting_for_a_person)
        info = table.arena.seats[0].signs["info"].at
        plain = table.scene().signs[info]
        table.notes[0] = (table.seq, "Not now: wait for your turn")
        noted = table.scene().signs[info]
        assert noted != plain and noted[0].startswith("Not now")
        play_until(table, lambda t: t.seq > table.notes[0][0])
        assert table.scene().signs[info] == fresh_render(table).signs[info] != noted
    finally:
        journal.close()


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), game=st.sampled_from(GAMES), lang=st.sampled_from(["en", "ja"]))
def test_the_cached_render_is_the_render_from_scratch_over_random_play(
    tmp_path: Path, seed: int, game: str, lang: str
) -> None:
    """Clicks, chat, bot actions and clock moves in random order: after each, every sign and
    block of the cached scene is what a render with nothing cached draws."""
    table, clock, journal = make_table(tmp_path, game, lang, seed)
    rng = Rng(seed)
    targets = sorted(table.hits.items())
    bot = table.game.bot()
    try:
        for k in range(250):
            state = table.state
            roll = rng.randrange(100)
            if roll < 25:
                clock.now += (0.4, 1.0, 3.5)[rng.randrange(3)]
            elif roll < 60 and state is not None:
                pos, (_kind, booth, _slot) = targets[rng.randrange(len(targets))]
                occupant = table.occupants[booth]
                if occupant is not None:
                    table.on_hit(pos, occupant.name)
            elif state is not None and not state.is_over and state.to_act() - {CHANCE}:
                seats = sorted(state.to_act() - {CHANCE})
                seat = seats[rng.randrange(len(seats))]
                table.submit(seat, bot.choose(state.view(seat), state.legal_actions(seat), Rng.derived(seed, k)))
            table.tick()
            assert_fresh(table)
    finally:
        journal.close()


def test_fitted_texts_are_shared_per_language() -> None:
    from mcbridge.i18n import locale

    assert sign_texts(locale("en")) is sign_texts(locale("en"))
    assert sign_texts(locale("en")) is not sign_texts(locale("ja"))
    shared = sign_texts(locale("ja"))
    assert sign_texts(shared) is shared
