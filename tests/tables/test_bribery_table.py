"""Bribery as an in-world sign table: a full match by clicks and chat (English and
Japanese), hidden hands, and a controller killed mid-round that resumes the same match.

What the world shows is read back from the embedded world's own store and compared with
the table's state and with a replay of the journal on a fresh core state.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sign_game_support import Players, player_actions, sign_at
from sign_support import PublicOnly, kill_and_resume, replayed, seat_people, shipped
from table_support import Rig, booth_cells, make_rig, outside_booths, sign_text, world_snapshot

from mcbridge import games
from mcbridge.core import Action
from mcbridge.games.bribery import INFORMANT, AllIn, BriberyState, Call, Fold, Pass, Raise
from mcbridge.tables.kit import Scene
from mcbridge.tables.kits.bribery import BriberyKit
from mcbridge.tables.kits.bribery_render import BoardInfo, SeatDraft, render
from mcbridge.tables.kits.signs import PartMemo, panel_spots, time_left
from mcbridge.world.embedded import EmbeddedHandle, start_embedded

NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi"]
JA_CARD = {INFORMANT: "密告"}


class BriberyMoves:
    """Chat lines for Bribery actions, English and Japanese."""

    def typed(self, action: Action, lang: str) -> str:
        ja = lang == "ja"
        if isinstance(action, Pass):
            informant = action.refill == "card_and_informant"
            return ("!パス" + (" 密告" if informant else "")) if ja else ("!pass" + (" informant" if informant else ""))
        if isinstance(action, AllIn):
            return "!オールイン" if ja else "!allin"
        if isinstance(action, Fold):
            return "!フォールド" if ja else "!fold"
        assert isinstance(action, Raise | Call)
        cards = " ".join(JA_CARD.get(c, str(c)) if ja else ("informant" if c == INFORMANT else str(c))
                         for c in action.cards)
        word = ("レイズ" if ja else "raise") if isinstance(action, Raise) else ("コール" if ja else "call")
        return f"!{word} {cards}"


def betting(rig: Rig) -> None:
    """Cycle until the first round's betting is on, and drawn."""
    rig.run_until(lambda: isinstance(rig.table.state, BriberyState) and rig.table.state.phase == "bet", max_cycles=50)
    rig.step()


def applied_after(rig: Rig, before: int) -> None:
    rig.run_until(lambda: rig.table.seq > before, max_cycles=20)


def public_only(rig: Rig) -> Scene:
    """What the table would draw from the public view alone: no hand, no picks, nothing legal."""
    table, kit = rig.table, rig.table.kit
    state = table.state
    assert isinstance(state, BriberyState) and isinstance(kit, BriberyKit)
    public = state.view(None)
    if state.is_over:
        public = {**public, "standings": state.result()["standings"]}
    n = len(rig.arena.seats)
    return render(rig.arena, table.text, public, [None] * n, [o.name if o else None for o in table.occupants],
                  [table.rules_seat(b) for b in range(n)], [SeatDraft() for _ in range(n)], [frozenset()] * n,
                  kit.values, BoardInfo(seconds=time_left(table)), PartMemo())


def start(rig: Rig, count: int = 4) -> Players:
    return Players(rig, seat_people(rig, NAMES[:count]), BriberyMoves())


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_full_match_by_clicks_and_chat_equals_the_journal_replay(rig: Callable[..., Rig], world: EmbeddedHandle,
                                                                   lang: str) -> None:
    r = rig(shipped("bribery", locale=lang), seed=3)
    spectator = world.players.join("Spectator")
    players = start(r, 4)
    r.bots.append(players)
    check = PublicOnly(r, lambda: public_only(r))
    check.run_until_finished()
    assert check.compared > len(players.sent) > 20  # every cycle of the match was compared
    state = r.table.state
    assert isinstance(state, BriberyState) and state.is_over
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    final = replayed(r.table.game, saved)
    assert isinstance(final, BriberyState) and final == state
    # every decision made in the world, and nothing else, is in the journal, in order
    made = [(seat, action.to_json()) for seat, action, _ in players.sent]
    assert player_actions(saved) == made
    ways = {how for _, _, how in players.sent}
    assert ways == {"click", "en", "ja"}, ways
    kinds = {type(action).__name__ for _, action, how in players.sent if how == "click"}
    assert {"Raise", "Pass"} <= kinds, kinds
    # the board's standings are the rules' ranking; each seat sign shows its VP
    rows = final.result()["standings"]
    board = [line for at in ("standings", "standings_more")
             for line in sign_text(world, r.arena, r.arena.board_signs[at].at) or () if line][1:]
    assert board == [f"{row['rank']}.{row['name']} {row['vp']}VP" for row in rows]
    for booth in range(4):
        lines = sign_text(world, r.arena, r.arena.seats[booth].signs["seat"].at)
        assert lines is not None and lines[1] == NAMES[booth] and lines[2].startswith(f"VP {final.vp(booth)} ")
    heard = spectator.chat_heard()
    assert {"en": "Final standings:", "ja": "最終順位:"}[lang] in heard and not spectator.private_messages()


