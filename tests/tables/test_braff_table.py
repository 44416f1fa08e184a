"""Braff as an in-world sign table: a full match by clicks and chat (English and Japanese),
hidden characters and hands, the legal list in either form, and a controller killed
mid-round that resumes the same match.

What the world shows is read back from the embedded world's own store and compared with
the table's state and with a replay of the journal on a fresh core state.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sign_game_support import Players, player_actions, sign_at
from sign_support import PublicOnly, kill_and_resume, replayed, seat_people, shipped
from table_support import Rig, booth_cells, make_rig, outside_booths, sign_text, world_snapshot

from mcbridge import CONFIG_DIR, games
from mcbridge.cli import main
from mcbridge.core import Action
from mcbridge.games.braff import BraffState
from mcbridge.games.braff.actions import AllIn, Call, Discard, Doubt, Drop, Raise, Stand
from mcbridge.tables.kit import Scene
from mcbridge.tables.kits.braff import BraffKit, choices_of, raise_choices
from mcbridge.tables.kits.braff_render import BoardInfo, Choices, SeatDraft, render
from mcbridge.tables.kits.signs import PartMemo, panel_spots, time_left
from mcbridge.tables.match_seeds import chance_rng, match_seed
from mcbridge.world.embedded import EmbeddedHandle, start_embedded

NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi"]
CHIPS = {"en": "chips", "ja": "チップ"}
JA_COLOURS = {"red": "赤", "yellow": "黄", "blue": "青", "green": "緑", "black": "黒", "white": "白"}
EN_WORDS: dict[Action, str] = {Call(): "!call", AllIn(): "!all in", Drop(): "!drop", Stand(): "!stand",
                               Doubt("fake"): "!fake", Doubt("not_enough"): "!not enough", Discard(()): "!keep"}
JA_WORDS: dict[Action, str] = {Call(): "!ふーん", AllIn(): "!オールイン", Drop(): "!そんなにありません",
                               Stand(): "!そのまま", Doubt("fake"): "!にせ乳だ", Doubt("not_enough"): "!足りてない",
                               Discard(()): "!交換しない"}


class BraffMoves:
    """Chat lines for Braff actions, English and Japanese."""

    def typed(self, action: Action, lang: str) -> str:
        ja = lang == "ja"
        words = JA_WORDS if ja else EN_WORDS
        if action in words:
            return words[action]
        if isinstance(action, Discard):
            cards = " ".join(JA_COLOURS[c] if ja else c for c in action.cards)
            return f"!捨て {cards}" if ja else f"!discard {cards}"
        assert isinstance(action, Raise)
        return f"!ハイエストおっぱい {action.cup}カップ {action.stake}" if ja else f"!raise {action.cup} {action.stake}"


def public_only(rig: Rig) -> Scene:
    """What the table would draw from the public view alone: no hand, no drafts, nothing legal."""
    table = rig.table
    state = table.state
    assert isinstance(state, BraffState)
    public = state.view(None)
    if state.is_over:
        public = {**public, "standings": state.result()["standings"]}
    n = len(rig.arena.seats)
    return render(rig.arena, table.text, public, [None] * n, [o.name if o else None for o in table.occupants],
                  [table.rules_seat(b) for b in range(n)], [SeatDraft() for _ in range(n)], [Choices()] * n,
                  BoardInfo(seconds=time_left(table)), PartMemo())


def discarding(rig: Rig) -> None:
    """Cycle until the first round's discards are due, and drawn."""
    rig.run_until(lambda: isinstance(rig.table.state, BraffState) and rig.table.state.phase == "discard",
                  max_cycles=50)
    rig.step()


