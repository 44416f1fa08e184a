"""Dice Bluff drawn as sign texts (arena-local).

Pure functions of the rules views, each booth's legal actions and the booths' drafts. The
dice under a seat's cup are drawn only on its cup panel, inside its enclosed booth (on
the inside of the back wall, facing in); the board and the booths' outer signs get only
`view(None)`: bids, dice counts, set-aside dice, and every cup once a challenge lifts them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcbridge.core import Action
from mcbridge.games.dice_bluff import Bid, Challenge, SetAside
from mcbridge.tables.arena import Arena, SeatPlan
from mcbridge.tables.kit import Scene, Texts
from mcbridge.tables.kits.signs import (
    BLANK,
    PartMemo,
    SignTexts,
    fill_panel,
    frame_render,
    join_lines,
    player_name,
    spread,
)
from mcbridge.tables.layout import Lines

T = "dice_bluff.sign."


@dataclass
class DiceUi:
    """What a seated player is composing: never part of the rules state."""

    face: int = 2
    count: int = 1
    picked: list[int] = field(default_factory=list)  # cup slots picked to set aside


@dataclass(frozen=True)
class Frame:
    """Everything a render reads besides the arena and the texts (one per table change)."""

    public: Mapping[str, Any] | None
    private: Sequence[Mapping[str, Any] | None]
    legal: Sequence[Sequence[Action]]  # per booth
    occupants: Sequence[str | None]
    seat_of_booth: Sequence[int | None]
    ui: Sequence[DiceUi]
    reveal: bool  # a challenge's cups are up (held before the next roll)
    seconds: int | None  # time left for the seat to act
    countdown: int | None


def face_text(text: Texts, face: int, rules: Mapping[str, Any], palifico: bool) -> str:
    """A face as the table's language names it: the digit, or the star / paco."""
    if face == rules["wild_face"] and not palifico:
        return text.t("dice_bluff.face." + ("star" if rules["ruleset"] == "bluff" else "paco"))
    return str(face)


def dice_text(text: Texts, dice: Sequence[int], rules: Mapping[str, Any]) -> str:
    """Dice as faces, the wild one by its sign (a list is never in palifico terms)."""
    return " ".join(face_text(text, d, rules, False) for d in dice)


def render(arena: Arena, texts: Texts, frame: Frame, memo: PartMemo) -> Scene:
    return frame_render(arena, texts, frame, memo, T, _draw_board, _seat_public, _booth)


def _draw_board(scene: Scene, arena: Arena, text: SignTexts, public: Mapping[str, Any]) -> None:
    signs = arena.board_signs
    rules, palifico = public["rules"], bool(public["palifico_round"])
    phase = text.t(f"dice_bluff.phase.{public['phase']}")
    scene.signs[signs["status"].at] = text.sign(
        T + "status",
        round=public["round"],
        phase=phase,
        dice=public["dice_in_play"],
        palifico=text.t(T + "palifico") if palifico else "",
    )
    bid = public["bid"]
    if bid:
        face = face_text(text, bid["face"], rules, palifico)
        bidder = player_name(public, bid["bidder"])
        scene.signs[signs["bid"].at] = text.sign(T + "bid", count=bid["count"], face=face, bidder=bidder)
    else:
        scene.signs[signs["bid"].at] = text.sign(T + "bid_none")
    rows = [
        f"{player_name(public, s)[:9]} {n}" if n else f"{player_name(public, s)[:9]} {text.t(T + 'out')}"
        for s, n in enumerate(public["dice"])
    ]
    first, second = spread(rows, 2, title=text.t(T + "dice_title"))
    scene.signs[signs["dice"].at], scene.signs[signs["dice2"].at] = first, second
    scene.signs[signs["last"].at] = _last(text, public)
    if public["phase"] == "over":
        rows = [f"{row['rank']}.{row['name'][:9]} {row['dice']}" for row in public.get("standings", [])]
        first, second = spread(rows, 2, title=text.t(T + "standings_title"))
    else:
        first, second = BLANK, BLANK
    scene.signs[signs["standings"].at], scene.signs[signs["standings2"].at] = first, second


def _last(text: SignTexts, public: Mapping[str, Any]) -> Lines:
    last = public["last_reveal"]
    if not last:
        return BLANK
    rules = public["rules"]
    bid = last["bid"]
    face = face_text(text, rules["wild_face"], rules, False) if bid["wild"] else str(bid["face"])
    losers = " ".join(f"{player_name(public, int(s))[:6]} -{n}" for s, n in last["losses"].items())
    return text.sign(T + "last", count=bid["count"], face=face, actual=last["actual"], losers=losers)


