"""The table runtime: one arena, its booths, and the matches played in it, for any game.

The table is the only place where rules and world meet (DESIGN.md §5). It receives
intents (a sign clicked by a player, a chat line, where players stand, what a wall read
showed), turns them into rules actions through its game's kit (`mcbridge.tables.kit`),
journals them, publishes a `TableUpdate` for each, and exposes the scene it wants the
world to show. It never talks to the server itself: the supervisor batches every table's
reads and writes into one round per tick and passes the clock in, so tables are easy to
test and cheap to run by the dozen.

Words: a *booth* is the place (arena seat index); a *seat* is the rules seat of a match
(booths left empty when a match starts are skipped, so the two can differ).

A table keeps playing: after a match it shows the standings for `lobby.hold` seconds,
unseats those who left, clears its scene, and counts down (`lobby.countdown`) to the next
match as soon as enough players sit, each match with a fresh seed and its own journal id.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcbridge import games
from mcbridge.core import CHANCE, Action, Event, IllegalAction, Rng, State
from mcbridge.core.text import is_help, normalise
from mcbridge.i18n import Locale, locale
from mcbridge.tables import kits, rules_view
from mcbridge.tables.arena import ABSENT, Arena
from mcbridge.tables.arena_limits import PRIZE_ITEMS
from mcbridge.tables.journal import Journal
from mcbridge.tables.kit import Kit, ReadKey, Scene, TableView
from mcbridge.tables.layout import wall_sign
from mcbridge.tables.match_seeds import chance_rng, match_seed
from mcbridge.tables.seat_fill import SeatFill
from mcbridge.tables.updates import TableUpdate, UpdateFeed
from mcbridge.textfit import CHAT_CAP, CHAT_LINE_PX, SIGN_LINE_PX, WIDE_PX, split_chat, text_px
from mcbridge.world import blocks
from mcbridge.world.blocks import Block
from mcbridge.world.geometry import Pos

if TYPE_CHECKING:
    from mcbridge.stats.table_hooks import StatsDesk

log = logging.getLogger(__name__)

#: Characters at most on a sign line (the renders cut names to 15 too); `fit` is by pixels.
SIGN_LINE_CHARS = 15
#: `!lang ja`, `!言語 en`: a player's own language for what the table tells them alone
LANGUAGE_WORDS = frozenset({"lang", "language", "言語", "げんご", "gengo"})
LANGUAGE_NAMES = {"en": "en", "english": "en", "英語": "en", "えいご": "en",
                  "ja": "ja", "jp": "ja", "japanese": "ja", "日本語": "ja", "にほんご": "ja"}
#: private replies are split at their own line breaks and the cap, never by width
PRIVATE_LINE_PX = 10**9


#: `Table.scene_inputs()`: the lobby countdown, and the key of everything the scene shows
SceneInputs = tuple[int | None, tuple[Any, ...]]


@dataclass
class Occupant:
    name: str
    present: bool = True
    away_since: float | None = None  # when they were last seen leaving (clock time)
    since: float = 0.0  # when they sat down (clock time)
    bot: bool = False  # a library bot filling the booth (`mcbridge.tables.seat_fill`)
    sword_owed: bool = False  # an emptied world took the sword they got on sitting down


@dataclass
class Outbox:
    """What the table wants said or given; the supervisor sends it with the next write."""

    chat: list[str] = field(default_factory=list)
    private: list[tuple[str, str]] = field(default_factory=list)  # (player, text)
    gives: list[tuple[str, int, int, int]] = field(default_factory=list)  # (player, id, data, count)
    clears: list[Pos] = field(default_factory=list)  # arena-local cells a player filled, to empty
    refresh: list[Pos] = field(default_factory=list)  # cells players changed: rewrite as rendered
    moves: list[tuple[str, Pos]] = field(default_factory=list)  # (player, arena-local spot): teleports
    puts: list[tuple[Pos, Block]] = field(default_factory=list)  # a player's block put back (as the world had it)

    def pending(self) -> bool:
        """Whether anything waits to be sent."""
        return bool(self.chat or self.private or self.gives or self.clears or self.refresh or self.moves or self.puts)

    def drain(self) -> Outbox:
        """What to send, every line within the chat cap (`split_chat`; nothing is cut off).

        [decided here] Public chat is also cut to the chat box, so a reveal reads one seat a
        line; a private reply under the cap stays one message (one answer per command, which
        the client wraps), only its own lines (help) and the cap split it."""
        chat = [line for message in self.chat for line in _split(message)]
        private = [(who, line) for who, message in self.private for line in _split(message, PRIVATE_LINE_PX)]
        out = Outbox(chat, private, self.gives, self.clears, self.refresh, self.moves, self.puts)
        self.chat, self.private, self.gives, self.clears, self.refresh = [], [], [], [], []
        self.moves, self.puts = [], []
        return out


#: `split_chat` results by (message, line width), cleared when full: a plain dict of strings
#: (nothing for the garbage collector to track). Measuring every character of every chat line
#: was most of emptying an outbox, and tables say the same lines again and again.
_SPLIT_LIMIT = 4096
_SPLIT: dict[tuple[str, int, int], tuple[str, ...]] = {}


def _split(message: str, line_px: int = CHAT_LINE_PX, cap: int = CHAT_CAP) -> tuple[str, ...]:
    """`split_chat`, remembered; a short message that needs no measuring (no character is
    wider than `WIDE_PX`, and its spaces are already single) is its own one line."""
    if len(message) * WIDE_PX <= line_px and len(message) <= cap and message and message == " ".join(message.split()):
        return (message,)
    key = (message, line_px, cap)
    lines = _SPLIT.get(key)
    if lines is None:
        if len(_SPLIT) >= _SPLIT_LIMIT:
            _SPLIT.clear()
        lines = _SPLIT[key] = tuple(split_chat(message, line_px, cap))
    return lines


class Table:
    def __init__(
        self,
        arena: Arena,
        journal: Journal,
        clock: Callable[[], float],
        *,
        seed: int | None = None,
        can_give: bool = False,
        can_tell: bool = False,
        can_private: bool = False,
        can_see_placements: bool = False,
        start_delay: float | None = None,
        hold: float | None = None,
        reveal_hold: float = 5.0,
    ) -> None:
        self.arena = arena
        self.journal = journal
        self.clock = clock
        # No seed: every match gets a secret one, so nobody can predict the deals. A seed
        # (tests, the demo) makes the table's matches reproducible, match by match.
        self.seed = seed
        self.can_tell = can_tell
        self.can_private = can_private  # per-player blocks and signs: booths render privately
        self.can_see_placements = can_see_placements  # the server says who placed or broke a block
        self.can_give = can_give
        self.start_delay = arena.lobby.countdown if start_delay is None else start_delay
        self.hold = arena.lobby.hold if hold is None else hold
        self.reveal_hold = reveal_hold  # how long a kit shows a reveal before play goes on
        self.text: Locale = locale(arena.locale)
        self.languages: dict[str, str] = {}  # player -> language chosen with !lang (this table)
        self._locales = {arena.locale: self.text}
        self.game = games.load(arena.game, arena.game_options())
        n = len(arena.seats)
        self.occupants: list[Occupant | None] = [None] * n
        self.state: State | None = None
        self.booths: list[int] = []  # rules seat -> booth index (empty booths are skipped)
        self.match_id: int | None = None
        self.match_seed = 0
        self.seq = 0
        self.outbox = Outbox()
        self.updates = UpdateFeed()
        self._event_texts: dict[tuple[Any, ...], str] = {}  # see `_event_text`
        self.updates.subscribe_inline(self._chat_lines)
        self.deadlines: dict[int, float] = {}
        self._deadline_key: tuple[Any, ...] = ()
        self.last_join = 0.0
        self._told_running: set[tuple[str, int | None]] = set()  # (player, match) told a match is on
        self.notes: dict[int, tuple[int, str]] = {}  # booth -> (seq, text) for its info sign until seq moves
        self.finished = False
        self.finished_at = 0.0
        self.paused = False  # set by `pause.Pauses`: no input, no ticks, no world writes
        self.unseated: set[str] = set()  # players `unseat` keeps away until the match ends
        self._scene_key: tuple[Any, ...] = ()
        self._views_state: State | None = None
        self._views_key: tuple[Any, ...] = ()
        self._public_view: Mapping[str, Any] | None = None
        self._private_views: list[Mapping[str, Any] | None] | None = None
        self._scene = Scene()
        self.kit: Kit = kits.kit_class(arena.game)(self)
        self.bots = SeatFill(self)
        self.hits = self._hit_map()
        self.stats_desk: StatsDesk | None = None  # `!stats`: set by the stats recorder (--db)
        self._resume()

    # -- setup ----------------------------------------------------------------------------
    def _hit_map(self) -> dict[Pos, tuple[str, int, int]]:
        hits: dict[Pos, tuple[str, int, int]] = {}
        for seat in self.arena.seats:
            for cell, (target, slot) in self.kit.hit_targets(seat).items():
                hits[cell] = (target, seat.index, slot)
        return hits

    def _resume(self) -> None:
        """Pick up the arena's unfinished match from the journal, with the options it began with."""
        saved = self.journal.unfinished(self.arena.name)
        if saved is None:
            return
        booths = list(saved.options.get("booths", range(len(saved.players))))
        if saved.game != self.arena.game or max(booths, default=0) >= len(self.arena.seats):
            # the arena file now describes another game or fewer booths: that match cannot go on here
            log.warning(
                "arena %s: match %s (%s, booths %s) does not fit the arena any more (%s, %d booths); "
                "it stays unfinished in the journal and a new match will start",
                self.arena.name, saved.id, saved.game, booths, self.arena.game, len(self.arena.seats),
            )
            return
        self.game = games.load(saved.game, saved.rules_options())
        state = self.game.new_match(saved.players, saved.seed)
        for seat, data in saved.actions:
            state.apply(seat, self.game.action_from_json(data))
        self.state = state
        self.match_id = saved.id
        self.match_seed = saved.seed
        self.seq = len(saved.actions)
        self.booths = booths
        self.occupants = [None] * len(self.arena.seats)
        bots = set(saved.options.get("bots", ()))
        for name, booth in zip(saved.players, self.booths, strict=True):
            self.occupants[booth] = (
                Occupant(name, bot=True) if booth in bots else Occupant(name, present=False, away_since=self.clock())
            )
        log.info("arena %s: resumed match %s at action %s", self.arena.name, saved.id, self.seq)
        self._tell_waiting_after_restart()

    def _tell_waiting_after_restart(self) -> None:
        """Whoever the table waits for hears that it restarted and what it waits for: a
        command read but not journaled before the restart is lost and must be given again."""
        state = self.state
        assert state is not None
        if state.is_over:
            return
        for seat in sorted(state.to_act() - {CHANCE}):
            name = state.players[seat]
            phase = self._phase_text(state.phase, name)
            self.tell(name, self.text_for(name).t("common.restarted", name=name, phase=phase))

    def _phase_text(self, phase: str, name: str) -> str:
        text, key = self.text_for(name), f"{self.game.name}.phase.{phase}"
        return text.t(key) if text.has(key) else phase

    def text_for(self, name: str) -> Locale:
        """The language of what `name` alone is told: theirs if they chose one with `!lang`,
        else the arena's (signs and public chat are always the arena's)."""
        lang = self.languages.get(name, self.arena.locale)
        if lang not in self._locales:
            self._locales[lang] = locale(lang)
        return self._locales[lang]

    def chance_rng(self) -> Rng:
        """The stream of the chance action about to be journaled at `seq` (see match_seeds)."""
        return chance_rng(self.match_seed, self.seq)

    # -- seats ----------------------------------------------------------------------------
    def rules_seat(self, booth: int) -> int | None:
        return self.booths.index(booth) if booth in self.booths else None

    def booth_of(self, seat: int) -> int:
        return self.booths[seat]

    def _is_bot(self, name: str) -> bool:
        return any(o is not None and o.bot and o.name == name for o in self.occupants)

    def booth_of_player(self, name: str) -> int | None:
        """The booth a player sits in (never a bot's: a client that calls itself "BOT 2" is
        not that bot, and cannot click or chat for it)."""
        for i, occ in enumerate(self.occupants):
            if occ and occ.name == name and not occ.bot:
                return i
        return None

    def join(self, booth: int, name: str) -> None:
        current = self.booth_of_player(name)
        if current is not None:
            occ = self.occupants[current]
            assert occ is not None
            self._back(occ, current)
            return
        taken = self.occupants[booth]
        if self.bots.is_bot_name(name):
            self.tell(name, self.text_for(name).t("common.error.bot_name"))
            return
        if self.state is None and taken is not None and taken.bot:
            self.bots.give_up_booth(booth, name)
        elif self.state is not None or taken is not None:
            self.tell(name, self.text_for(name).t("common.error.table_full"))
            return
        self.occupants[booth] = Occupant(name, since=self.clock())
        self.last_join = self.clock()
        self.outbox.chat.append(self.text.t("common.joined", name=name, seat=booth + 1))
        if self.can_give:  # the signs answer only to a sword: hand one to whoever sits down
            self._give_sword(name)

    def _give_sword(self, name: str) -> None:
        self.outbox.gives.append((name, blocks.DIAMOND_SWORD_ITEM, 0, 1))
        self.tell(name, self.text_for(name).t("common.sword_given"))

    def on_world_emptied(self) -> None:
        """The shell probe found the arena gone, and the players' inventories with it: each
        seated person is owed the sword again (handed over once they are back, in
        `on_presence`), and the kit puts back what it handed out. Never on a plain reconnect."""
        for occ in self.occupants if self.can_give else ():
            if occ is not None and not occ.bot:
                occ.sword_owed = True
        self.kit.on_world_emptied()

    def on_presence(self, online: Collection[str], inside: dict[str, Pos]) -> None:
        """Who is online, and where those inside this arena stand (arena-local).

        Walking into a free booth takes the seat; a seated player who is not online is absent
        (the rules' timeouts act for them) until they come back.
        """
        for booth, occ in enumerate(self.occupants):
            if occ is None or occ.bot:
                continue
            if occ.name in online:
                self._back(occ, booth)
                if occ.sword_owed and occ.present:
                    occ.sword_owed = False
                    self._give_sword(occ.name)
            elif occ.present:
                occ.present, occ.away_since = False, self.clock()
                self.outbox.chat.append(self.text.t("common.left", name=occ.name, seat=booth + 1))
        for name, pos in inside.items():
            if self.bots.is_bot_name(name):
                continue  # refused a seat (when it clicks a join sign): not on every cycle it stands there
            mine = self.booth_of_player(name)
            for seat in self.arena.seats:
                occupant = self.occupants[seat.index]
                # between matches a bot's booth hides nothing and a person may walk in to take it
                giving_way = occupant is not None and occupant.bot and self.state is None
                if (occupant is not None and occupant.name != name and not giving_way
                        and seat.booth.cuboid.contains(pos)):
                    self._guard(name, seat.index)
                elif seat.interior.cuboid.contains(pos):
                    # a free booth is taken only before the match; during it, walking into one is
                    # no request to join (which would be refused every cycle the player stands there)
                    occ = self.occupants[seat.index]
                    empty = occ is None or occ.bot  # a bot gives way to a person between matches
                    if (empty and self.state is None) or mine == seat.index:
                        self.join(seat.index, name)
                    elif empty and mine is None and (name, self.match_id) not in self._told_running:
                        self._told_running.add((name, self.match_id))  # once a match, not every cycle
                        self.tell(name, self.text_for(name).t("common.match_running", seat=seat.index + 1))

    def _guard(self, name: str, booth: int) -> None:
        """Booth guard: nobody but its occupant stands in an occupied booth (on a server without
        private blocks the booth's walls are all that hide a hand). Out to the plaza in front."""
        self.outbox.moves.append((name, self._plaza(booth)))
        self.tell(name, self.text_for(name).t("common.guarded", seat=booth + 1))

    def _plaza(self, booth: int) -> Pos:
        """[decided here] The plaza spot: mid-booth, on the floor, three cells in front of the shell."""
        shell = self.arena.seats[booth].booth.cuboid
        return Pos((shell.lo.x + shell.hi.x) // 2, shell.lo.y + 1, shell.lo.z - 3)

    def private_viewers(self) -> list[str | None]:
        """Per booth, who may see its private part: its occupant while online (a bot has no client)."""
        return [o.name if o is not None and o.present and not o.bot else None for o in self.occupants]

    def _back(self, occ: Occupant, booth: int) -> None:
        if not occ.present and occ.name not in self.unseated:
            occ.present, occ.away_since = True, None
            self.outbox.chat.append(self.text.t("common.rejoined", name=occ.name, seat=booth + 1))

    def _away_too_long(self, occ: Occupant | None, now: float) -> bool:
        """Away longer than `timeouts.absent`: the rules act for them at once on their turns
        (and before a match, their seat is freed)."""
        return (
            occ is not None
            and not occ.present
            and occ.away_since is not None
            and now - occ.away_since >= self.arena.timeouts[ABSENT]
        )

    # -- input ----------------------------------------------------------------------------
    def on_hit(self, pos: Pos, name: str) -> bool:
        """A sword right-click at an arena-local position; False if it is not ours."""
        target = self.hits.get(pos)
        if target is None:
            return False
        if self.paused:
            return True  # the pause notice in chat says why nothing happens
        kind, booth, slot = target
        if kind == "join":
            self.join(booth, name)
            return True
        seat = self.rules_seat(booth)
        if self.booth_of_player(name) != booth or self.state is None or seat is None or self.state.is_over:
            return True  # someone else's booth or no match: nothing to do
        action = self.kit.on_click(booth, seat, kind, slot)
        if action is not None:
            self.submit(seat, action)
        return True

    def on_block_change(self, kind: str, pos: Pos, name: str | None, block: Block) -> None:
        """A player (`name`, None if unknown) "placed" or "broke" `block` at an arena-local cell."""
        if self.state is not None:
            self.kit.on_block_change(kind, pos, name, block)

    def on_chat(self, name: str, message: str) -> None:
        text = message.strip()
        if not text.startswith(("!", "！")) or self.paused:
            return
        if is_help(text):
            self._help(name)
            return
        words = normalise(text[:64]).split()
        if words and words[0] in LANGUAGE_WORDS:
            self._set_language(name, words[1:])
            return
        if self.stats_desk is not None and self.stats_desk.ask_if_stats(name, text, self.text_for(name)):
            return  # answered off this thread; tick() tells the lines
        booth = self.booth_of_player(name)
        seat = self.rules_seat(booth) if booth is not None else None
        if seat is None or self.state is None:
            self.tell(name, self.text_for(name).t("common.error.not_seated"))
            return
        try:
            action = self.kit.parse_chat(seat, text)
        except IllegalAction as exc:
            self._refuse(name, exc)
            return
        self.submit(seat, action)

    def _help(self, name: str) -> None:
        """`!help`: the goal, what to do now and the commands (`Locale.help`), in the asker's
        language. [decided here] "Now" is the phase's advice for a player the rules wait
        for (or when only the table acts: dealing, revealing); anyone else hears "wait"."""
        state, text, game = self.state, self.text_for(name), self.game.name
        phase = "lobby" if state is None else state.phase
        booth = self.booth_of_player(name)
        seat = self.rules_seat(booth) if booth is not None else None
        if state is not None and seat not in state.to_act() and state.to_act() - {CHANCE}:
            phase = "other"
        lines = text.help(game, phase, **self.kit.help_fields())
        self.tell(name, "\n".join(lines) or text.t(f"{game}.help", **self.kit.help_fields()))

    def _set_language(self, name: str, args: Sequence[str]) -> None:
        """`!lang ja` / `!言語 en`: that player's private messages and help in that language."""
        lang = LANGUAGE_NAMES.get(args[0]) if len(args) == 1 else None
        if lang is None:
            current = self.languages.get(name, self.arena.locale)
            self.tell(name, self.text_for(name).t("common.language_usage", lang=current))
            return
        self.languages[name] = lang
        self.tell(name, self.text_for(name).t("common.language_set"))

    def submit(self, seat: int, action: Action) -> list[Event]:
        """Apply through the rules; journal; publish. Refusals go back to the player."""
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
        self.updates.publish(
            TableUpdate(self.arena.name, self.match_id, self.seq - 1, seat, tuple(events), self.public_view() or {})
        )
        self.kit.on_applied(seat, action, events, self.clock())
        return events

    def _chat_lines(self, update: TableUpdate) -> None:
        """The chat subscriber: every event the kit does not keep quiet, in the table's language."""
        assert self.state is not None
        players, numbers = tuple(self.state.players), tuple(self._numbers())
        for event in update.events:
            if not isinstance(event, self.kit.quiet_events):
                self.outbox.chat.append(self._event_text(event, players, numbers))

    def _event_text(self, event: Event, players: tuple[str, ...], numbers: tuple[int, ...]) -> str:
        """`Locale.event`, remembered per table (its language and game are fixed): a match says
        the same events again and again (each deal, each reveal's count), and formatting
        them was the largest part of a submit. An event that cannot be a key is formatted."""
        key = (self.game.name, event, players, numbers)
        try:
            text = self._event_texts.get(key)
        except TypeError:  # unhashable fields: never remembered
            return self.text.event(self.game.name, event, players, numbers)
        if text is None:
            if len(self._event_texts) >= _SPLIT_LIMIT:
                self._event_texts.clear()
            text = self._event_texts[key] = self.text.event(self.game.name, event, players, numbers)
        return text

    def _refuse(self, name: str, exc: IllegalAction) -> None:
        players = self.state.players if self.state else []
        text = self.text_for(name).refusal(self.game.name, exc, players, self._numbers())
        booth = self.booth_of_player(name)
        if exc.code not in self.kit.private_refusals or self.can_tell or booth is None:
            self.tell(name, text)
            return
        # it tells hidden state and there is no private message: the booth's info sign shows it
        # (until the next action), public chat only that it was refused
        self.notes[booth] = (self.seq, text)
        self.outbox.chat.append(f"@{name}: {self.text_for(name).t('common.refused_see_booth')}")

    def _numbers(self) -> list[int]:
        """How people know the seats: by booth number, which a rules seat need not equal."""
        return [b + 1 for b in self.booths]

    def tell(self, name: str, text: str) -> None:
        """To one player: privately where the server can, else in chat addressed to them
        (every line of a long text addressed, each still within the chat box and the cap)."""
        if self._is_bot(name):
            return
        if self.can_tell:
            self.outbox.private.append((name, text))
            return
        to = f"@{name}: "
        for line in _split(text, CHAT_LINE_PX - text_px(to), CHAT_CAP - len(to)):
            self.outbox.chat.append(to + line)

    # -- time -----------------------------------------------------------------------------
    def tick(self) -> None:
        if self.paused:
            return
        now = self.clock()
        if self.stats_desk is not None:
            for player, lines in self.stats_desk.answers():
                for line in lines:
                    self.tell(player, line)
        if self.state is None:
            self._maybe_start(now)
            return
        if self.state.is_over:
            self._finish(now)
            if now - self.finished_at >= self.hold:
                self._reset()
            return
        self._run_chance(now)
        self.bots.play(now)
        self._timeouts(now)

    def _enough_seated(self) -> bool:
        return sum(1 for o in self.occupants if o) >= self.game.player_range[0]

    def lobby_countdown(self, now: float) -> int | None:
        """Whole seconds before the next match starts, while enough players sit."""
        if self.state is not None or not self._enough_seated():
            return None
        return max(0, math.ceil(self.start_delay - (now - self.last_join)))

    def _maybe_start(self, now: float) -> None:
        for booth, occ in enumerate(self.occupants):
            if occ is not None and self._away_too_long(occ, now):
                self.occupants[booth] = None  # gone before the match began: free the booth
        self.bots.lobby(now)
        seated = [o.name for o in self.occupants if o]
        full = self.bots.people() == len(self.occupants)  # early only for people: bots give way in the countdown
        if self._enough_seated() and (full or now - self.last_join >= self.start_delay):
            self.booths = [i for i, o in enumerate(self.occupants) if o]
            seed = match_seed(self.seed, self.arena.name, self.journal.count(self.arena.name))
            self.game = games.load(self.arena.game, self.arena.game_options())
            self.state = self.game.new_match(seated, seed)
            options = {**self.game.options, "booths": self.booths}
            bots = [i for i, o in enumerate(self.occupants) if o and o.bot]
            if bots:
                options["bots"] = bots
            self.match_id = self.journal.start_match(self.arena.name, self.game.name, options, seated, seed)
            self.match_seed = seed
            self.seq = 0
            self.finished = False

    def _run_chance(self, now: float) -> None:
        state = self.state
        assert state is not None
        while CHANCE in state.to_act() and not state.is_over:
            action = self.kit.chance(now)
            if action is None:
                return
            if not self.submit(CHANCE, action) and CHANCE in state.to_act():
                return  # refused (logged): never spin on it

    def _timeouts(self, now: float) -> None:
        state = self.state
        assert state is not None
        waiting = sorted(s for s in state.to_act() if s != CHANCE)
        key = (state.phase, tuple(waiting), self.kit.decision_key())
        if key != self._deadline_key:
            self._deadline_key = key
            limit = self.arena.timeouts.get(state.phase, math.inf)
            self.deadlines = {s: now + limit for s in waiting}
            for s in waiting:
                self.kit.on_decision(s)
        for seat, deadline in list(self.deadlines.items()):
            occ = self.occupants[self.booth_of(seat)]
            if (now >= deadline or self._away_too_long(occ, now)) and seat in state.to_act():
                self.outbox.chat.append(self.text.t("common.timeout", name=occ.name if occ else seat))
                self.submit(seat, state.timeout_action(seat))
                self.deadlines.pop(seat, None)

    def _finish(self, now: float) -> None:
        if self.finished or self.state is None or self.match_id is None:
            return
        self.finished = True
        self.finished_at = now
        result = rules_view.result_json(self.state)
        self.journal.finish(self.match_id, result)
        game = self.game.name
        self.outbox.chat.append(self.text.t(f"{game}.standings_title"))
        for row in result.get("standings", []):
            self.outbox.chat.append(self.text.t("common.standings", **row, score=self.kit.score_text(row)))
            if self._is_bot(row["name"]):
                continue  # bots win no prizes
            prize = self._prize(row)
            if prize["count"] and self.can_give:
                item = PRIZE_ITEMS.get(prize["item"], (264, 0))
                self.outbox.gives.append((row["name"], item[0], item[1], prize["count"]))
            if prize["count"]:
                self.outbox.chat.append(
                    self.text.t(f"{game}.prize_given", name=row["name"], count=prize["count"], item=prize["item"])
                )

    def _prize(self, row: Mapping[str, Any]) -> dict[str, Any]:
        """The rules' prize for a standings row, or the arena's by rank when the rules give none."""
        if "prize" in row:
            return dict(row["prize"])
        prize = self.arena.prize
        return {"item": prize["item"], "count": prize["winner"] if row.get("rank") == 1 else prize["others"]}

    def _reset(self) -> None:
        """Back to the lobby: those who left lose their booth, those who stay keep it."""
        for booth, occ in enumerate(self.occupants):
            if occ is not None and not occ.present:
                self.occupants[booth] = None
        self.state = None
        self.match_id = None
        self.booths = []
        self.seq = 0
        self.deadlines = {}
        self._deadline_key = ()
        self.finished = False
        self.last_join = self.clock()  # the countdown starts afresh for whoever stayed
        self._told_running.clear()
        self.notes.clear()
        self.unseated.clear()
        self.kit.on_reset()

    # -- operator actions (the web console) ------------------------------------------------
    def reset_match(self, reason: str) -> bool:
        """Abandon the match and go back to the lobby, as a finished match does after its
        hold: the players keep their booths, those who left lose theirs. An unfinished match
        is journaled as finished with no standings (nobody wins an abandoned match: no
        prizes, nothing to rate) and `aborted: reason`. False when there is no match."""
        if self.state is None:
            return False
        if not self.finished and self.match_id is not None:
            self.journal.finish(self.match_id, {"standings": [], "aborted": reason})
            self.outbox.chat.append(self.text.t("common.match_reset"))
        log.info("arena %s: match %s reset (%s)", self.arena.name, self.match_id, reason)
        self._reset()
        return True

    def unseat(self, booth: int, reason: str) -> str | None:
        """Take a player out of their booth; the name, or None when nobody sits there.

        Before a match the booth is free at once and the player stands on the plaza. During
        one they count as gone for good, the runtime's own way for a player who left and
        stayed away past `timeouts.absent`: the rules act for them at once, coming back does
        not bring them back, and the booth is freed when the match ends."""
        occ = self.occupants[booth] if 0 <= booth < len(self.occupants) else None
        if occ is None:
            return None
        seat = booth + 1
        if self.state is None:
            self.occupants[booth] = None
            if not occ.bot:
                self.outbox.moves.append((occ.name, self._plaza(booth)))
            self.outbox.chat.append(self.text.t("common.unseated_lobby", name=occ.name, seat=seat))
        else:
            occ.present, occ.away_since = False, -math.inf
            self.unseated.add(occ.name)
            self.outbox.chat.append(self.text.t("common.unseated", name=occ.name, seat=seat))
        log.info("arena %s: %s unseated from booth %s (%s)", self.arena.name, occ.name, seat, reason)
        return occ.name

    # -- world reads ----------------------------------------------------------------------
    def reads_wanted(self) -> dict[ReadKey, Sequence[Pos]]:
        return self.kit.reads_wanted() if self.state is not None and not self.paused else {}

    def on_reads(self, results: dict[ReadKey, list[Block]]) -> None:
        self.kit.on_reads(results)

    # -- output ---------------------------------------------------------------------------
    def scene_inputs(self) -> SceneInputs:
        """The lobby countdown and everything the scene shows: the scene is rendered again
        only when this changes. The supervisor takes it once per table per write and hands it
        to `scene_changed` and `scene` (it was computed twice, for both)."""
        countdown = self.lobby_countdown(self.clock())
        return countdown, (
            self.match_id,
            self.seq,
            countdown,
            self.finished,
            tuple(o.name if o else None for o in self.occupants),
            self.kit.scene_key(),
            tuple(self._notes()),
            self.stats_desk.board if self.stats_desk else (),
        )

    def scene_changed(self, shown: Scene | None, inputs: SceneInputs | None = None) -> bool:
        """Whether `scene()` would differ from `shown` (the scene the world was last given):
        as cheap as the cache check, so the supervisor can defer a change before rendering it
        (`mcbridge.tables.write_budget`). `inputs`: `scene_inputs()` taken just now."""
        return shown is not self._scene or (inputs or self.scene_inputs())[1] != self._scene_key

    def scene(self, inputs: SceneInputs | None = None) -> Scene:
        """The desired world; rendered again only when something it shows has changed, since
        the supervisor asks every table every cycle and most cycles change nothing.
        `inputs`: `scene_inputs()` taken just now, with nothing changed since."""
        countdown, key = inputs or self.scene_inputs()
        if key != self._scene_key:
            scene = self.kit.render(self.view(countdown))
            notes = [self._note_part(booth, text) for booth, text in self._notes()]
            if self.stats_desk is not None and self.stats_desk.board:
                notes.append(self.stats_desk.wall_part())
            self._scene_key, self._scene = key, Scene.of_parts([*(scene.parts or (scene,)), *notes]) if notes else scene
        return self._scene

    def _notes(self) -> list[tuple[int, str]]:
        return [(booth, text) for booth, (seq, text) in sorted(self.notes.items()) if seq == self.seq]

    def _note_part(self, booth: int, text: str) -> Scene:
        """A refusal for the booth's info sign, private to the booth."""
        spot = self.arena.seats[booth].signs["info"]
        lines = [*split_chat(text, SIGN_LINE_PX, SIGN_LINE_CHARS)[:4], "", "", ""]
        return Scene({spot.at: wall_sign(spot.faces)}, {spot.at: (lines[0], lines[1], lines[2], lines[3])}, booth=booth)

    def _fresh_views(self) -> State | None:
        """Drop the views when the match moved. A state changes only by `submit` (which
        moves `seq`), so each view is computed once per (match, seq): the update `submit`
        publishes and the render after it share the public view, and a render for a draft, a
        countdown or a note reuses them all."""
        state = self.state
        key = (self.match_id, self.seq)
        if state is not self._views_state or key != self._views_key:
            self._views_state, self._views_key = state, key
            self._public_view, self._private_views = None, None
        return state

    def public_view(self) -> Mapping[str, Any] | None:
        state = self._fresh_views()
        if self._public_view is None and state is not None:
            self._public_view = state.view(None)
        return self._public_view

    def _booth_views(self) -> list[Mapping[str, Any] | None]:
        """Each booth's private view (None for a booth without a rules seat)."""
        state = self._fresh_views()
        if self._private_views is None:
            self._private_views = [None] * len(self.arena.seats)
            for s, booth in enumerate(self.booths if state is not None else ()):
                assert state is not None
                self._private_views[booth] = state.view(s)
        return self._private_views

    def view(self, countdown: int | None = None) -> TableView:
        public, private = self.public_view(), self._booth_views()
        n = len(self.arena.seats)
        return TableView(
            arena=self.arena,
            text=self.text,
            public=public,
            private=private,
            occupants=[o.name if o else None for o in self.occupants],
            seat_of_booth=[self.rules_seat(b) for b in range(n)],
            lobby_countdown=countdown,
            holding=self.finished,
        )