def start(rig: Rig, count: int = 4) -> Players:
    return Players(rig, seat_people(rig, NAMES[:count]), BraffMoves())


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_full_match_by_clicks_and_chat_equals_the_journal_replay(rig: Callable[..., Rig], world: EmbeddedHandle,
                                                                   lang: str) -> None:
    r = rig(shipped("braff", locale=lang), seed=4)
    spectator = world.players.join("Spectator")
    players = start(r, 4)
    r.bots.append(players)
    check = PublicOnly(r, lambda: public_only(r))
    check.run_until_finished()
    assert check.compared > len(players.sent) > 20  # every cycle of the match was compared
    state = r.table.state
    assert isinstance(state, BraffState) and state.is_over
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    final = replayed(r.table.game, saved)
    assert isinstance(final, BraffState) and final == state
    made = [(seat, action.to_json()) for seat, action, _ in players.sent]
    assert player_actions(saved) == made
    assert {how for _, _, how in players.sent} == {"click", "en", "ja"}
    clicked = {type(action).__name__ for _, action, how in players.sent if how == "click"}
    assert {"Discard", "Raise", "Doubt"} <= clicked, clicked
    assert any(isinstance(action, Raise) and how == "click" for _, action, how in players.sent)
    # the board's standings are the rules' ranking; each seat sign shows its chips
    rows = final.result()["standings"]
    board = [line for at in ("standings", "standings_more")
             for line in sign_text(world, r.arena, r.arena.board_signs[at].at) or () if line][1:]
    assert board == [f"{row['rank']}.{row['name']} {row['chips']}" for row in rows]
    for booth in range(4):
        lines = sign_text(world, r.arena, r.arena.seats[booth].signs["seat"].at)
        assert lines is not None and lines[1] == NAMES[booth]
        assert lines[2] == f"{CHIPS[lang]} {final.chips.stacks[booth]}"
    heard = spectator.chat_heard()
    assert {"en": "Final standings:", "ja": "最終順位:"}[lang] in heard and not spectator.private_messages()


def test_the_booth_shows_character_hand_and_cup_and_drafts_a_raise(rig: Callable[..., Rig],
                                                                    world: EmbeddedHandle) -> None:
    r = rig(shipped("braff"), seed=4)
    players = start(r, 3)
    discarding(r)
    state = r.table.state
    assert isinstance(state, BraffState)
    for booth in range(3):
        view = state.view(booth)
        panel = panel_spots(r.arena.seats[booth].cards)
        assert [(sign_text(world, r.arena, spot.at) or ("", ""))[1] for spot in panel] == view["hand"]
        cup = sign_text(world, r.arena, r.arena.seats[booth].signs["cup_now"].at)
        assert cup is not None and cup[1] == f"{view['cup_label']} [{view['cup']}]"
    # everyone keeps; the dealer then drafts a raise: CUP twice, +1 three times
    for _ in range(3):
        [seat] = state.to_act()
        players.make(seat, Discard(()), how="en")
        before = r.table.seq
        r.run_until(lambda: r.table.seq > before, max_cycles=20)  # noqa: B023
    r.step()
    assert state.phase == "open"
    [dealer] = state.to_act()
    booth = r.table.booth_of(dealer)
    kit = r.table.kit
    assert isinstance(kit, BraffKit)
    cups = raise_choices(state.legal_actions(dealer))
    player = players.people[booth]
    for name in ("cup", "cup", "plus", "plus", "plus"):
        p = r.arena.frame.to_world(sign_at(r, booth, name))
        player.right_click(p.x, p.y, p.z)
    r.step()
    r.step()
    assert (kit.drafts[booth].cup, kit.drafts[booth].stake) == (cups[2][0], cups[2][1] + 3)
    shown = sign_text(world, r.arena, sign_at(r, booth, "raise"))
    assert shown == ("HIGHEST!", f"cup {cups[2][0]}", f"stake {cups[2][1] + 3}", "[declare]")
    p = r.arena.frame.to_world(sign_at(r, booth, "raise"))
    player.right_click(p.x, p.y, p.z)
    r.step()
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    assert r.table.game.action_from_json(saved.actions[-1][1]) == Raise(cups[2][0], cups[2][1] + 3)


def test_raise_choices_read_plain_lists_and_range_entries_alike() -> None:
    game = games.load("braff", {})
    state = game.new_match(["A", "B", "C"], 3)
    rng = chance_rng(1, 0)
    while state.phase != "open":
        seat = min(state.to_act())
        state.apply(seat, state.sample_chance(rng) if seat < 0 else Discard(()))
    [dealer] = state.to_act()
    legal = state.legal_actions(dealer)
    plain = raise_choices(legal)
    assert plain and plain[0][0] == "A" and all(lo <= hi for _, lo, hi in plain)

    class Span(Action):
        """The shape of the core's ActionRange (branch core)."""

        def __init__(self, first: Raise, last: int) -> None:
            self.first, self.field, self.last, self.step = first, "stake", last, 1

        def __len__(self) -> int:
            return self.last - self.first.stake + 1

        def at(self, index: int) -> Action:
            return Raise(self.first.cup, self.first.stake + index)

    compact: list[Action] = [Span(Raise(cup, lo), hi) for cup, lo, hi in plain]
    compact += [a for a in legal if not isinstance(a, Raise)]
    assert raise_choices(compact) == plain
    assert choices_of(compact) == choices_of(legal)


