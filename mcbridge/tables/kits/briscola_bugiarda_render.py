"""Briscola bugiarda drawn as sign texts (arena-local).

Pure functions of the rules views, each booth's menu and legal actions. A seat's cards and
its role (declarer, partner, defender: the partner knows from the called card in their
hand) are drawn only inside its enclosed booth; the board and the booths' outer signs get
only `view(None)`: the auction, the contract (trump, the called card, and the partner only
once that card is played), the trick on the table, points and chips, whose turn it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcbridge.core import Action
from mcbridge.games.briscola_bugiarda.actions import Bid, CallTrump, Pass, Play, Solo
from mcbridge.games.briscola_bugiarda.cards import rank_of, sort_hand, suit_of
from mcbridge.tables.arena import Arena, SeatPlan
from mcbridge.tables.kit import Scene, Texts
from mcbridge.tables.kits.signs import (
    BLANK,
    PartMemo,
    SignTexts,
    fill_panel,
    frame_render,
    join_lines,
    menu_lines,
    player_name,
    spread,
)
from mcbridge.tables.layout import Lines

T = "briscola_bugiarda.sign."


@dataclass(frozen=True)
class Frame:
    """Everything a render reads besides the arena and the texts."""

    public: Mapping[str, Any] | None
    private: Sequence[Mapping[str, Any] | None]
    menus: Sequence[Sequence[Any]]  # per booth: what each menu slot shows (a Menu layout)
    playable: Sequence[frozenset[str]]  # per booth: cards it may play now
    occupants: Sequence[str | None]
    seat_of_booth: Sequence[int | None]
    seconds: int | None
    countdown: int | None


def card_text(text: Texts, code: str) -> str:
    """A card as the table's language names it on a sign line: "A cups", "エース 聖杯"."""
    return text.t(T + "card", rank=text.t(T + f"rank.{rank_of(code)}"), suit=text.t(T + f"suit.{suit_of(code)}"))


def action_label(text: Texts, action: Action) -> Lines:
    if isinstance(action, Bid):
        return text.lines(T + "menu_bid", rank=text.t(T + f"rank.{action.rank}"))
    if isinstance(action, Solo):
        return text.lines(T + "menu_solo")
    if isinstance(action, Pass):
        return text.lines(T + "menu_pass")
    if isinstance(action, CallTrump):
        return text.lines(T + "menu_trump", suit=text.t(T + f"suit.{action.suit}"))
    assert isinstance(action, Play)
    return text.lines(T + "menu_play", card=card_text(text, action.card))


def render(arena: Arena, texts: Texts, frame: Frame, memo: PartMemo) -> Scene:
    return frame_render(arena, texts, frame, memo, T, _draw_board, _seat_public, _booth)


def _draw_board(scene: Scene, arena: Arena, text: SignTexts, public: Mapping[str, Any]) -> None:
    signs = arena.board_signs
    phase = text.t(f"briscola_bugiarda.phase.{public['phase']}")
    scene.signs[signs["status"].at] = text.sign(
        T + "status",
        deal=public["deal"],
        deals=public["deals"],
        phase=phase,
        dealer=player_name(public, public["dealer"]),
    )
    scene.signs[signs["auction"].at] = _auction(text, public)
    scene.signs[signs["contract"].at] = _contract(text, public)
    trick, title = public["trick"], text.t(T + "trick_title", trick=len(public["tricks"]) + 1)
    if not trick and public["tricks"]:  # between tricks: the last one, and who took it
        last = public["tricks"][-1]
        trick = last["cards"]
        title = text.t(
            T + "trick_won",
            trick=len(public["tricks"]),
            name=player_name(public, last["winner"]),
            points=last["points"],
        )
    rows = [f"{player_name(public, s)[:6]}: {card_text(text, c)}" for s, c in trick]
    scene.signs[signs["trick"].at], scene.signs[signs["trick2"].at] = spread(rows, 2, title=title)
    if public["phase"] == "over":
        rows = [f"{row['rank']}.{row['name'][:8]} {row['chips']:+d}" for row in public.get("standings", [])]
        title = text.t(T + "standings_title")
    else:
        points = public["points_won"]
        rows = [f"{player_name(public, s)[:7]} {c:+d} {points[s]}p" for s, c in enumerate(public["chips"])]
        title = text.t(T + "chips_title")
    scene.signs[signs["chips"].at], scene.signs[signs["chips2"].at] = spread(rows, 2, title=title)