def test_the_hand_panel_shows_the_hand_and_picks_and_a_refused_click_says_why(rig: Callable[..., Rig],
                                                                            world: EmbeddedHandle) -> None:
    r = rig(shipped("bribery"), seed=3)
    players = start(r, 3)
    betting(r)
    state = r.table.state
    assert isinstance(state, BriberyState)
    [seat] = state.to_act()
    booth = r.table.booth_of(seat)
    kit = r.table.kit
    assert isinstance(kit, BriberyKit)
    panel = panel_spots(r.arena.seats[booth].cards)
    hand = state.hands[seat]
    for spot, value in zip(panel, kit.values, strict=True):
        lines = sign_text(world, r.arena, spot.at)
        assert lines is not None and lines[1] == f"you have {hand.count(value)}"
    # CALL with nothing picked at the start of a round: there is nothing to call; refused privately
    player = players.people[booth]
    p = r.arena.frame.to_world(sign_at(r, booth, "call"))
    player.right_click(p.x, p.y, p.z)
    r.step()
    assert r.table.state is state and state.to_act() == {seat} and r.table.seq == len(r.journal.match(
        r.table.match_id).actions)  # type: ignore[arg-type]
    told = player.private_messages() or [line for line in player.chat_heard() if line.startswith(f"@{NAMES[booth]}")]
    assert told, "the refusal was not told to the player"
    # picking: the first value held, clicked once per copy and once more, wraps back to none
    value = next(v for v in kit.values if v in hand)
    p = r.arena.frame.to_world(panel[kit.values.index(value)].at)
    for k in range(1, hand.count(value) + 1):
        player.right_click(p.x, p.y, p.z)
        r.step()  # the click is read
        r.step()  # and drawn
        assert kit.drafts[booth].picked == [value] * k
        shown = sign_text(world, r.arena, panel[kit.values.index(value)].at)
        assert shown is not None and shown[2] == f"picked {k}"
    player.right_click(p.x, p.y, p.z)
    r.step()
    assert kit.drafts[booth].picked == []
    # another booth's player clicking this booth's sign changes nothing
    other = players.people[(booth + 1) % 3]
    other.hold(276)
    other.right_click(p.x, p.y, p.z)
    r.step()
    assert kit.drafts[booth].picked == []


# -- hidden information --------------------------------------------------------------------
def scripted_round(rig: Rig, players: Players) -> list[Any]:
    """The first seat raises with its two lowest cards, the next calls with its two lowest,
    the others fold: all by clicks. What a spectator can see after each action."""
    table = rig.table
    outside = outside_booths(rig.arena)
    spectator = rig.world.players.join("Spectator")

    def seen() -> Any:
        rig.step()
        rig.step()
        return (spectator.chat_heard(), spectator.private_messages(), world_snapshot(rig.world, rig.arena, outside))

    views = [seen()]
    for step in range(3):
        state = table.state
        assert isinstance(state, BriberyState) and state.phase == "bet"
        [seat] = state.to_act()
        low = tuple(sorted(state.hands[seat])[:2])
        action: Action = Raise(low) if step == 0 else Call(low) if step == 1 else Fold()
        before = table.seq
        players.make(seat, action, how="click")
        applied_after(rig, before)
        views.append(seen())
    return views


def test_different_hands_look_the_same_outside_the_booths(tmp_path: Path) -> None:
    # Same seeds, same clicks by position; only the luck card values differ, so the deal (a
    # permutation of the same count of cards) gives different hands and the same public history.
    runs = []
    for name, values in [("usual", [100, 200, 300, 400, 500]), ("other", [110, 220, 330, 440, 550])]:
        with start_embedded(port=0, tps=0) as world:
            rig = make_rig(world, shipped("bribery", options={"luck_values": values}), tmp_path / f"{name}.sqlite")
            players = start(rig, 3)
            betting(rig)
            inside = world_snapshot(world, rig.arena, sorted(booth_cells(rig.arena)))
            views = scripted_round(rig, players)
            runs.append((rig.table.state, inside, views))
            rig.close()
    (a, inside_a, views_a), (b, inside_b, views_b) = runs
    assert isinstance(a, BriberyState) and isinstance(b, BriberyState)
    assert a.hands != b.hands and inside_a != inside_b  # different hands, and the booths show them
    for step, ((chat_a, private_a, world_a), (chat_b, private_b, world_b)) in enumerate(
            zip(views_a[:-1], views_b[:-1], strict=True)):
        assert chat_a == chat_b, f"chat differs after action {step}"
        assert private_a == private_b == []
        differing = [p for p in world_a if world_a[p] != world_b[p]]
        assert differing == [], f"outside the booths, {differing[:5]} differ after action {step}"
    # the fold ended the round: the showdown is public, and now the totals differ on the board
    board = rig.arena.board_signs["showdown"].at
    assert views_a[-1][2][board] != views_b[-1][2][board]


