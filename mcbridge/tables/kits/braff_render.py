"""Braff drawn as sign texts (arena-local).

Pure functions of the rules views, the seats' drafts and what is legal for the seat to
act. Private things stay inside their owner's booth, on the back wall's inner face
(unseen through the door): the character, its bonus table, the hand and the cup it makes.
The board, the seat signs outside and the action signs on the booth's front wall use only
what the public view says (chips, stakes, the highest cup, discards, doubts, the last
show), so two deals that differ only in hidden cards look the same from outside.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcbridge.games.braff.cards import COLOURS
from mcbridge.tables.arena import Arena, SeatPlan
from mcbridge.tables.kit import Scene, Texts
from mcbridge.tables.kits.board_rows import pack, standing_rows
from mcbridge.tables.kits.braff_arena import ACTION_SIGNS
from mcbridge.tables.kits.signs import (
    BLANK,
    PartMemo,
    SignTexts,
    board_part,
    clock_part,
    fill_slots,
    fit,
    fit_lines,
    join_lines,
    panel_spots,
    player_name,
    sign_texts,
    spread,
)
from mcbridge.tables.layout import Lines
from mcbridge.textfit import SIGN_LINE_PX, text_px

T = "braff.sign."
#: Which action sign stands for which rules action kind ("call" also stands for AllIn).
SIGN_KIND = {
    "discard": "Discard",
    "cup": "Raise",
    "minus": "Raise",
    "plus": "Raise",
    "raise": "Raise",
    "call": "Call",
    "drop": "Drop",
    "stand": "Stand",
    "fake": "Doubt",
    "not_enough": "Doubt",
}


@dataclass
class SeatDraft:
    """What a seated player is composing: cards picked to discard, the cup and stake of a
    raise. Never rules state."""

    picked: list[int] = field(default_factory=list)  # hand slots
    cup: str | None = None
    stake: int = 0


@dataclass(frozen=True)
class Choices:
    """What the seat to act may do now, as the signs show it."""

    kinds: frozenset[str] = frozenset()
    cups: tuple[tuple[str, int, int], ...] = ()  # (cup, least stake, most stake), smallest cup first
    max_discard: int = 0


@dataclass(frozen=True)
class BoardInfo:
    seconds: int | None = None
    countdown: int | None = None


def render(
    arena: Arena,
    texts: Texts,
    public: Mapping[str, Any] | None,
    private: Sequence[Mapping[str, Any] | None],
    occupants: Sequence[str | None],
    seat_of_booth: Sequence[int | None],
    drafts: Sequence[SeatDraft],
    choices: Sequence[Choices],
    board: BoardInfo,
    memo: PartMemo,
) -> Scene:
    """`private`, `occupants`, `drafts` and `choices` are per booth."""
    text = sign_texts(texts)
    parts = [
        _board(memo, arena, text, public, occupants, board),
        clock_part(memo, arena, text, public, board.seconds, blank_over=True),
    ]
    for seat in arena.seats:
        i = seat.index
        rules_seat = seat_of_booth[i]
        shown = public if rules_seat is not None else None
        parts.append(_seat_public(memo, arena, seat, text, shown, rules_seat, occupants[i]))
        parts.append(_booth(memo, arena, seat, text, private[i], drafts[i], choices[i]))
    return Scene.of_parts(parts)


def colour_name(text: Texts, colour: str) -> str:
    return text.t(f"braff.colour.{colour}")


#: The public view's fields the board shows.
BOARD_FIELDS = ("phase", "round", "lap", "dealer", "highest", "highest_stake", "pot", "carry", "discard_cost",
                "to_act", "doubts", "last_round", "chips", "standings")


def _board(
    memo: PartMemo,
    arena: Arena,
    text: SignTexts,
    public: Mapping[str, Any] | None,
    occupants: Sequence[str | None],
    board: BoardInfo,
) -> Scene:
    signs = arena.board_signs

    def draw(scene: Scene, public: Mapping[str, Any]) -> None:
        over = public["phase"] == "over"
        scene.signs[signs["status"].at] = text.sign(
            T + "status", round=public["round"], rounds=public["rounds"], lap=public["lap"],
            dealer=player_name(public, public["dealer"]), phase=text.t(f"braff.phase.{public['phase']}"))
        highest = public["highest"]
        scene.signs[signs["highest"].at] = fit_lines(
            text.lines(T + "highest", cup=highest["cup"], name=player_name(public, highest["seat"]),
                       stake=public["highest_stake"] if public["highest_stake"] is not None else "-")
            if highest and not over else text.lines(T + "highest_none"))
        scene.signs[signs["pot"].at] = text.sign(
            T + "pot", pot=public["pot"], carry=public["carry"], cost=public["discard_cost"])
        meter = pack([f"{cup}{minimum}" for cup, minimum in public["meter"]])
        scene.signs[signs["meter"].at] = fit_lines([text.t(T + "meter"), *meter])
        doubts = [_doubt_row(text, player_name(public, receiver), kind) for _, receiver, kind in public["doubts"]]
        scene.signs[signs["doubts"].at] = fit_lines([text.t(T + "doubts"), *doubts] if doubts else BLANK)
        scene.signs[signs["show"].at], scene.signs[signs["show_more"].at] = spread(_show_rows(text, public), 2)
        ranks = spread(standing_rows(public, "chips"), 2, title=text.t(T + "standings"))
        scene.signs[signs["standings"].at], scene.signs[signs["standings_more"].at] = ranks

    return board_part(memo, arena, text, T + "title", public, occupants, board.countdown, draw, BOARD_FIELDS)


def _doubt_row(text: Texts, name: str, kind: str) -> str:
    """"Ben: fake!", the name cut (never the doubt) to fit the line."""
    said = text.t(T + f"kind_{kind}")
    room = SIGN_LINE_PX - text_px(text.t(T + "doubt", name="", kind=said))
    return text.t(T + "doubt", name=fit(name, room), kind=said)


def _show_rows(text: Texts, public: Mapping[str, Any]) -> list[str]:
    last = public["last_round"]
    if not last:
        return []
    rows = [text.t(T + "show", round=last["round"], cup=last["meter_cup"])]
    if last["outcome"] == "unseen":
        rows.append(text.t(T + "unseen"))
    for shown in last["shown"]:
        out = text.t(T + "out") if shown["exposed"] else ""
        rows.append(f"{player_name(public, shown['seat'])} {shown['cup_label']} {out}".strip())
    for seat, amount in last["won"]:
        rows.append(text.t(T + "won", name=player_name(public, seat), amount=amount))
    return rows


def _seat_public(
    memo: PartMemo,
    arena: Arena,
    seat: SeatPlan,
    text: SignTexts,
    public: Mapping[str, Any] | None,
    rules_seat: int | None,
    occupant: str | None,
) -> Scene:
    i = seat.index
    facts: tuple[Any, ...] = ()
    shown: tuple[str, ...] = ()
    if public is not None and rules_seat is not None:
        s = rules_seat
        note = ("all_in" if public["all_in"] == s else "" if public["in_round"][s] else "dropped")
        facts = (public["chips"][s], public["stakes"][s], s == public["dealer"], note)
        shown = _shown_lines(text, public, s)

    def build(scene: Scene) -> None:
        scene.signs[seat.signs["join"].at] = join_lines(text, i, occupant)
        scene.signs[seat.signs["shown"].at] = fit_lines(shown) if shown else BLANK
        if not facts:
            scene.signs[seat.signs["seat"].at] = fit_lines([text.t(T + "seat_no", seat=i + 1), occupant or "", "", ""])
            return
        chips, stake, dealer, note = facts
        scene.signs[seat.signs["seat"].at] = text.sign(
            T + "seat", seat=i + 1, name=occupant or "", chips=chips, stake=stake,
            role=text.t(T + "dealer") if dealer else "", note=text.t(T + f"note_{note}") if note else "")

    return memo.part(("seat", i), (occupant, facts, shown), build, arena)


def _shown_lines(text: Texts, public: Mapping[str, Any], seat: int) -> tuple[str, ...]:
    """This round's discards once made; before that (and once the match is over), what this
    seat showed in the last show."""
    discards = public["discards"][seat]
    if discards is not None and public["phase"] != "over":
        cards = [colour_name(text, c) for c in discards] or [text.t(T + "kept")]
        return (text.t(T + "discarded"), *pack(cards)[:3])
    last = public["last_round"]
    for shown in (last or {}).get("shown", []):
        if shown["seat"] == seat:
            cards = pack([colour_name(text, c) for c in shown["cards"]])
            character = text.t(f"braff.character.{shown['character']}")
            return (f"{character} {shown['cup_label']}", *cards[:3])
    return ()


def _booth(
    memo: PartMemo,
    arena: Arena,
    seat: SeatPlan,
    text: SignTexts,
    private: Mapping[str, Any] | None,
    draft: SeatDraft,
    choices: Choices,
) -> Scene:
    hand = list(private["hand"]) if private else []
    phase = private["phase"] if private else None
    picked = tuple(draft.picked) if phase == "discard" else ()
    facts = (memo.view_key(("booth", seat.index), private, BOOTH_FIELDS), picked, draft.cup, draft.stake, choices)

    def build(scene: Scene) -> None:
        signs = seat.signs
        texts: list[Lines] = []
        for k, colour in enumerate(hand):
            key = "card_picked" if k in picked else "card"
            texts.append(text.sign(T + key, colour=colour_name(text, colour)))
        fill_slots(scene, panel_spots(seat.cards), texts)
        if private and private["character"]:
            scene.signs[signs["character"].at] = _character_lines(text, private)
            scene.signs[signs["bonuses"].at] = _bonus_lines(text, private)
            scene.signs[signs["cup_now"].at] = text.sign(
                T + "cup_now", cup=private["cup_label"], ordinal=private["cup"],
                dealer=text.t(T + "dealer_bonus") if private["dealer"] == private["seat"] else "")
        else:
            for name in ("character", "bonuses", "cup_now"):
                scene.signs[signs[name].at] = BLANK
        cup = draft.cup or "-"
        cost = private["discard_cost"] if private else 0
        fields = {"cup": cup, "stake": draft.stake, "n": len(picked), "cost": cost}
        for name in ACTION_SIGNS:
            kind = SIGN_KIND[name]
            usable = kind in choices.kinds or (name == "call" and "AllIn" in choices.kinds)
            label = "allin" if name == "call" and "AllIn" in choices.kinds else name
            state = "act." if usable else "idle."
            scene.signs[signs[name].at] = text.sign(T + state + label, **fields)
        scene.signs[signs["info"].at] = _info_lines(text, private, choices)

    return memo.part(("booth", seat.index), facts, build, arena, booth=seat.index)  # private


#: The private view's fields a booth shows.
BOOTH_FIELDS = ("phase", "character", "hand", "cup", "dealer", "discard_cost", "seat", "in_round", "stakes",
                "highest_stake")


def _character_lines(text: SignTexts, private: Mapping[str, Any]) -> Lines:
    character = next(c for c in private["character_table"] if c["id"] == private["character"])
    exposed = text.t(T + "exposed_by_fake") if character["exposed_by_fake"] else ""
    return text.sign(T + "character", name=text.t(f"braff.character.{character['id']}"),
                                base=character["base_label"], exposed=exposed)


def _bonus_lines(text: SignTexts, private: Mapping[str, Any]) -> Lines:
    character = next(c for c in private["character_table"] if c["id"] == private["character"])
    rows: list[str] = []
    for colour in COLOURS:
        pairs = character["rows"].get(colour)
        if pairs:  # "red 3:+5 5:+9", over two lines when it is longer than one
            rows += pack([colour_name(text, colour), *(f"{k}:+{b}" for k, b in pairs)])
    return fit_lines(rows or [text.t(T + "no_bonus")])


def _info_lines(text: SignTexts, private: Mapping[str, Any] | None, choices: Choices) -> Lines:
    if private is None:
        return BLANK
    phase = private["phase"]
    if phase == "over":
        return text.sign(T + "info_over")
    if not choices.kinds:
        return text.sign(T + "info_wait")
    if phase == "bet" and "Stand" in choices.kinds:
        return text.sign(T + "info_highest")
    if phase == "doubt":
        live = [s for s, alive in enumerate(private["in_round"]) if alive]
        me = private["seat"]
        receiver = next((s for s in live if s > me), live[0])
        return text.sign(T + "info_doubt", name=private["players"][receiver])
    stake = private["stakes"][private["seat"]]
    cost = (private["highest_stake"] or 0) - stake
    return text.sign(T + f"info_{phase}", max=choices.max_discard, cost=cost,
                                each=private["discard_cost"])