def _auction(text: SignTexts, public: Mapping[str, Any]) -> Lines:
    standing = public["standing"]
    passed = sum(public["passed"])
    if standing is None:
        return text.sign(T + "auction_none", passed=passed)
    rank = text.t(T + f"rank.{standing['rank']}")
    return text.sign(T + "auction", rank=rank, name=player_name(public, standing["seat"]), passed=passed)


def _contract(text: SignTexts, public: Mapping[str, Any]) -> Lines:
    declarer = public["declarer"]
    if declarer is None:
        return BLANK
    name = player_name(public, declarer)
    if public["solo"]:
        return text.sign(T + "contract_solo", name=name)
    if public["trump"] is None:
        rank = text.t(T + f"rank.{public['bid_rank']}")
        return text.sign(T + "contract_bid", name=name, rank=rank)
    partner = ""
    if public["partner"] is not None:
        partner = text.t(T + "partner_is", name=player_name(public, public["partner"]))
    elif public["hidden_solo"]:
        partner = text.t(T + "hidden_solo")
    return text.sign(
        T + "contract",
        name=name,
        trump=text.t(T + f"suit.{public['trump']}"),
        card=card_text(text, public["called_card"]),
        partner=partner,
    )


def _seat_public(memo: PartMemo, arena: Arena, seat: SeatPlan, text: SignTexts, frame: Frame) -> Scene:
    i = seat.index
    public = frame.public
    rules_seat = frame.seat_of_booth[i]
    occupant = frame.occupants[i]
    chips: int | None = None
    role = ""
    played: Lines = BLANK
    if public is not None and rules_seat is not None:
        chips = public["chips"][rules_seat]
        if public["declarer"] == rules_seat:
            role = text.t(T + "role_declarer")
        elif public["partner"] == rules_seat:
            role = text.t(T + "role_partner")
        on_table = [c for s, c in public["trick"] if s == rules_seat]
        bids = [b for s, b in public["bids"] if s == rules_seat]
        if on_table:
            played = text.sign(T + "played", card=card_text(text, on_table[0]))
        elif public["phase"] == "auction" and bids:
            said = bids[-1]  # a rank, "pass" or "solo"
            word = text.t(T + (f"said_{said}" if said in ("pass", "solo") else f"rank.{said}"))
            played = text.sign(T + "said", bid=word)
    key = (occupant, chips, role, played)

    def build(scene: Scene) -> None:
        scene.signs[seat.signs["join"].at] = join_lines(text, i, occupant)
        shown = "" if chips is None else text.t(T + "chips", chips=chips)
        scene.signs[seat.signs["seat"].at] = text.sign(
            T + "seat", seat=i + 1, name=occupant or "", chips=shown, role=role
        )
        scene.signs[seat.signs["played"].at] = played

    return memo.part(("seat", i), key, build, arena)


def _booth(memo: PartMemo, arena: Arena, seat: SeatPlan, text: SignTexts, frame: Frame) -> Scene:
    i = seat.index
    private = frame.private[i]
    rules_seat = frame.seat_of_booth[i]
    hand = tuple(sort_hand((private or {}).get("hand") or ()))
    playable = frame.playable[i]
    menu = tuple(frame.menus[i])
    if private is None or rules_seat is None:
        info = BLANK
    else:
        role = private.get("role")
        role_text = text.t(T + f"you_{role}") if role else ""
        mine = rules_seat in private["to_act"]
        what = text.t(T + f"do_{private['phase']}") if mine else text.t(T + "do_wait")
        info = text.sign(T + "info", what=what, role=role_text)
    key = (hand, playable, menu, info)

    def build(scene: Scene) -> None:
        cards = [
            text.sign(
                T + ("hand_play" if c in playable else "hand"),
                card=card_text(text, c),
                rank=text.t(T + f"rank.{rank_of(c)}"),
                suit=text.t(T + f"suit.{suit_of(c)}"),
            )
            for c in hand
        ]
        fill_panel(scene, seat.hand, cards)
        fill_panel(scene, seat.menu, menu_lines(text, menu, lambda a: action_label(text, a)))
        scene.signs[seat.signs["info"].at] = info

    return memo.part(("booth", i), key, build, arena, booth=i)  # private to the booth
