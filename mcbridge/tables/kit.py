"""A game's kit: everything the table runtime needs to know about one game, and no more.

How to write a kit
------------------
The runtime (`mcbridge.tables.table.Table`) already does, for every game: booths and
their occupants, presence and absence, the journal and exact resume, submitting actions
and refusing them (a refusal is `text.refusal(game, exc)`, so locale keys are
`<game>.error.<code>`), chance actions, phase timeouts, the end of a match (standings,
prizes, hold, lobby countdown, next match), scene caching, and publishing a
`TableUpdate` per action. A kit adds only what is particular to its game:

1. **Its part of the arena** (`part`, an `ArenaPart` declared in
   `kits/<game>_arena.py`): booth signs and regions beyond the common ones (`join`,
   `seat`, `info`; `booth`, `interior`, `door`), board signs beyond `title`/`status`, the
   game's settings section, and which phases take a timeout (with defaults).
2. **Rendering**: `render(view) -> Scene`, a pure function of a `TableView` (the rules'
   public view, each booth's private view, who sits where) and the kit's own drafts.
   Private things go only inside their owner's booth, in a part marked with its `booth`
   (see `Scene`); everything else gets `view(None)`.
   `scene_key()` names what, besides the journal position and the occupants, changes
   the picture (drafts, holds), so unchanged tables cost nothing.
3. **Intents**: `on_click(booth, seat, target, slot)` turns a sword click on one of the
   booth's targets (its signs, plus any cells `hit_targets` adds) into an action, a draft
   change (return None), or nothing; chat goes through `parse_chat` (by default the
   game's `parse_action`, English and Japanese). Return actions: the runtime submits them.
4. **Events kept out of public chat** (`quiet_events`): per-seat chatter the board shows;
   refusals that tell hidden state (`private_refusals`) never go to public chat.
5. **Optional hooks**: `chance(now)` to supply or delay a chance action (default: draw
   `state.sample_chance` from the runtime's per-action stream), `on_applied` to react to
   an applied action (give items, start a hold), `decision_key` and `on_decision` for
   per-decision timeouts and fresh drafts, `reads_wanted`/`on_reads` for world reads
   (only Wool Bluff reads walls, pads and torches), `on_block_change` for who placed or
   broke a block where the server tells (walls nobody can frame), `on_reset` between matches,
   `on_world_emptied` when the world came back without the arena (put back what no scene
   draws, such as items handed out), `score_text` for the standings line.

Then list the game in `mcbridge.tables.kits.KITS` and ship `config/arenas/<game>.yaml`.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from mcbridge.core import Action, Event
from mcbridge.i18n import Locale
from mcbridge.tables.arena import Arena, ArenaPart, SeatPlan
from mcbridge.tables.layout import Lines
from mcbridge.world.blocks import Block
from mcbridge.world.geometry import Pos

if TYPE_CHECKING:
    from mcbridge.tables.table import Table

#: What a wanted read is for, and for which booth: e.g. ("wall", 2).
ReadKey = tuple[str, int]


class Texts(Protocol):
    """What renders need of a `Locale`."""

    def t(self, key: str, **fields: Any) -> str: ...

    def lines(self, key: str, **fields: Any) -> Lines: ...


class CachedTexts:
    """A `Locale` with its results memoised: a table renders the same few dozen texts again
    and again, and formatting them was most of a render's cost."""

    def __init__(self, text: Locale, size: int = 4096) -> None:
        self.t = functools.lru_cache(maxsize=size)(text.t)
        self.lines = functools.lru_cache(maxsize=size)(text.lines)


@dataclass
class Scene:
    """The desired world of one table, arena-local: blocks and sign texts.

    A scene may be made of `parts` (later parts win); a kit that hands back the very same
    part object while its inputs are unchanged lets the reconciler skip it unread.

    A part with a `booth` is that booth's private scene (a hand, a bid draft, an info line):
    where the server has private blocks the world holds a neutral block or a blank sign there
    and only the booth's occupant sees the part (`Reconciler.write`); elsewhere it is drawn
    like any other part, hidden by the booth's walls.
    """

    blocks: dict[Pos, Block] = field(default_factory=dict)
    signs: dict[Pos, Lines] = field(default_factory=dict)
    parts: tuple[Scene, ...] = ()
    booth: int | None = None

    @classmethod
    def of_parts(cls, parts: Sequence[Scene]) -> Scene:
        scene = cls(parts=tuple(parts))
        for part in parts:  # dict merges reuse the keys' stored hashes: cheap
            scene.blocks.update(part.blocks)
            scene.signs.update(part.signs)
        return scene


