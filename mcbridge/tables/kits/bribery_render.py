"""Bribery drawn as sign texts (arena-local).

Pure functions of the rules views, the seats' drafts and which action kinds are legal.
What is private stays inside its owner's booth, on the back wall's inner face (unseen
through the door): the hand by card value, the cards in play and the cards picked for
the next bet. The board, seat signs and the action signs on the booth's front wall use
only what the public view says (counts, stakes, the last showdown), so two matches that
differ only in hidden cards look the same from outside.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcbridge.games.bribery import INFORMANT
from mcbridge.tables.arena import Arena, SeatPlan
from mcbridge.tables.kit import Scene, Texts
from mcbridge.tables.kits.board_rows import pack, standing_rows
from mcbridge.tables.kits.bribery_arena import ACTION_SIGNS
from mcbridge.tables.kits.signs import (
    BLANK,
    PartMemo,
    SignTexts,
    board_part,
    clock_part,
    fill_slots,
    fit_lines,
    join_lines,
    panel_spots,
    player_name,
    sign_texts,
    spread,
)
from mcbridge.tables.layout import Lines

T = "bribery.sign."
#: Which action sign stands for which rules action kind.
SIGN_KIND = {
    "raise": "Raise",
    "call": "Call",
    "allin": "AllIn",
    "fold": "Fold",
    "pass": "Pass",
    "pass_informant": "PassInformant",
    "clear": "Clear",
}


@dataclass
class SeatDraft:
    """The cards a seated player has picked for their next raise or call (never rules state)."""

    picked: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class BoardInfo:
    """What the board shows besides the public view: the seconds left to act."""

    seconds: int | None = None
    countdown: int | None = None


def card_label(text: Texts, value: int) -> str:
    return text.t(T + "informant") if value == INFORMANT else str(value)


def card_words(text: Texts, cards: Sequence[int]) -> list[str]:
    """["300", "300", "inf"]: luck cards ascending, informants last, in short words."""
    luck = sorted(c for c in cards if c != INFORMANT)
    short = text.t(T + "inf")
    return [*(str(c) for c in luck), *(short for c in cards if c == INFORMANT)]


def render(
    arena: Arena,
    texts: Texts,
    public: Mapping[str, Any] | None,
    private: Sequence[Mapping[str, Any] | None],
    occupants: Sequence[str | None],
    seat_of_booth: Sequence[int | None],
    drafts: Sequence[SeatDraft],
    legal: Sequence[Collection[str]],
    values: Sequence[int],
    board: BoardInfo,
    memo: PartMemo,
) -> Scene:
    """`private`, `occupants`, `drafts` and `legal` (the action kinds legal now) are per
    booth; `values` are the hand panel's card values in reading order."""
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
        parts.append(_booth(memo, arena, seat, text, private[i], drafts[i], frozenset(legal[i]), values))
    return Scene.of_parts(parts)


def _card_name(text: Texts, card: str) -> str:
    return text.t(f"bribery.card.{card}")


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
        phase = text.t(f"bribery.phase.{public['phase']}")
        rounds = public["round"] + public["rounds_left"]
        scene.signs[signs["status"].at] = text.sign(T + "status", round=public["round"], rounds=rounds, phase=phase)
        vp = sum(int(public["influencers"][c]["vp"]) for c in public["stake"])
        names = [_card_name(text, c) for c in public["stake"]] or ["-"]
        scene.signs[signs["stake"].at] = fit_lines([text.t(T + "stake", vp=vp), *names])
        scene.signs[signs["bets"].at] = text.sign(
            T + "bets",
            highest=public["highest"],
            table=public["cards_on_table"],
            supply=public["supply"],
            pile=public["pile"],
        )
        shown = spread(_showdown_rows(text, public), 2)
        scene.signs[signs["showdown"].at], scene.signs[signs["showdown_more"].at] = shown
        ranks = spread(standing_rows(public, "vp", "VP"), 2, title=text.t(T + "standings"))
        scene.signs[signs["standings"].at], scene.signs[signs["standings_more"].at] = ranks

    return board_part(memo, arena, text, T + "title", public, occupants, board.countdown, draw, BOARD_FIELDS)