# -- hidden information --------------------------------------------------------------------
def seed_with_same_dealer(base: int, arena: str, players: int) -> int:
    """Another table seed whose first match has the same first dealer as `base`'s."""
    def dealer(seed: int) -> int:
        return chance_rng(match_seed(seed, arena, 0), 0).randrange(players)

    return next(s for s in range(base + 1, base + 200) if dealer(s) == dealer(base))


def scripted_round(rig: Rig, players: Players) -> list[Any]:
    """Everyone keeps, the dealer declares the smallest cup, the others call, the dealer
    stands; then "not enough!" all round, by clicks. What a spectator can see after each
    action (the last doubt shows the hands)."""
    table = rig.table
    outside = outside_booths(rig.arena)
    spectator = rig.world.players.join("Spectator")

    def seen() -> Any:
        rig.step()
        rig.step()
        return (spectator.chat_heard(), spectator.private_messages(), world_snapshot(rig.world, rig.arena, outside))

    views = [seen()]
    while True:
        state = table.state
        assert isinstance(state, BraffState)
        if state.round > 1 or state.is_over:
            return views
        [seat] = state.to_act()
        action: Action
        if state.phase == "discard":
            action = Discard(())
        elif state.phase == "open":
            cup, lo, _ = raise_choices(state.legal_actions(seat))[0]
            action = Raise(cup, lo)
        elif state.phase == "bet":
            action = Stand() if seat == state.highest_seat else Call()
        else:
            action = Doubt("not_enough")
        before = table.seq
        players.make(seat, action, how="click")
        rig.run_until(lambda: table.seq > before, max_cycles=20)  # noqa: B023
        views.append(seen())


def test_different_deals_look_the_same_outside_the_booths(tmp_path: Path) -> None:
    # Two table seeds with the same first dealer: the deals differ, the scripted public play
    # is the same; nothing outside the booths may differ until the show.
    arena = shipped("braff")
    seeds = [4, seed_with_same_dealer(4, arena.name, 3)]
    runs = []
    for seed in seeds:
        with start_embedded(port=0, tps=0) as world:
            rig = make_rig(world, arena, tmp_path / f"{seed}.sqlite", seed=seed)
            players = start(rig, 3)
            discarding(rig)
            inside = world_snapshot(world, rig.arena, sorted(booth_cells(rig.arena)))
            views = scripted_round(rig, players)
            runs.append((rig.table.state, inside, views))
            rig.close()
    (a, inside_a, views_a), (b, inside_b, views_b) = runs
    assert isinstance(a, BraffState) and isinstance(b, BraffState)
    assert inside_a != inside_b  # different deals, and the booths show them
    assert len(views_a) == len(views_b) >= 9  # 3 discards, open, 2 calls, stand, 3 doubts
    for step, ((chat_a, private_a, world_a), (chat_b, private_b, world_b)) in enumerate(
            zip(views_a[:-1], views_b[:-1], strict=True)):
        assert chat_a == chat_b, f"chat differs after action {step}"
        assert private_a == private_b == []
        differing = [p for p in world_a if world_a[p] != world_b[p]]
        assert differing == [], f"outside the booths, {differing[:5]} differ after action {step}"
    assert a.last_round != b.last_round  # the show made the deals public, and they differ


# -- SIGKILL and resume --------------------------------------------------------------------
def test_a_controller_killed_mid_round_resumes_the_same_match(world: EmbeddedHandle, tmp_path: Path) -> None:
    run = kill_and_resume(
        world, tmp_path, "braff",
        {"name: braff-1": "name: braff-kill", "locale: ja ": "locale: en ", "countdown: 10}": "countdown: 1}"},
        NAMES[:3], games.load("braff").bot(), BraffMoves().typed,
        kill_when=lambda state: state.phase == "bet",  # mid-round: a cup is declared
        done_when=lambda state: False, damage="status")
    final = replayed(run.game, run.after)
    assert isinstance(final, BraffState) and final.is_over  # played to the end after the restart
    assert len(player_actions(run.after)) > len(player_actions(run.before)) > 0


