"""Dice Bluff at an in-world sign table: whole matches by clicks and chat, hidden dice,
bad input, and a controller killed mid-match.

The world is real (the embedded server over TCP); the players are simulated people who
click signs with a sword or type commands in English and Japanese.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from sign_support import (
    PublicOnly,
    SignPlayers,
    assert_same_outside,
    click_at,
    kill_and_resume,
    play_script,
    private_sign_sightlines,
    replayed,
    seat_people,
    shipped,
)
from table_support import Rig, sign_text

from mcbridge import CONFIG_DIR, games
from mcbridge.core import CHANCE, Action
from mcbridge.games.dice_bluff import Bid, Challenge, DiceBluff, DiceBluffBot, DiceBluffState, SetAside
from mcbridge.tables.arena import SeatPlan, SignSpot
from mcbridge.tables.config import ArenaError, load_arena
from mcbridge.tables.kit import Scene
from mcbridge.tables.kits.dice_bluff import DiceBluffKit
from mcbridge.tables.kits.dice_bluff_render import DiceUi, Frame, render
from mcbridge.tables.kits.signs import PartMemo, panel_spots, time_left
from mcbridge.tables.match_seeds import chance_rng, match_seed
from mcbridge.world.embedded import EmbeddedHandle

NAMES = ["Aki", "Ben", "Chie", "Dan"]
STANDING = re.compile(r"^(\d+)\.(\S+) (\d+)$")


def dice_clicks(rig: Rig, booth: int, seat: int, action: Action) -> list[tuple[str, int]]:
    """The clicks that make `action` from the booth's draft as its signs show it."""
    kit = rig.table.kit
    assert isinstance(kit, DiceBluffKit)
    return kit.clicks_for(booth, seat, action)


def dice_command(action: Action, lang: str, wild: int = 6) -> str:
    """The chat line for `action`; the wild face by its word (★ stars in Bluff, pacos in Perudo)."""
    words = {("ja", 6): "☆", ("en", 6): "star", ("ja", 1): "パコ", ("en", 1): "paco"}

    def face(f: int) -> str:
        return words[lang, f] if f == wild else str(f)

    if isinstance(action, Challenge):
        return "!チャレンジ" if lang == "ja" else "!challenge"
    if isinstance(action, SetAside):
        return ("!出す " if lang == "ja" else "!aside ") + " ".join(face(d) for d in action.dice)
    assert isinstance(action, Bid)
    if lang == "ja":
        return f"!宣言 {face(action.face)}が{action.count}個"
    return f"!bid {action.count} {face(action.face)}"


@pytest.mark.parametrize("ruleset", ["bluff", "perudo"])
def test_a_full_match_by_clicks_and_chat_ends_as_the_journal_replays(
        rig: Callable[..., Rig], world: EmbeddedHandle, ruleset: str) -> None:
    r = rig(shipped("dice_bluff", options={"dice_per_player": 3}, settings={"ruleset": ruleset}), seed=4)
    assert isinstance(r.table.game, DiceBluff) and r.table.game.rules.ruleset == ruleset
    people = seat_people(r, NAMES)
    crowd = SignPlayers(r, people, DiceBluffBot(), dice_clicks,
                        partial(dice_command, wild=r.table.game.rules.wild_face))
    r.bots.append(crowd)
    check = PublicOnly(r, partial(public_scene, r))
    check.run_until_finished()
    assert check.compared > 100
    state = r.table.state
    assert isinstance(state, DiceBluffState) and state.is_over
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    final = replayed(r.table.game, saved)
    assert final == state and final.result() == state.result()
    # every decision made by click or chat was applied as chosen, in order: nothing refused
    made = [(seat, r.table.game.action_from_json(d)) for seat, d in saved.actions if seat != CHANCE]
    assert made == [(seat, action) for seat, action, _ in crowd.sent]
    by = {mode: {type(a).__name__ for _, a, m in crowd.sent if m == mode} for mode in ("click", "en", "ja")}
    assert {"Bid", "Challenge"} <= by["click"] and by["en"] and by["ja"]
    if ruleset == "bluff":
        assert "SetAside" in by["click"] | by["en"] | by["ja"], "nobody set dice aside: pick another seed"
    else:
        assert state.palifico_used != [False] * 4, "no palifico round was played: pick another seed"
    # the board: the rules' standings and each seat's dice
    rows = state.result()["standings"]
    lines = [line for key in ("standings", "standings2")
             for line in sign_text(world, r.arena, r.arena.board_signs[key].at) or ()]
    listed = [m for m in (STANDING.match(line) for line in lines) if m]
    assert [(int(m[1]), m[2], int(m[3])) for m in listed] == [(w["rank"], w["name"], w["dice"]) for w in rows]
    for plan in r.arena.seats[:4]:
        seat_sign = sign_text(world, r.arena, plan.signs["seat"].at)
        assert seat_sign is not None and seat_sign[1] == NAMES[plan.index]
        assert seat_sign[2] == f"dice {state.dice[plan.index]}"


