"""Briscola bugiarda at an in-world sign table (exactly five booths): a whole match by
clicks and chat, hidden hands and the secret partner, bad input, and a controller killed
mid-deal.

The world is real (the embedded server over TCP); the players are simulated people who
click cards and menu signs with a sword or type commands in English and Japanese.
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
from mcbridge.games.briscola_bugiarda import BriscolaState
from mcbridge.games.briscola_bugiarda.actions import Bid, CallTrump, Pass, Play, Solo
from mcbridge.games.briscola_bugiarda.bot import BriscolaBot
from mcbridge.games.briscola_bugiarda.cards import rank_of, suit_of
from mcbridge.tables.config import ArenaError, load_arena
from mcbridge.tables.kit import Scene
from mcbridge.tables.kits.briscola_bugiarda import BriscolaKit
from mcbridge.tables.kits.briscola_bugiarda_render import Frame, render
from mcbridge.tables.kits.signs import PartMemo, panel_spots, time_left
from mcbridge.tables.match_seeds import chance_rng, match_seed
from mcbridge.world.embedded import EmbeddedHandle

NAMES = ["Aki", "Ben", "Chie", "Dan", "Emi"]
JA_SUITS = {"coppe": "カップ", "denari": "金貨", "spade": "剣", "bastoni": "棍棒"}
STANDING = re.compile(r"^(\d+)\.(\S+) ([+-]\d+)$")


def briscola_clicks(rig: Rig, booth: int, seat: int, action: Action) -> list[tuple[str, int]]:
    """A card on the hand panel; anything else on the menu ("more" first when needed)."""
    kit = rig.table.kit
    assert isinstance(kit, BriscolaKit)
    return kit.clicks_for(booth, seat, action)


def briscola_command(action: Action, lang: str) -> str:
    ja = lang == "ja"
    if isinstance(action, Bid):
        return f"!ビッド {action.rank}" if ja else f"!bid {action.rank}"
    if isinstance(action, Solo):
        return "!ソロ" if ja else "!solo"
    if isinstance(action, Pass):
        return "!パス" if ja else "!pass"
    if isinstance(action, CallTrump):
        return f"!切り札 {JA_SUITS[action.suit]}" if ja else f"!trump {action.suit}"
    assert isinstance(action, Play)
    rank, suit = rank_of(action.card), suit_of(action.card)
    return f"!出す {JA_SUITS[suit]}の{rank}" if ja else f"!play {rank} {suit}"


def test_the_arena_is_for_exactly_five(tmp_path: Path) -> None:
    text = (CONFIG_DIR / "arenas" / "briscola_bugiarda.yaml").read_text(encoding="utf-8")
    four = tmp_path / "four.yaml"
    four.write_text(text.replace("  - at: [36, 0, 0]\n", ""), encoding="utf-8")
    with pytest.raises(ArenaError) as err:
        load_arena(four)
    assert any("four.yaml:" in p and "needs at least 5 seats" in p for p in err.value.problems)
    assert len(load_arena(CONFIG_DIR / "arenas" / "briscola_bugiarda.yaml").seats) == 5


def test_a_full_match_by_clicks_and_chat_ends_as_the_journal_replays(
        rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    r = rig(shipped("briscola_bugiarda"), seed=6)
    people = seat_people(r, NAMES)
    crowd = SignPlayers(r, people, BriscolaBot(), briscola_clicks, briscola_command)
    r.bots.append(crowd)
    check = PublicOnly(r, partial(public_scene, r))
    check.run_until_finished()
    assert check.compared > 200
    state = r.table.state
    assert isinstance(state, BriscolaState) and state.is_over and state.deal == 5
    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    final = replayed(r.table.game, saved)
    assert final == state and final.result() == state.result()
    made = [(seat, r.table.game.action_from_json(d)) for seat, d in saved.actions if seat != CHANCE]
    assert made == [(seat, action) for seat, action, _ in crowd.sent]  # nothing refused, nothing lost
    by = {mode: {type(a).__name__ for _, a, m in crowd.sent if m == mode} for mode in ("click", "en", "ja")}
    assert {"Play", "Pass", "CallTrump"} <= by["click"] and {"Play", "Pass"} <= by["en"] & by["ja"]
    assert "Bid" in by["click"] | by["en"] | by["ja"]
    rows = state.result()["standings"]
    board = r.arena.board_signs
    lines = [line for key in ("chips", "chips2") for line in sign_text(world, r.arena, board[key].at) or ()]
    listed = [m for m in (STANDING.match(line) for line in lines) if m]
    assert [(int(m[1]), m[2], int(m[3])) for m in listed] == [(w["rank"], w["name"], w["chips"]) for w in rows]
    for plan in r.arena.seats:
        seat_sign = sign_text(world, r.arena, plan.signs["seat"].at)
        assert seat_sign is not None and seat_sign[1] == NAMES[plan.index]
        assert seat_sign[2] == f"chips {state.chips[plan.index]:+d}"


def test_no_card_or_role_can_be_seen_from_outside_a_booth() -> None:
    """On a plain server a booth is all that hides a hand and its player's role: no straight
    line from a player's eyes outside the booths reaches the front of those signs. (The menu
    hangs facing the door, but shows only what the public view decides.)"""
    arena = shipped("briscola_bugiarda")
    assert private_sign_sightlines(arena, lambda seat: [*panel_spots(seat.hand), seat.signs["info"]]) == []


def public_scene(rig: Rig) -> Scene:
    """What the table would draw from the public view alone (no hands, no menus)."""
    table = rig.table
    state = table.state
    assert isinstance(state, BriscolaState)
    n = len(rig.arena.seats)
    public = state.view(None)
    if state.is_over:
        public["standings"] = state.result()["standings"]
    frame = Frame(public=public, private=[None] * n, menus=[[None] * 10] * n, playable=[frozenset()] * n,
                  occupants=[o.name if o else None for o in table.occupants],
                  seat_of_booth=[table.rules_seat(b) for b in range(n)], seconds=time_left(table), countdown=None)
    return render(rig.arena, table.text, frame, PartMemo())


def _same_dealer_seeds(arena: Any) -> tuple[int, int]:
    game = games.load(arena.game, arena.game_options())
    seen: dict[int, int] = {}
    for seed in range(1, 100):
        ms = match_seed(seed, arena.name, 0)
        state = game.new_match(NAMES, ms)
        state.apply(CHANCE, state.sample_chance(chance_rng(ms, 0)))
        assert isinstance(state, BriscolaState) and state.dealer is not None
        if state.dealer in seen:
            return seen[state.dealer], seed
        seen[state.dealer] = seed
    raise AssertionError("no two seeds with the same first dealer")


def test_different_hands_and_partners_look_the_same_outside_the_booths(tmp_path: Path) -> None:
    """Same dealer, other deals: the auction and the trump call (made by clicks and chat) look
    the same to a spectator, block for block and sign for sign, and so does who the secret
    partner is, until the first card is played."""
    arena = shipped("briscola_bugiarda")
    script = [(Bid("5"), "click"), (Pass(), "en"), (Bid("2"), "click"), (Pass(), "ja"), (Pass(), "click"),
              (Pass(), "click"), (CallTrump("spade"), "click")]
    a, b = (play_script(tmp_path, arena, seed, NAMES, script, briscola_clicks, briscola_command,
                        lambda state: [list(h) for h in state.hands])
            for seed in _same_dealer_seeds(arena))
    assert a.dealt != b.dealt and a.inside != b.inside  # other cards, and the booths show them
    assert_same_outside(a, b, len(script) + 1)  # after the trump call too
    assert a.state.holder_of_called_card() != b.state.holder_of_called_card()  # another secret partner


def test_the_opening_bid_far_down_the_ranks_is_two_clicks(rig: Callable[..., Rig]) -> None:
    """Twelve opening actions on ten menu signs: the menu pages, and a click names what it shows."""
    r = rig(shipped("briscola_bugiarda"))
    people = seat_people(r, NAMES)
    r.step()
    r.step()
    state = r.table.state
    assert isinstance(state, BriscolaState) and state.phase == "auction"
    [seat] = state.to_act()
    booth = r.table.booth_of(seat)
    clicks = briscola_clicks(r, booth, seat, Bid("5"))
    assert clicks == [("menu", 9), ("menu", 0)]  # "more", then the bid on page 2
    for click in clicks:
        click_at(r, people[booth], booth, click)
    r.run_until(lambda: bool(state.bids), max_cycles=20)
    assert state.bids == [(seat, "5")]


def test_bad_input_gets_a_one_line_answer_and_other_booths_ignore_clicks(rig: Callable[..., Rig]) -> None:
    r = rig(shipped("briscola_bugiarda"))
    people = seat_people(r, NAMES)
    r.step()
    r.step()
    state = r.table.state
    assert isinstance(state, BriscolaState) and state.phase == "auction"
    [seat] = state.to_act()
    acting = people[r.table.booth_of(seat)]
    other = people[r.table.booth_of((seat + 1) % 5)]
    heard = {id(p): len(p.private_messages()) for p in people}
    seq = r.table.seq
    other.chat("!pass")  # not their turn
    acting.chat("!play A coppe")  # the auction is on
    acting.chat("!trump moons")  # no such suit
    click_at(r, other, r.table.booth_of(seat), ("menu", 0))  # someone else's booth
    for _ in range(4):
        r.step()
    assert r.table.seq == seq and not state.bids
    told_other = other.private_messages()[heard[id(other)]:]
    told = acting.private_messages()[heard[id(acting)]:]
    assert len(told_other) == 1 and "turn" in told_other[0].lower()
    assert len(told) == 2 and all(line for line in told), told


def test_a_controller_killed_mid_trick_resumes_the_match(world: EmbeddedHandle, tmp_path: Path) -> None:
    def cards_out(state: BriscolaState) -> int:
        return len(state.tricks) * 5 + len(state.trick)

    run = kill_and_resume(
        world, tmp_path, "briscola_bugiarda",
        {"name: briscola-1": "name: briscola-kill", "locale: ja ": "locale: en "},
        NAMES, BriscolaBot(), briscola_command,
        kill_when=lambda state: state.phase == "play" and cards_out(state) >= 3,  # mid-trick
        done_when=lambda state: state.deal >= 2, damage="trick")
    state = replayed(run.game, run.after)
    assert state.last_deal is not None and state.last_deal["deal"] == 1  # the deal was played out
