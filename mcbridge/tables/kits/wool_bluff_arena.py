"""Wool Bluff's part of the arena schema: its booth regions and signs, board signs, the
`wool_bluff:` settings section, timed phases, fixed blocks and geometry checks.

Declared apart from the kit so that `validate`, `schema` and worldgen need no runtime.
"""

from __future__ import annotations

from typing import Any

from mcbridge.core.options import Choice
from mcbridge.core.yamlmarks import MarkedYaml
from mcbridge.tables.arena import Arena, ArenaPart, SeatPlan
from mcbridge.tables.layout import EMPTY_SLOT, Structure
from mcbridge.world import blocks

WALLS = ("hand_display", "wool_wall", "torch_wall")


def _rules_options(arena: Arena) -> dict[str, Any]:
    return {
        "tamper": arena.setting("tamper"),
        "prize": arena.prize,
        "max_players": max(len(arena.seats), 2),
        "timeouts": {k: v for k, v in arena.timeouts.items() if k in PART.timeouts},
    }


def _static(s: Structure, arena: Arena, seat: SeatPlan) -> None:
    s.fill(seat.hand_display.cuboid, EMPTY_SLOT)
    for name in ("wool_wall", "torch_wall", "discard_pad"):
        s.fill(seat.regions[name].cuboid, blocks.AIR)


def _check_walls(arena: Arena, marked: MarkedYaml, problems: list[str]) -> None:
    """Walls big enough for a hand, and walls that know which side players look at."""
    hand = int(arena.options.get("hand_size", 10))
    reported: set[tuple[Any, ...]] = set()  # a template region too small is one problem, not one per seat
    for seat in arena.seats:
        own = arena.raw["seats"][seat.index]
        for name in WALLS:
            region = seat.regions[name]
            src: tuple[Any, ...] = ("seats", seat.index, name) if name in own else ("seat_template", name)
            if region.cuboid.volume < hand and src not in reported:
                reported.add(src)
                who = f"seat {seat.index + 1} {name}" if name in own else f"{name} (every seat)"
                problems.append(
                    f"{marked.where(src)}: {who} holds "
                    f"{region.cuboid.volume} blocks but a hand is {hand}; make it at least {hand} blocks"
                )
        for name in ("wool_wall", "torch_wall"):
            if seat.regions[name].faces is None and ("faces", name) not in reported:
                reported.add(("faces", name))
                problems.append(
                    f"{marked.where(('seat_template', name))}: {name} needs 'faces' (the side players look at)"
                )


PART = ArenaPart(
    game="wool_bluff",
    seat_signs=("colour", "minus", "bid", "plus", "through", "bluff"),
    seat_regions=("hand_display", "wool_wall", "torch_wall", "discard_pad"),
    board_signs=("bid", "to_act", "wool", "standings"),
    timeouts={"bid": 60, "respond": 30, "discard": 45, "reveal": 60},
    settings={
        "dispensing": Choice("booth", "give"),
        "torches": Choice("controller", "players"),
        "tamper": Choice("warn", "forfeit"),
    },
    defaults={"dispensing": "booth", "torches": "controller", "tamper": "warn"},
    rules_options=_rules_options,
    static=_static,
    checks=(_check_walls,),
)