def test_no_private_sign_can_be_seen_from_outside_a_booth() -> None:
    """On a plain server a booth is all that hides the dice and the draft: no straight line
    from a player's eyes outside the booths reaches the front of any of their signs."""
    arena = shipped("dice_bluff")

    def private(seat: SeatPlan) -> list[SignSpot]:
        return [*panel_spots(seat.cup), *(seat.signs[n] for n in ("face", "minus", "bid", "plus", "challenge",
                                                                   "aside", "info"))]

    assert private_sign_sightlines(arena, private) == []


def public_scene(rig: Rig) -> Scene:
    """What the table would draw from the public view alone (no dice, no drafts)."""
    table = rig.table
    kit = table.kit
    assert isinstance(kit, DiceBluffKit) and isinstance(table.state, DiceBluffState)
    n = len(rig.arena.seats)
    public = table.state.view(None)
    if table.state.is_over:
        public["standings"] = table.state.result()["standings"]
    frame = Frame(public=public, private=[None] * n, legal=[[]] * n,
                  occupants=[o.name if o else None for o in table.occupants],
                  seat_of_booth=[table.rules_seat(b) for b in range(n)], ui=[DiceUi() for _ in range(n)],
                  reveal=kit.revealing(), seconds=time_left(table), countdown=None)
    return render(rig.arena, table.text, frame, PartMemo())


def _same_opener_seeds(arena: Any) -> tuple[int, int]:
    """Two table seeds whose first matches have the same first opener but other dice."""
    game = games.load(arena.game, arena.game_options())
    seen: dict[int, tuple[int, Any]] = {}
    for seed in range(1, 200):
        ms = match_seed(seed, arena.name, 0)
        state = game.new_match(NAMES, ms)
        state.apply(CHANCE, state.sample_chance(chance_rng(ms, 0)))
        opener = state.opener
        roll = state.sample_chance(chance_rng(ms, 1))
        assert opener is not None
        if opener in seen and seen[opener][1] != roll:
            return seen[opener][0], seed
        seen.setdefault(opener, (seed, roll))
    raise AssertionError("no two seeds with the same opener")


def test_different_dice_look_the_same_outside_the_booths_until_the_cups_are_lifted(tmp_path: Path) -> None:
    arena = shipped("dice_bluff")
    # the same public moves in both: two raises by click, one by chat, then a challenge
    script = [(Bid(1, 2), "click"), (Bid(2, 2), "click"), (Bid(2, 3), "en"), (Challenge(), "click")]
    a, b = (play_script(tmp_path, arena, seed, NAMES, script, dice_clicks, dice_command,
                        lambda state: [list(h or []) for h in state.hidden])
            for seed in _same_opener_seeds(arena))
    assert a.dealt != b.dealt and a.inside != b.inside  # different dice, and the booths show them
    assert_same_outside(a, b, len(script))
    assert a.seen[-1][2] != b.seen[-1][2]  # the challenge lifted the cups: now the dice are public


def test_bad_input_gets_a_one_line_answer_and_other_booths_ignore_clicks(rig: Callable[..., Rig]) -> None:
    r = rig(shipped("dice_bluff"))
    people = seat_people(r, NAMES[:2])
    r.step()
    r.step()
    state = r.table.state
    assert isinstance(state, DiceBluffState) and state.phase == "bid"
    [seat] = state.to_act()
    waiting = people[r.table.booth_of(1 - seat)]
    acting = people[r.table.booth_of(seat)]
    seq = r.table.seq
    heard = {id(p): len(p.private_messages()) for p in people}  # told the sword is for the signs
    waiting.chat("!bid 1 2")  # not their turn
    acting.chat("!challenge")  # nothing to challenge yet
    acting.chat("!frobnicate")  # no such command
    click_at(r, waiting, r.table.booth_of(seat), ("bid", 0))  # someone else's booth
    for _ in range(4):
        r.step()
    assert r.table.seq == seq and state.bid is None
    [told_waiting] = waiting.private_messages()[heard[id(waiting)]:]
    assert "turn" in told_waiting.lower(), told_waiting
    told = acting.private_messages()[heard[id(acting)]:]
    assert len(told) == 2 and "!bid" in told[0] and "bid" in told[1], told


# -- SIGKILL --------------------------------------------------------------------------------
def test_a_controller_killed_mid_round_resumes_the_match(world: EmbeddedHandle, tmp_path: Path) -> None:
    run = kill_and_resume(
        world, tmp_path, "dice_bluff",
        {"name: dice-bluff-1": "name: dice-kill", "locale: ja ": "locale: en ",
         "options: {dice_per_player: 5}": "options: {dice_per_player: 2}"},
        NAMES[:3], DiceBluffBot(), dice_command,
        kill_when=lambda state: len(state.history) >= 2,  # mid-round: two bids stand
        done_when=lambda state: False, damage="bid")
    assert replayed(run.game, run.after).is_over  # played to the end after the restart


def test_a_malformed_dice_bluff_section_names_its_key_and_line(tmp_path: Path) -> None:
    text = (CONFIG_DIR / "arenas" / "dice_bluff.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("  ruleset: bluff ", "  ruleset: bluf "), encoding="utf-8")
    with pytest.raises(ArenaError) as err:
        load_arena(bad)
    [problem] = err.value.problems
    line = 1 + text.splitlines().index(next(s for s in text.splitlines() if s.startswith("  ruleset: bluff ")))
    assert problem.startswith(f"{bad}:{line}:") and "ruleset" in problem and "perudo" in problem, problem
