"""Wool Bluff: the state drawn as blocks and sign texts (arena-local).

Pure functions of the rules views and the table's own UI state. Private things (a seat's
hand, its bid draft, its info sign) are drawn only inside that seat's enclosed booth, in the
booth's private part (only its occupant sees it where the server has private blocks); the
board, seat signs, wool walls and torch walls get only `view(None)`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from mcbridge.games.wool_bluff import COLOURS
from mcbridge.tables.arena import Arena, SeatPlan
from mcbridge.tables.kit import Scene, Texts
from mcbridge.tables.layout import EMPTY_SLOT, wall_sign, wall_torch
from mcbridge.world import blocks
from mcbridge.world.blocks import Block
from mcbridge.world.geometry import Facing, Pos

#: The six game colours as wool, and as stained glass (a wool picked for discard).
WOOL_OF = {c: blocks.wool(c) for c in COLOURS}
GLASS_OF = {c: Block(blocks.STAINED_GLASS.id, blocks.wool(c).data) for c in COLOURS}
COLOUR_OF_WOOL = {block.data: c for c, block in WOOL_OF.items()}
MAX_TORCHES_SHOWN = 10


@dataclass
class SeatUi:
    """What a seated player is composing: never part of the rules state."""

    colour: str = "red"
    count: int = 1
    selected: list[int] = field(default_factory=list)  # hand display slots picked for discard
    pad: list[str] = field(default_factory=list)  # give mode: colours put on the discard pad so far


def hand_slots(hand: Mapping[str, int] | None) -> list[str]:
    """A hand as one colour per slot, in colour order."""
    return [c for c in COLOURS for _ in range((hand or {}).get(c, 0))]


#: A kit's memo of rendered parts: slot -> (what the part was drawn from, the part).
Parts = dict[Hashable, tuple[Hashable, Scene]]


def render(
    arena: Arena,
    text: Texts,
    public: Mapping[str, Any] | None,
    private: Sequence[Mapping[str, Any] | None],
    occupants: Sequence[str | None],
    seat_of_booth: Sequence[int | None],
    ui: Sequence[SeatUi],
    showing_reveal: bool,
    manage_walls: bool,
    players_light: frozenset[int] = frozenset(),
    countdown: int | None = None,
    memo: Parts | None = None,
) -> Scene:
    """`private`, `occupants` and `ui` are per booth; `seat_of_booth` maps a booth to its
    rules seat (None for a booth left empty when the match began). Torch walls of booths in
    `players_light` are left to their players (`torches: players`).

    The scene is made of parts (the board, each seat's public side, each booth's inside);
    with a `memo`, a part whose inputs did not change is the very same object as last time,
    which the reconciler skips without looking inside: most actions change one or two."""
    memo = {} if memo is None else memo
    faces = {spot.at: spot.faces for spot in arena.board_signs.values()}
    board = Scene()
    _board(board, arena, text, public, occupants, countdown)
    _sign_blocks(board, faces)
    parts = [board]
    for seat in arena.seats:
        i = seat.index
        rules_seat = seat_of_booth[i]
        manage = (manage_walls, i not in players_light)
        parts.append(_seat_public(memo, seat, text, public, rules_seat, occupants[i], showing_reveal, manage))
        parts.append(_booth(memo, seat, rules_seat, text, private[i], ui[i]))
    return Scene.of_parts(parts)


#: The wall sign block by the way it faces: the same four blocks, for every sign of every render.
_WALL_SIGN = {facing: wall_sign(facing) for facing in Facing}


def _sign_blocks(part: Scene, faces: Mapping[Pos, Facing]) -> None:
    """A sign's text is written with its block (world.setSign needs both), so the scene owns
    the sign blocks too; without them the reconciler has no block to write the text with."""
    for at in part.signs:
        part.blocks[at] = _WALL_SIGN[faces[at]]


def _memo(
    memo: Parts, slot: Hashable, key: Hashable, build: Callable[[Scene], None], seat: SeatPlan, booth: int | None = None
) -> Scene:
    hit = memo.get(slot)
    if hit is not None and hit[0] == key:
        return hit[1]
    part = Scene(booth=booth)
    build(part)
    _sign_blocks(part, {spot.at: spot.faces for spot in seat.signs.values()})
    memo[slot] = (key, part)
    return part


def _name(public: Mapping[str, Any], seat: int | None) -> str:
    return "" if seat is None else str(public["players"][seat])


def _board(
    scene: Scene,
    arena: Arena,
    text: Texts,
    public: Mapping[str, Any] | None,
    occupants: Sequence[str | None],
    countdown: int | None,
) -> None:
    signs = arena.board_signs
    t = "wool_bluff.sign."
    scene.signs[signs["title"].at] = text.lines(t + "title", arena=arena.name[:15])
    if public is None:
        seated = sum(1 for o in occupants if o)
        waiting = t + ("waiting" if countdown is None else "lobby")
        scene.signs[signs["status"].at] = text.lines(waiting, seated=seated, seats=len(occupants), seconds=countdown)
        for key in ("bid", "to_act", "wool", "standings"):
            scene.signs[signs[key].at] = ("", "", "", "")
        return
    phase = text.t(f"wool_bluff.phase.{public['phase']}")
    scene.signs[signs["status"].at] = text.lines(
        t + "status",
        turn=public["turn"],
        turns=public["turns"],
        phase=phase,
        predictor=_name(public, public["predictor"]),
    )
    bid = public["bid"]
    if bid:
        caller = bid.get("caller")
        scene.signs[signs["bid"].at] = text.lines(
            t + "bid",
            count=bid["count"],
            colour=text.t(f"wool_bluff.colour.{bid['colour']}"),
            bidder=_name(public, bid["bidder"]),
            caller=("BLUFF: " + _name(public, caller)) if caller is not None else "",
        )
    else:
        scene.signs[signs["bid"].at] = text.lines(t + "bid_none")
    acting = [*(_name(public, s) for s in public["to_act"] if s >= 0), "", "", ""]
    scene.signs[signs["to_act"].at] = text.lines(t + "to_act", a=acting[0], b=acting[1], c=acting[2])
    scene.signs[signs["wool"].at] = text.lines(t + "wool", wool=public["wool_in_play"])
    if public["phase"] == "over":
        # ranks as the rules give them: co-winners share a rank, a forfeit ranks last
        rows = public.get("standings", [])[:4]
        lines = [f"{row['rank']}.{row['name'][:9]} {row['torches']}" for row in rows]
        padded = [*lines, "", "", "", ""]
        scene.signs[signs["standings"].at] = (padded[0], padded[1], padded[2], padded[3])
    else:
        scene.signs[signs["standings"].at] = ("", "", "", "")


def _seat_public(
    memo: Parts,
    seat: SeatPlan,
    text: Texts,
    public: Mapping[str, Any] | None,
    rules_seat: int | None,
    occupant: str | None,
    showing_reveal: bool,
    manage: tuple[bool, bool],
) -> Scene:
    """`manage`: whether the table draws this seat's (wool wall, torch wall)."""
    manage_walls, manage_torches = manage
    i = seat.index
    if rules_seat is None:
        public = None
    torches = public["torches"][rules_seat] if public and rules_seat is not None else 0
    out = public is not None and rules_seat is not None and not public["active"][rules_seat]
    shown: list[str] = []
    if public and rules_seat is not None and showing_reveal and public["last_reveal"]:
        shown = hand_slots(public["last_reveal"]["hands"][rules_seat])
    t = "wool_bluff.sign."

    def build(scene: Scene) -> None:
        join = seat.signs["join"].at
        scene.signs[join] = (
            text.lines(t + "join_taken", seat=i + 1, name=occupant[:15])
            if occupant
            else text.lines(t + "join_free", seat=i + 1)
        )
        note = text.t(t + "out") if out else ""
        scene.signs[seat.signs["seat"].at] = text.lines(
            t + "seat", seat=i + 1, name=(occupant or "")[:15], torches=torches, note=note
        )
        lit = min(torches, MAX_TORCHES_SHOWN)
        assert seat.torch_wall.faces is not None
        for k, cell in enumerate(seat.torch_wall.cells if manage_torches else ()):
            scene.blocks[cell] = wall_torch(seat.torch_wall.faces) if k < lit else blocks.AIR
        if manage_walls:
            for k, cell in enumerate(seat.wool_wall.cells):
                scene.blocks[cell] = WOOL_OF[shown[k]] if k < len(shown) else blocks.AIR

    key = (occupant, torches, out, manage, tuple(shown))
    return _memo(memo, ("seat", i), key, build, seat)