# -- SIGKILL and resume --------------------------------------------------------------------
def test_a_controller_killed_mid_round_resumes_the_same_match(world: EmbeddedHandle, tmp_path: Path) -> None:
    run = kill_and_resume(
        world, tmp_path, "bribery",
        {"name: bribery-1": "name: bribery-kill", "locale: ja ": "locale: en ", "countdown: 10}": "countdown: 1}"},
        NAMES[:3], games.load("bribery").bot(), BriberyMoves().typed,
        kill_when=lambda state: state.phase == "bet" and any(state.played),  # mid-round: cards are on the table
        done_when=lambda state: False, damage="status")
    final = replayed(run.game, run.after)
    assert isinstance(final, BriberyState) and final.is_over  # played to the end after the restart
    assert len(player_actions(run.after)) > len(player_actions(run.before)) > 0


# -- every action by its sign, the turn clock, the Japanese table ---------------------------
def lowest(state: BriberyState, seat: int, n: int) -> tuple[int, ...]:
    return tuple(sorted(state.hands[seat])[:n])


def test_every_kind_of_action_can_be_clicked_and_the_turn_sign_counts_down(rig: Callable[..., Rig],
                                                                          world: EmbeddedHandle) -> None:
    r = rig(shipped("bribery"), seed=3)
    players = start(r, 4)
    betting(r)
    state = r.table.state
    assert isinstance(state, BriberyState)
    turn = r.arena.board_signs["turn"].at
    shown = sign_text(world, r.arena, turn)
    assert shown is not None and shown[1] == state.players[state.turn]  # type: ignore[index]
    first = int(shown[3].split()[0])
    for _ in range(40):  # two seconds of the table's clock
        r.step()
    later = sign_text(world, r.arena, turn)
    assert later is not None and first <= 60 and int(later[3].split()[0]) < first

    script: list[Callable[[BriberyState, int], Action]] = [
        lambda s, seat: Pass("card_and_informant"),
        lambda s, seat: Raise(lowest(s, seat, 1)),
        lambda s, seat: Call(lowest(s, seat, 1)),
        lambda s, seat: AllIn(),
        lambda s, seat: Fold(),
        lambda s, seat: Fold(),
        lambda s, seat: Pass("two_cards"),  # the next round: its start player passes
    ]
    wanted = []
    for make in script:
        [seat] = state.to_act()
        action = make(state, seat)
        wanted.append((seat, action.to_json()))
        before = r.table.seq
        players.make(seat, action, how="click")
        applied_after(r, before)
        r.step()
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    assert player_actions(saved) == wanted
    assert state.round == 2


def test_the_japanese_table_has_a_text_for_every_sign(rig: Callable[..., Rig]) -> None:
    r = rig(shipped("bribery", locale="ja"), seed=3)
    start(r, 3)
    betting(r)
    lines = [line for text in r.table.scene().signs.values() for line in text]
    assert not [line for line in lines if "bribery." in line or "signs." in line]
    assert "賭け" in " ".join(lines)


def test_a_bet_of_cards_not_held_is_refused_without_naming_the_hand_in_public(rig: Callable[..., Rig],
                                                                              world: EmbeddedHandle) -> None:
    r = rig(shipped("bribery"), seed=3)
    spectator = world.players.join("Spectator")
    players = start(r, 3)
    betting(r)
    state = r.table.state
    assert isinstance(state, BriberyState)
    [seat] = state.to_act()
    booth = r.table.booth_of(seat)
    bet = "!raise " + " ".join(["100"] * (state.hands[seat].count(100) + 1))  # one more 100 than held
    player = players.people[booth]
    player.chat(bet)  # with private messages: the rules' answer, hand included, to this player alone
    r.step()
    r.step()
    told = player.private_messages()[-1]
    assert "your hand:" in told and not any("hand" in line for line in spectator.chat_heard())
    r.table.can_tell = False  # a server without private messages: the answer goes to public chat
    player.chat(bet)
    r.step()
    r.step()
    public = [line for line in spectator.chat_heard() if line.startswith(f"@{NAMES[booth]}:")]
    # addressed in public chat, cut to the chat box: every line carries the address
    assert public == [f"@{NAMES[booth]}: Those cards are not all in your hand:",
                      f"@{NAMES[booth]}: your hand is on the signs inside your booth."]
    assert r.table.state is state and state.to_act() == {seat}


def test_chat_out_of_turn_or_unknown_gets_one_line_naming_what_is_legal(rig: Callable[..., Rig],
                                                                       world: EmbeddedHandle) -> None:
    r = rig(shipped("bribery"), seed=3)
    players = start(r, 3)
    betting(r)
    state = r.table.state
    assert isinstance(state, BriberyState)
    [seat] = state.to_act()
    waiting = (seat + 1) % 3
    before = r.table.seq
    players.people[r.table.booth_of(waiting)].chat("!fold")  # not their turn
    players.people[r.table.booth_of(seat)].chat("!bluff")  # no such command
    r.step()
    r.step()
    assert r.table.seq == before and state.to_act() == {seat}
    [out_of_turn] = players.people[r.table.booth_of(waiting)].private_messages()[-1:]
    assert out_of_turn == f"It is not your turn; waiting for {NAMES[r.table.booth_of(seat)]}."
    [unknown] = players.people[r.table.booth_of(seat)].private_messages()[-1:]
    assert unknown.startswith('Unknown command "!bluff".') and "!pass" in unknown and "!raise" in unknown