# -- every action by its sign, the Japanese table ------------------------------------------
def test_every_kind_of_action_can_be_clicked(rig: Callable[..., Rig]) -> None:
    r = rig(shipped("braff"), seed=4)
    players = start(r, 4)
    discarding(r)
    state = r.table.state
    assert isinstance(state, BraffState)
    dealer = state.dealer
    assert dealer is not None
    order = [(dealer + k) % 4 for k in range(4)]

    def cheapest(s: BraffState, seat: int) -> Action:
        cup, lo, _ = raise_choices(s.legal_actions(seat))[0]
        return Raise(cup, lo)

    def bigger(s: BraffState, seat: int) -> Action:
        cup, lo, _ = raise_choices(s.legal_actions(seat))[1]
        return Raise(cup, lo + 1)

    script: list[Callable[[BraffState, int], Action]] = [
        lambda s, seat: Discard(tuple(s.hands[seat][:2])),  # the dealer discards two
        lambda s, seat: Discard((s.hands[seat][0],)),
        lambda s, seat: Discard(()),
        lambda s, seat: Discard(()),
        cheapest,  # the dealer declares
        lambda s, seat: Call(),
        bigger,  # a raise over it, with one chip more than it needs
        lambda s, seat: Drop(),
        lambda s, seat: Call(),  # the dealer calls the raise
        lambda s, seat: Call(),
        lambda s, seat: Stand(),  # back at the highest player
        lambda s, seat: Doubt("fake"),
        lambda s, seat: Doubt("not_enough"),
        lambda s, seat: Doubt("fake"),
    ]
    wanted = []
    for make in script:
        [seat] = state.to_act()
        action = make(state, seat)
        wanted.append((seat, action.to_json()))
        before = r.table.seq
        players.make(seat, action, how="click")
        r.run_until(lambda: r.table.seq > before, max_cycles=20)  # noqa: B023
        r.step()
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    assert player_actions(saved) == wanted
    assert [seat for seat, _ in wanted[:4]] == order
    assert state.round == 2 and state.last_round is not None and state.last_round["outcome"] == "show"


def test_the_japanese_table_has_a_text_for_every_sign(rig: Callable[..., Rig]) -> None:
    r = rig(shipped("braff", locale="ja"), seed=4)
    start(r, 3)
    discarding(r)
    lines = [line for text in r.table.scene().signs.values() for line in text]
    assert not [line for line in lines if "braff." in line or "signs." in line]
    assert "交換" in " ".join(lines)


def test_a_discard_of_cards_not_held_is_refused_without_counting_the_hand_in_public(
        rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    r = rig(shipped("braff"), seed=4)
    spectator = world.players.join("Spectator")
    players = start(r, 3)
    discarding(r)
    state = r.table.state
    assert isinstance(state, BraffState)
    [seat] = state.to_act()
    booth = r.table.booth_of(seat)
    colour = next(c for c in JA_COLOURS if state.hands[seat].count(c) < 2)
    r.table.can_tell = False  # a server without private messages: refusals go to public chat
    players.people[booth].chat(f"!discard {colour} {colour}")
    r.step()
    r.step()
    public = [line for line in spectator.chat_heard() if line.startswith(f"@{NAMES[booth]}:")]
    # addressed in public chat, cut to the chat box: every line carries the address
    assert public == [f"@{NAMES[booth]}: Those cards are not all in your hand:",
                      f"@{NAMES[booth]}: your hand is on the signs inside your booth."]
    assert state.phase == "discard" and state.to_act() == {seat}


# -- bad arena files -----------------------------------------------------------------------
PANEL = "cards: {from: [2, 3, 12], to: [6, 3, 12], faces: north}"


@pytest.mark.parametrize(("old", "new", "words", "at"), [
    (PANEL, PANEL.replace("to: [6,", "to: [4,"), "cards holds 3 signs but a hand needs 5; make it at least 5 cells",
     "cards:"),
    (PANEL, PANEL.replace(", faces: north", ""), "cards needs 'faces'", "cards:"),
    ("  - at: [36, 0, 0]\n", "  - at: [36, 0, 0]\n  - at: [45, 0, 0]\n", "braff allows at most 5 seats",
     "- at: [0, 0, 0]"),
    ("options: {}", "options: {starting_chips: 0}", "starting_chips: 0 is not allowed; expected a whole number from 1",
     "options:"),
])
def test_a_bad_braff_arena_names_the_line_and_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      old: str, new: str, words: str, at: str) -> None:
    text = (CONFIG_DIR / "arenas" / "braff.yaml").read_text(encoding="utf-8")
    assert text.count(old) == 1
    edited = text.replace(old, new).replace("to: [44, 6, 16]", "to: [60, 6, 16]")
    path = tmp_path / "braff.yaml"
    path.write_text(edited, encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    [line] = [line for line in capsys.readouterr().out.splitlines() if words in line]
    where = re.match(rf"^{re.escape(str(path))}:(\d+):(\d+): ", line)
    assert where, line
    assert at in edited.splitlines()[int(where[1]) - 1], line