@dataclass(frozen=True)
class TableView:
    """What a kit renders from: per booth lists are indexed by booth, not rules seat.

    `lobby_countdown` is the seconds left before the next match starts (None when not
    counting down); `holding` is true while the last match's standings are held.
    """

    arena: Arena
    text: Locale
    public: Mapping[str, Any] | None
    private: Sequence[Mapping[str, Any] | None]
    occupants: Sequence[str | None]
    seat_of_booth: Sequence[int | None]
    lobby_countdown: int | None = None
    holding: bool = False


class Kit(ABC):
    """One game's table behaviour; the runtime owns the state, the kit reads `self.table`."""

    part: ClassVar[ArenaPart]
    quiet_events: ClassVar[tuple[type[Event], ...]] = ()
    #: Refusal codes whose text tells the player's hidden state ("You hold 0 white wool."):
    #: they go only to that player (a private message, else the booth's info sign).
    private_refusals: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, table: Table) -> None:
        self.table = table

    # -- input ----------------------------------------------------------------------------
    def hit_targets(self, seat: SeatPlan) -> dict[Pos, tuple[str, int]]:
        """Clickable cells of a booth -> (target, slot). Default: every sign of the booth."""
        return {spot.at: (name, 0) for name, spot in seat.signs.items()}

    @abstractmethod
    def on_click(self, booth: int, seat: int, target: str, slot: int) -> Action | None:
        """The seated player of `booth` (rules `seat`) clicked `target`: an action to submit,
        or None (a draft changed, or nothing to do)."""

    def parse_chat(self, seat: int, text: str) -> Action:
        """A chat command -> action; raises IllegalAction with a stable code."""
        state = self.table.state
        assert state is not None
        return self.table.game.parse_action(seat, text, state)

    def help_fields(self) -> dict[str, Any]:
        """Fields for the `<game>.help` locale text."""
        return {}

    # -- chance and time ------------------------------------------------------------------
    def chance(self, now: float) -> Action | None:
        """The next chance action, or None to wait (for a read, a hold). Default: draw it."""
        state = self.table.state
        assert state is not None
        return state.sample_chance(self.table.chance_rng())

    def on_applied(self, seat: int, action: Action, events: list[Event], now: float) -> None:  # noqa: B027
        """An action was applied and journaled (seat is CHANCE for chance actions)."""

    def decision_key(self) -> Hashable:
        """Changes whenever the waiting seats face a new decision (restarts their timers)."""
        return ()

    def on_decision(self, seat: int) -> None:  # noqa: B027
        """`seat` faces a new decision: reset its drafts."""

    def on_reset(self) -> None:  # noqa: B027
        """The table goes back to its lobby between matches: clear per-match drafts."""

    def on_world_emptied(self) -> None:  # noqa: B027
        """The shell probe found this arena gone: the world restarted empty (or was wiped), so
        the players' inventories went with it. The scene is drawn again by the runtime; a kit
        puts back what no scene draws (items it handed out). Called only on that evidence, never
        on a plain reconnect, so nothing is handed out twice."""

    def shift_timers(self, seconds: float) -> None:  # noqa: B027
        """The table was paused for `seconds` (`mcbridge.tables.pause`): move the kit's own
        clock-based deadlines on by as much, so the wait resumes with the time that was left."""

    # -- world reads ----------------------------------------------------------------------
    def reads_wanted(self) -> dict[ReadKey, Sequence[Pos]]:
        """Arena-local cells to read with the next poll, by purpose."""
        return {}

    def on_reads(self, results: dict[ReadKey, list[Block]]) -> None:  # noqa: B027
        """What the reads asked for showed (a failed read comes back as air)."""

    def on_block_change(self, kind: str, pos: Pos, name: str | None, block: Block) -> None:  # noqa: B027
        """During a match, where the server reports placements: `name` "placed" or "broke"
        `block` at an arena-local cell (None: a player the table does not know)."""

    # -- output ---------------------------------------------------------------------------
    def scene_key(self) -> Hashable:
        """Whatever else the scene depends on (drafts, holds)."""
        return ()

    @abstractmethod
    def render(self, view: TableView) -> Scene:
        """The desired world for this view."""

    def score_text(self, row: Mapping[str, Any]) -> str:
        """A standings row's score, e.g. "3 torches"."""
        return self.table.text.t(f"{self.part.game}.score", **row)
