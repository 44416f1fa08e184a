"""A Wool Bluff table: one arena, its seats, and the match running in it.

The table is the only place where rules and world meet (DESIGN.md §5). It receives
intents (a sign clicked by a player, a chat line, where players stand, what a wall read
showed), turns them into rules actions, journals them, and exposes the scene it wants the
world to show. It never talks to the server itself: the supervisor batches every table's
reads and writes into one round per tick, and passes the clock in, so tables are easy to
test and cheap to run by the dozen.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Collection
from dataclasses import astuple, dataclass, field
from typing import Any

from mcbridge import games
from mcbridge.core import CHANCE, Action, Event, IllegalAction, Rng
from mcbridge.core.rng import derive_seed
from mcbridge.games.wool_bluff import COLOURS, Bid, Bluff, Deal, Discard, Reveal, Through, WoolBluffState
from mcbridge.games.wool_bluff.actions import Penalised, WoolDealt, WoolDiscarded, wool_pairs
from mcbridge.i18n import Locale, locale
from mcbridge.tables.config import Arena
from mcbridge.tables.journal import Journal
from mcbridge.tables.wool_render import COLOUR_OF_WOOL, MAX_TORCHES_SHOWN, Scene, SeatUi, hand_slots, render
from mcbridge.world import blocks
from mcbridge.world.blocks import Block
from mcbridge.world.geometry import Pos

log = logging.getLogger(__name__)

#: What a wanted read is for, and for which booth: ("wall" | "pad" | "torches", booth).
ReadKey = tuple[str, int]

#: Events too chatty for public chat (one per seat per turn); the board shows them.
QUIET_EVENTS = (WoolDealt, WoolDiscarded)
HELP_WORDS = {"help", "ヘルプ", "へるぷ", "?"}


@dataclass
class Occupant:
    name: str
    present: bool = True
    away_since: float | None = None  # when they were last seen leaving (clock time)


@dataclass
class Outbox:
    """What the table wants said or given; the supervisor sends it with the next write."""

    chat: list[str] = field(default_factory=list)
    private: list[tuple[str, str]] = field(default_factory=list)  # (player, text)
    gives: list[tuple[str, int, int, int]] = field(default_factory=list)  # (player, id, data, count)
    clears: list[Pos] = field(default_factory=list)  # arena-local cells a player filled, to empty
    refresh: list[Pos] = field(default_factory=list)  # cells players changed: rewrite as rendered

    def drain(self) -> Outbox:
        out = Outbox(self.chat, self.private, self.gives, self.clears, self.refresh)
        self.chat, self.private, self.gives, self.clears, self.refresh = [], [], [], [], []
        return out


class WoolBluffTable:
    def __init__(
        self,
        arena: Arena,
        journal: Journal,
        clock: Callable[[], float],
        *,
        seed: int | None = None,
        can_give: bool = False,
        can_tell: bool = False,
        start_delay: float = 10.0,
        reveal_hold: float = 5.0,
    ) -> None:
        self.arena = arena
        self.journal = journal
        self.clock = clock
        # No seed: a secret one, so nobody can predict the deals. A seed (tests, the demo)
        # makes the table's matches reproducible: match k draws from derive(seed, arena, k).
        self.seed = secrets.randbits(63) if seed is None else seed
        self.matches_started = 0
        self.can_tell = can_tell
        self.can_give = can_give
        self.dispensing = arena.dispensing if can_give or arena.dispensing == "booth" else "booth"
        self.start_delay = start_delay
        self.reveal_hold = reveal_hold
        self.text: Locale = locale(arena.locale)
        self.game = games.load(arena.game, arena.game_options())
        n = len(arena.seats)
        self.occupants: list[Occupant | None] = [None] * n
        self.ui = [SeatUi() for _ in range(n)]
        self.state: WoolBluffState | None = None
        self.booths: list[int] = []  # rules seat -> booth index (empty booths are skipped)
        self.match_id: int | None = None
        self.seq = 0
        self.rng = Rng(self.seed)
        self.outbox = Outbox()
        self.deadlines: dict[int, float] = {}
        self._deadline_key: tuple[Any, ...] = ()
        self.last_join = 0.0
        self.hold_until = 0.0
        self.reveal_since: float | None = None
        self.wall_reads: dict[int, list[Block]] | None = None
        self.torch_wait: dict[int, int] = {}  # booth -> torches its player must put up
        self.torch_deadline = 0.0
        self.finished = False
        self.hits = self._hit_map()
        self._scene_key: tuple[Any, ...] = ()
        self._scene = Scene()
        if self.dispensing != arena.dispensing:
            self.outbox.chat.append(f"[{arena.name}] server cannot give items: using booth mode")
            log.warning("arena %s: the server cannot give items; falling back to booth mode", arena.name)
        self._resume()

    # -- setup ----------------------------------------------------------------------------
    def _hit_map(self) -> dict[Pos, tuple[str, int, int]]:
        hits: dict[Pos, tuple[str, int, int]] = {}
        for seat in self.arena.seats:
            for name, spot in seat.signs.items():
                hits[spot.at] = (name, seat.index, 0)
            for k, cell in enumerate(seat.hand_display.cells):
                hits[cell] = ("hand", seat.index, k)
        return hits

    def _resume(self) -> None:
        """Pick up an unfinished match of this arena from the journal, if there is one."""
        saved = self.journal.unfinished(self.arena.name)
        if saved is None:
            return
        state = self.game.new_match(saved.players, saved.seed)
        assert isinstance(state, WoolBluffState)
        for seat, data in saved.actions:
            state.apply(seat, self.game.action_from_json(data))
        self.state = state
        self.match_id = saved.id
        self.seq = len(saved.actions)
        self.rng = Rng(derive_seed(saved.seed, "resume", self.seq))
        self.booths = list(saved.options.get("booths", range(len(saved.players))))
        self.occupants = [None] * len(self.arena.seats)
        for name, booth in zip(saved.players, self.booths, strict=True):
            self.occupants[booth] = Occupant(name, present=False, away_since=self.clock())
        log.info("arena %s: resumed match %s at action %s", self.arena.name, saved.id, self.seq)

    # -- seats ----------------------------------------------------------------------------
    def rules_seat(self, booth: int) -> int | None:
        return self.booths.index(booth) if booth in self.booths else None

    def booth_of(self, seat: int) -> int:
        return self.booths[seat]

    def seat_of(self, name: str) -> int | None:
        """The booth a player sits in."""
        for i, occ in enumerate(self.occupants):
            if occ and occ.name == name:
                return i
        return None

    def join(self, seat: int, name: str) -> None:
        current = self.seat_of(name)
        if current is not None:
            occ = self.occupants[current]
            assert occ is not None
            self._back(occ, current)
            return
        if self.state is not None or self.occupants[seat] is not None:
            self._tell(name, self.text.t("common.error.table_full"))
            return
        self.occupants[seat] = Occupant(name)
        self.last_join = self.clock()
        self.outbox.chat.append(self.text.t("common.joined", name=name, seat=seat + 1))
        if self.can_give:  # the signs answer only to a sword: hand one to whoever sits down
            self.outbox.gives.append((name, blocks.DIAMOND_SWORD_ITEM, 0, 1))
            self._tell(name, self.text.t("common.sword_given"))

    def on_presence(self, online: Collection[str], inside: dict[str, Pos]) -> None:
        """Who is online, and where those inside this arena stand (arena-local).

        Walking into a free booth takes the seat; a seated player who is not online is absent
        (the rules' timeouts act for them) until they come back.
        """
        for booth, occ in enumerate(self.occupants):
            if occ is None:
                continue
            if occ.name in online:
                self._back(occ, booth)
            elif occ.present:
                occ.present, occ.away_since = False, self.clock()
                self.outbox.chat.append(self.text.t("common.left", name=occ.name, seat=booth + 1))
        for name, pos in inside.items():
            for seat in self.arena.seats:
                if seat.interior.cuboid.contains(pos):
                    # a free booth is taken only before the match; during it, walking into one is
                    # no request to join (which would be refused every cycle the player stands there)
                    free = self.occupants[seat.index] is None and self.state is None
                    if free or self.seat_of(name) == seat.index:
                        self.join(seat.index, name)

    def _back(self, occ: Occupant, booth: int) -> None:
        if not occ.present:
            occ.present, occ.away_since = True, None
            self.outbox.chat.append(self.text.t("common.rejoined", name=occ.name, seat=booth + 1))

    def _away_too_long(self, occ: Occupant | None, now: float) -> bool:
        """Away longer than `timeouts.absent`: the rules act for them at once on their turns
        (and before a match, their seat is freed)."""
        return (
            occ is not None
            and not occ.present
            and occ.away_since is not None
            and now - occ.away_since >= self.arena.timeouts["absent"]
        )

    # -- input ----------------------------------------------------------------------------
    def on_hit(self, pos: Pos, name: str) -> bool:
        """A sword right-click at an arena-local position; False if it is not ours."""
        target = self.hits.get(pos)
        if target is None:
            return False
        kind, booth, slot = target
        if kind == "join":
            self.join(booth, name)
            return True
        seat = self.rules_seat(booth)
        if self.seat_of(name) != booth or self.state is None or seat is None:
            return True  # someone else's booth or no match: nothing to do
        ui = self.ui[booth]
        view = self.state.view(seat)
        if kind == "colour":
            ui.colour = COLOURS[(COLOURS.index(ui.colour) + 1) % len(COLOURS)]
        elif kind in ("minus", "plus"):
            lo = view["min_count"] or 1
            ui.count = max(lo, min(max(view["wool_in_play"], lo), ui.count + (1 if kind == "plus" else -1)))
        elif kind == "bid":
            self.submit(seat, Bid(ui.colour, ui.count))
        elif kind == "through":
            self.submit(seat, Through())
        elif kind == "bluff":
            self.submit(seat, Bluff())
        elif kind == "hand" and view["phase"] == "discard" and view["must_discard"]:
            self._toggle_discard(seat, slot, view)
        return True

    def _toggle_discard(self, seat: int, slot: int, view: dict[str, Any]) -> None:
        slots = hand_slots(view["drawn"])
        if slot >= len(slots):
            return
        picked = self.ui[self.booth_of(seat)].selected
        if slot in picked:
            picked.remove(slot)
        else:
            picked.append(slot)
        if len(picked) == view["must_discard"]:
            chosen = [slots[k] for k in picked]
            self.submit(seat, Discard(wool_pairs({c: chosen.count(c) for c in set(chosen)})))

    def on_chat(self, name: str, message: str) -> None:
        text = message.strip()
        if not text.startswith(("!", "！")):
            return
        word = text.lstrip("!！").strip().lower()
        if word in HELP_WORDS:
            mult = self.game.options["white_multiplier"]
            self._tell(name, self.text.t("wool_bluff.help", multiplier=mult))
            return
        booth = self.seat_of(name)
        seat = self.rules_seat(booth) if booth is not None else None
        if seat is None or self.state is None:
            self._tell(name, self.text.t("common.error.not_seated"))
            return
        try:
            action = self.game.parse_action(seat, text, self.state)
        except IllegalAction as exc:
            self._refuse(name, exc)
            return
        self.submit(seat, action)

    def submit(self, seat: int, action: Action) -> list[Event]:
        """Apply through the rules; journal; announce. Refusals go back to the player."""
        assert self.state is not None and self.match_id is not None
        try:
            events = self.state.apply(seat, action)
        except IllegalAction as exc:
            occ = self.occupants[self.booth_of(seat)] if seat >= 0 else None
            if occ:
                self._refuse(occ.name, exc)
            else:
                log.error("arena %s: chance action refused: %s", self.arena.name, exc)
            return []
        self.journal.append(self.match_id, self.seq, seat, action.to_json())
        self.seq += 1
        if seat >= 0:
            self.ui[self.booth_of(seat)].selected = []
        for event in events:
            if not isinstance(event, QUIET_EVENTS):
                self.outbox.chat.append(self.text.event("wool_bluff", event, self.state.players, self._booth_numbers()))
        return events

    def _refuse(self, name: str, exc: IllegalAction) -> None:
        players = self.state.players if self.state else []
        self._tell(name, self.text.refusal("wool_bluff", exc, players, self._booth_numbers()))

    def _booth_numbers(self) -> list[int]:
        """How people know the seats: by booth number, which a rules seat need not equal."""
        return [b + 1 for b in self.booths]

    def _tell(self, name: str, text: str) -> None:
        if self.can_tell:
            self.outbox.private.append((name, text))
        else:
            self.outbox.chat.append(f"@{name}: {text}")

    # -- time -----------------------------------------------------------------------------
    def tick(self) -> None:
        now = self.clock()
        if self.state is None:
            self._maybe_start(now)
            return
        if self.state.is_over:
            self._finish()
            return
        self._run_chance(now)
        self._timeouts(now)

    def _maybe_start(self, now: float) -> None:
        for booth, occ in enumerate(self.occupants):
            if occ is not None and self._away_too_long(occ, now):
                self.occupants[booth] = None  # gone before the match began: free the booth
        seated = [o.name for o in self.occupants if o]
        lo, _ = self.game.player_range
        full = len(seated) == len(self.occupants)
        if len(seated) >= lo and (full or now - self.last_join >= self.start_delay):
            self.booths = [i for i, o in enumerate(self.occupants) if o]
            seed = int(derive_seed(self.seed, self.arena.name, self.matches_started) % 2**31)
            self.matches_started += 1
            state = self.game.new_match(seated, seed)
            assert isinstance(state, WoolBluffState)
            self.state = state
            options = {**self.game.options, "booths": self.booths}
            self.match_id = self.journal.start_match(self.arena.name, self.game.name, options, seated, seed)
            self.seq = 0
            self.rng = Rng(seed)
            self.finished = False

    def _run_chance(self, now: float) -> None:
        state = self.state
        assert state is not None
        while CHANCE in state.to_act():
            if state.phase == "reveal":
                if not self._reveal_ready(now):
                    return
                events = self.submit(CHANCE, Reveal(self._tamper_report()))
                self.hold_until = now + self.reveal_hold
                self.reveal_since = None
                self.wall_reads = None
                if self.arena.torches == "players" and not state.is_over:
                    self._await_torches(events, now)
                continue
            if state.phase == "deal" and self.torch_wait:
                if now < self.torch_deadline:
                    return
                for booth in list(self.torch_wait):  # too slow: the controller lights them itself
                    self._stop_waiting_for_torches(booth)
            if state.phase == "deal" and now < self.hold_until:
                return
            action = state.sample_chance(self.rng)
            self.submit(CHANCE, action)
            if isinstance(action, Deal) and self.dispensing == "give":
                for colour, n in action.wool:
                    wool = blocks.wool(colour)
                    self.outbox.gives.append((state.players[action.seat], wool.id, wool.data, n))

    def _reveal_ready(self, now: float) -> bool:
        """Walls are read (next tick) after the hands are put up; give mode waits for players."""
        if self.reveal_since is None:
            self.reveal_since = now
            return False
        if self.wall_reads is None:
            return False
        if self.dispensing == "booth":
            return True
        complete = all(
            sum(1 for b in self.wall_reads.get(self.booth_of(s), []) if b.id == blocks.WOOL.id)
            >= sum(self._dealt(s).values())
            for s in self.active_seats()
        )
        return complete or now - self.reveal_since >= self.arena.timeouts["reveal"]

    def active_seats(self) -> list[int]:
        return self.state.active_seats() if self.state else []

    def _dealt(self, seat: int) -> dict[str, int]:
        assert self.state is not None
        return dict(self.state.hands[seat] or {})

    def _tamper_report(self) -> tuple[tuple[int, tuple[tuple[str, int], ...]], ...]:
        reports = []
        for seat in self.active_seats():
            wall: dict[str, int] = {}
            for b in (self.wall_reads or {}).get(self.booth_of(seat), []):
                if b.id == blocks.WOOL.id and b.data in COLOUR_OF_WOOL:
                    wall[COLOUR_OF_WOOL[b.data]] = wall.get(COLOUR_OF_WOOL[b.data], 0) + 1
                elif b.id != blocks.AIR.id:
                    wall["?"] = wall.get("?", 0) + 1
            dealt = self._dealt(seat)
            diff = tuple((c, wall.get(c, 0) - dealt.get(c, 0)) for c in COLOURS if wall.get(c, 0) != dealt.get(c, 0))
            if diff or wall.get("?"):
                reports.append((seat, diff))
        return tuple(reports)

    # -- reading the world -------------------------------------------------------------------
    def reads_wanted(self) -> dict[ReadKey, list[Pos]]:
        """Cells (arena-local) the supervisor should read with the next poll, by purpose:
        the wool walls at Reveal, the discard pads in give mode, torch walls players fill."""
        wanted: dict[ReadKey, list[Pos]] = {}
        state = self.state
        if state is None:
            return wanted
        if state.phase == "reveal" and self.reveal_since is not None:
            for plan in self.arena.seats:
                wanted[("wall", plan.index)] = plan.wool_wall.cells
        if self.dispensing == "give" and state.phase == "discard":
            for seat in sorted(state.discard_due):
                booth = self.booth_of(seat)
                wanted[("pad", booth)] = self.arena.seats[booth].discard_pad.cells
        for booth in self.torch_wait:
            wanted[("torches", booth)] = self.arena.seats[booth].torch_wall.cells
        return wanted

    def on_reads(self, results: dict[ReadKey, list[Block]]) -> None:
        walls = {booth: found for (kind, booth), found in results.items() if kind == "wall"}
        if walls:
            self.wall_reads = walls
        for (kind, booth), found in results.items():
            if kind == "pad":
                self._pad_seen(booth, found)
            elif kind == "torches":
                self._torches_seen(booth, found)

    def _pad_seen(self, booth: int, found: list[Block]) -> None:
        """Wool placed on a discard pad counts as discarded; the pad is emptied again."""
        seat = self.rules_seat(booth)
        if self.state is None or seat is None or seat not in self.state.discard_due:
            return
        cells = self.arena.seats[booth].discard_pad.cells
        pile = self.ui[booth].pad
        for cell, block in zip(cells, found, strict=True):
            if block.id == blocks.AIR.id:
                continue
            self.outbox.clears.append(cell)
            if block.id == blocks.WOOL.id and block.data in COLOUR_OF_WOOL:
                pile.append(COLOUR_OF_WOOL[block.data])
        if len(pile) >= self.state.discard_due[seat]:
            chosen, self.ui[booth].pad = pile[: self.state.discard_due[seat]], []
            self.submit(seat, Discard(wool_pairs({c: chosen.count(c) for c in set(chosen)})))

    def _await_torches(self, events: list[Event], now: float) -> None:
        """`torches: players`: each penalised player puts up their own red torches."""
        assert self.state is not None
        for event in events:
            if isinstance(event, Penalised) and self.state.active[event.seat]:
                booth = self.booth_of(event.seat)
                self.torch_wait[booth] = min(event.total, MAX_TORCHES_SHOWN)
                name = self.state.players[event.seat]
                if self.can_give:
                    self.outbox.gives.append((name, blocks.REDSTONE_TORCH_ON.id, 0, event.torches))
                self._tell(
                    name, self.text.t("wool_bluff.place_torches", count=event.torches, total=self.torch_wait[booth])
                )
        self.torch_deadline = now + self.arena.timeouts["reveal"]

    def _torches_seen(self, booth: int, found: list[Block]) -> None:
        lit = sum(1 for b in found if b.id in (blocks.REDSTONE_TORCH_ON.id, blocks.REDSTONE_TORCH_OFF.id))
        if lit == self.torch_wait.get(booth):
            self._stop_waiting_for_torches(booth)

    def _stop_waiting_for_torches(self, booth: int) -> None:
        """The controller owns the wall again: re-assert it on the next write."""
        self.torch_wait.pop(booth, None)
        self.outbox.refresh.extend(self.arena.seats[booth].torch_wall.cells)

    def _timeouts(self, now: float) -> None:
        state = self.state
        assert state is not None
        waiting = sorted(s for s in state.to_act() if s != CHANCE)
        key = (state.phase, state.turn, tuple(waiting), state.bid and state.bid.get("count"))
        if key != self._deadline_key:
            self._deadline_key = key
            limit = self.arena.timeouts.get(state.phase, 60)
            self.deadlines = {s: now + limit for s in waiting}
            for s in waiting:  # a fresh draft for whoever must bid
                if state.phase == "bid":
                    ui = self.ui[self.booth_of(s)]
                    ui.count = state.view(s)["min_count"]
                    if state.bid:
                        ui.colour = str(state.bid["colour"])
        for seat, deadline in list(self.deadlines.items()):
            occ = self.occupants[self.booth_of(seat)]
            if (now >= deadline or self._away_too_long(occ, now)) and seat in state.to_act():
                self.outbox.chat.append(self.text.t("common.timeout", name=occ.name if occ else seat))
                self.submit(seat, state.timeout_action(seat))
                self.deadlines.pop(seat, None)

    def _finish(self) -> None:
        if self.finished or self.state is None or self.match_id is None:
            return
        self.finished = True
        result = self.state.result()
        self.journal.finish(self.match_id, result)
        self.outbox.chat.append(self.text.t("wool_bluff.standings_title"))
        for row in result["standings"]:
            self.outbox.chat.append(
                self.text.t("common.standings", **row, score=self.text.t("wool_bluff.score", torches=row["torches"]))
            )
            prize = row["prize"]
            if prize["count"] and self.can_give:
                item = PRIZE_ITEMS.get(prize["item"], (264, 0))
                self.outbox.gives.append((row["name"], item[0], item[1], prize["count"]))
            if prize["count"]:
                self.outbox.chat.append(
                    self.text.t("wool_bluff.prize_given", name=row["name"], count=prize["count"], item=prize["item"])
                )

    # -- output ---------------------------------------------------------------------------
    def scene(self) -> Scene:
        """The desired world; rendered again only when something it shows has changed, since
        the supervisor asks every table every cycle and most cycles change nothing."""
        state = self.state
        showing = bool(
            state
            and (state.phase == "reveal" or state.is_over or (state.phase == "deal" and self.clock() < self.hold_until))
        )
        key = (
            self.match_id,
            self.seq,
            showing,
            [o.name if o else None for o in self.occupants],
            [astuple(ui) for ui in self.ui],
            sorted(self.torch_wait),
        )
        if key != self._scene_key:
            self._scene_key, self._scene = key, self._render(showing)
        return self._scene

    def _render(self, showing: bool) -> Scene:
        state = self.state
        n = len(self.arena.seats)
        public = state.view(None) if state else None
        private: list[dict[str, Any] | None] = [None] * n
        if state:
            for s, booth in enumerate(self.booths):
                private[booth] = state.view(s)
        if state and state.phase == "reveal" and public:
            # the hands go up now (booth mode draws them; give mode leaves the walls to players)
            public = {
                **public,
                "last_reveal": {
                    "hands": [state.hands[s] if state.active[s] else None for s in range(len(state.players))]
                },
            }
        if state and state.is_over and public:
            public = {**public, "standings": state.result()["standings"]}  # the board shows the rules' ranking
        names = [o.name if o else None for o in self.occupants]
        manage = self.dispensing == "booth" or not (state and state.phase == "reveal")
        seat_of_booth = [self.rules_seat(b) for b in range(n)]
        return render(
            self.arena,
            self.text,
            public,
            private,
            names,
            seat_of_booth,
            self.ui,
            showing,
            manage,
            players_light=frozenset(self.torch_wait),
        )


#: Prize item names -> legacy item (id, data).
PRIZE_ITEMS = {"diamond": (264, 0), "emerald": (388, 0), "gold_ingot": (266, 0), "iron_ingot": (265, 0)}