def _booth(
    memo: Parts, seat: SeatPlan, rules_seat: int | None, text: Texts, private: Mapping[str, Any] | None, ui: SeatUi
) -> Scene:
    t = "wool_bluff.sign."
    signs = seat.signs
    discarding = bool(private and private["phase"] == "discard" and private["must_discard"])
    slots = hand_slots((private or {}).get("drawn") if discarding else (private or {}).get("hand"))
    selected = tuple(ui.selected) if discarding else ()
    info = text.lines(t + "info_wait")
    if private and rules_seat in private["to_act"]:
        if discarding:
            info = text.lines(t + "info_discard", n=private["must_discard"], k=len(ui.selected))
        elif private["phase"] == "bid":
            what = text.t(t + ("you_bid" if private["can_raise"] else "you_bluff"))
            info = text.lines(t + "info_turn", what=what)
        elif private["phase"] == "respond":
            info = text.lines(t + "info_turn", what=text.t(t + "you_answer"))

    def build(scene: Scene) -> None:
        for k, cell in enumerate(seat.hand_display.cells):
            if k < len(slots):
                scene.blocks[cell] = GLASS_OF[slots[k]] if k in selected else WOOL_OF[slots[k]]
            else:
                scene.blocks[cell] = EMPTY_SLOT
        colour = text.t(f"wool_bluff.colour.{ui.colour}")
        scene.signs[signs["colour"].at] = text.lines(t + "colour", colour=colour)
        scene.signs[signs["minus"].at] = text.lines(t + "minus")
        scene.signs[signs["plus"].at] = text.lines(t + "plus")
        scene.signs[signs["bid"].at] = text.lines(t + "bid_button", colour=colour, count=ui.count)
        scene.signs[signs["through"].at] = text.lines(t + "through")
        scene.signs[signs["bluff"].at] = text.lines(t + "bluff")
        scene.signs[signs["info"].at] = info

    key = (tuple(slots), selected, ui.colour, ui.count, info)
    return _memo(memo, ("booth", seat.index), key, build, seat, booth=seat.index)  # private to the booth