def _seat_public(memo: PartMemo, arena: Arena, seat: SeatPlan, text: SignTexts, frame: Frame) -> Scene:
    i = seat.index
    public = frame.public
    rules_seat = frame.seat_of_booth[i]
    occupant = frame.occupants[i]
    dice = out = 0
    shown: tuple[int, ...] = ()
    cup = 0
    rules: Mapping[str, Any] = {}
    if public is not None and rules_seat is not None:
        rules = public["rules"]
        dice = public["dice"][rules_seat]
        out = not dice
        cup = public["hidden_counts"][rules_seat]
        if frame.reveal and public["last_reveal"]:
            shown = tuple(public["last_reveal"]["dice"][rules_seat])
        else:
            shown = tuple(public["aside"][rules_seat])
    lifted = frame.reveal and bool(shown)
    key = (occupant, dice, out, shown, cup, lifted, bool(rules) and rules["wild_face"])

    def build(scene: Scene) -> None:
        scene.signs[seat.signs["join"].at] = join_lines(text, i, occupant)
        note = text.t(T + "out") if out else ""
        scene.signs[seat.signs["seat"].at] = text.sign(
            T + "seat", seat=i + 1, name=occupant or "", dice=dice, note=note
        )
        if public is None or rules_seat is None:
            scene.signs[seat.signs["shown"].at] = BLANK
        elif lifted:
            scene.signs[seat.signs["shown"].at] = text.sign(T + "lifted", dice=dice_text(text, shown, rules))
        else:
            scene.signs[seat.signs["shown"].at] = text.sign(
                T + "shown", dice=dice_text(text, shown, rules) or "-", cup=cup
            )

    return memo.part(("seat", i), key, build, arena)


def _booth(memo: PartMemo, arena: Arena, seat: SeatPlan, text: SignTexts, frame: Frame) -> Scene:
    i = seat.index
    private = frame.private[i]
    legal = frame.legal[i]
    ui = frame.ui[i]
    rules_seat = frame.seat_of_booth[i]
    hidden: tuple[int, ...] = tuple((private or {}).get("hidden") or ())
    rules: Mapping[str, Any] = private["rules"] if private else {"wild_face": 6, "ruleset": "bluff"}
    palifico = bool(private and private["palifico_round"])
    can_bid = any(isinstance(a, Bid) for a in legal)
    can_challenge = Challenge() in legal
    can_aside = any(isinstance(a, SetAside) for a in legal)
    picked = tuple(ui.picked) if can_aside else ()
    mine = private is not None and rules_seat in private["to_act"]
    if private is None or rules_seat is None:
        info = BLANK
    elif not private["dice"][rules_seat]:
        info = text.sign(T + "info_out")
    elif mine and private["must_raise"]:
        info = text.sign(T + "info_raise")
    elif mine:
        info = text.sign(T + "info_turn")
    elif private["phase"] in ("roll", "reroll"):
        info = text.sign(T + "info_rolling")
    else:
        info = text.sign("signs.wait")
    face = face_text(text, ui.face, rules, palifico)
    key = (hidden, picked, ui.face, ui.count, face, can_bid, can_challenge, can_aside, info)

    def build(scene: Scene) -> None:
        dice = []
        for k, d in enumerate(hidden):
            label = face_text(text, d, rules, False)
            dice.append(
                text.sign(
                    T + ("die_picked" if k in picked else "die"),
                    face=label,
                    hint=text.t(T + "die_hint") if can_aside else "",
                )
            )
        fill_panel(scene, seat.cup, dice)
        signs = seat.signs
        if can_bid:
            scene.signs[signs["face"].at] = text.sign(T + "face", face=face)
            scene.signs[signs["minus"].at] = text.sign(T + "minus")
            scene.signs[signs["plus"].at] = text.sign(T + "plus")
            scene.signs[signs["bid"].at] = text.sign(T + "bid_button", count=ui.count, face=face)
        else:
            for name in ("face", "minus", "plus", "bid"):
                scene.signs[signs[name].at] = BLANK
        scene.signs[signs["challenge"].at] = text.sign(T + "challenge") if can_challenge else BLANK
        if can_aside:
            key = "aside_button" if picked else "aside_hint"
            scene.signs[signs["aside"].at] = text.sign(T + key, n=len(picked))
        else:
            scene.signs[signs["aside"].at] = BLANK
        scene.signs[signs["info"].at] = info

    return memo.part(("booth", i), key, build, arena, booth=i)  # private to the booth