#: The public view's fields the board shows.
BOARD_FIELDS = ("phase", "round", "rounds_left", "stake", "highest", "cards_on_table", "supply", "pile", "to_act",
                "last_showdown", "vp", "standings")


def _showdown_rows(text: Texts, public: Mapping[str, Any]) -> list[str]:
    last = public["last_showdown"]
    if not last:
        return [text.t(T + "showdown_none")]
    mode = text.t(T + f"mode_{last['mode']}")
    rows = [text.t(T + "showdown", round=last["round"], mode=mode), text.t(T + "informants", n=last["informants"])]
    for seat_key, total in last["totals"].items():
        rows.append(f"{player_name(public, int(seat_key))} {total}")
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
    if public is not None and rules_seat is not None:
        s = rules_seat
        status = "all_in" if public["all_in"][s] else public["status"][s]
        facts: tuple[Any, ...] = (public["vp"][s], public["hand_counts"][s], public["played_counts"][s], status,
                                  len(public["owned"][s]))
    else:
        facts = ()

    def build(scene: Scene) -> None:
        scene.signs[seat.signs["join"].at] = join_lines(text, i, occupant)
        if not facts:
            scene.signs[seat.signs["seat"].at] = fit_lines([text.t(T + "seat_no", seat=i + 1), occupant or "", "", ""])
            return
        vp, hand, played, status, cards = facts
        note = "" if status == "in" else text.t(T + f"status_{status}")
        scene.signs[seat.signs["seat"].at] = text.sign(
            T + "seat", seat=i + 1, name=occupant or "", vp=vp, cards=cards, hand=hand, played=played, note=note
        )

    return memo.part(("seat", i), (occupant, facts), build, arena)


def _booth(
    memo: PartMemo,
    arena: Arena,
    seat: SeatPlan,
    text: SignTexts,
    private: Mapping[str, Any] | None,
    draft: SeatDraft,
    legal: frozenset[str],
    values: Sequence[int],
) -> Scene:
    hand = list(private["hand"]) if private else []
    played = list(private["played"]) if private else []
    picked = tuple(draft.picked)
    mine = private is not None and private["seat"] in private["to_act"]
    need = (private["highest"] - len(played)) if private else 0
    info_key = "info_wait"
    if private is not None and private["phase"] == "over":
        info_key = "info_over"
    elif mine:
        info_key = "info_turn"
    facts = (private is not None, tuple(hand), tuple(played), picked, legal, mine, need, info_key)

    def build(scene: Scene) -> None:
        spots = panel_spots(seat.cards)
        texts: list[Lines] = []
        for value in values:
            held, chosen = hand.count(value), picked.count(value)
            if not private:
                texts.append(BLANK)
            else:
                note = text.t(T + "picked_n", n=chosen) if chosen else ""
                texts.append(text.sign(T + "card", card=card_label(text, value), held=held, picked=note))
        fill_slots(scene, spots, texts)
        signs = seat.signs
        if private:
            scene.signs[signs["played"].at] = fit_lines(
                [text.t(T + "played", n=len(played)), *pack(card_words(text, played))]
            )
            scene.signs[signs["picked"].at] = fit_lines(
                [text.t(T + "picked", n=len(picked)), *pack(card_words(text, picked))]
            )
        else:
            scene.signs[signs["played"].at] = BLANK
            scene.signs[signs["picked"].at] = BLANK
        for name in ACTION_SIGNS:
            usable = name == "clear" or SIGN_KIND[name] in legal
            key = T + ("act." if usable and mine else "idle.") + name
            scene.signs[signs[name].at] = text.sign(key, need=max(need, 0), more=max(need + 1, 1))
        scene.signs[signs["info"].at] = text.sign(T + info_key, need=max(need, 0))

    return memo.part(("booth", seat.index), facts, build, arena, booth=seat.index)  # private
