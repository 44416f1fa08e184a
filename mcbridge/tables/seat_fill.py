"""Library bots in empty booths, so a player alone on the server can play every game.

With the arena's `bots: {fill: true, after: 30, think: 1}`, once at least one person sits
and has waited `after` seconds in the lobby, a bot (the game's own `game.bot()` policy)
takes every free booth. Its name ("BOT 3" / "ボット3", with the booth number) is what the
seat signs, the board and the standings show, so a bot's seat is marked wherever a seat is;
it cannot be a Minecraft player's name (those have no spaces or kana), a client that calls
itself so anyway is refused a seat, and the table tells bots from people by a flag on the
occupant: nobody can click or chat for a bot.

A bot plays through the table's own action path (`Table.submit`: checked by the rules,
journaled, published) `think` seconds after its decision comes up, choosing from its own
seat's view with a stream derived from (match seed, seat, journal position), so a resumed
match plays on exactly as it would have. Between matches a person takes a bot's booth by
sitting down in it (walk in or click its join sign) and the bot leaves; when no person is
left seated, the bots leave too. A match is only started early (before the lobby countdown)
when every booth holds a person, so there is always a countdown in which to take a bot's seat.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcbridge.core import CHANCE, Rng

if TYPE_CHECKING:
    from mcbridge.tables.table import Table


class SeatFill:
    """The bots of one table: when they sit down, when they leave, when and what they play."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.settings = table.arena.bots
        #: rules seat -> (the decision it faces, when it came up)
        self._since: dict[int, tuple[tuple[int | None, int], float]] = {}
        self._names_of: object = None  # the texts `_names` were formatted with
        self._names: frozenset[str] = frozenset()

    def name(self, booth: int) -> str:
        return self.table.text.t("common.bot_name", seat=booth + 1)

    def is_bot_name(self, name: str) -> bool:
        """Whether `name` is one a bot of this table takes (kept from people). Asked for
        everyone standing in the arena whenever presence is told: the names are formatted
        once per language of the table's texts, not on every ask."""
        text = self.table.text
        if self._names_of is not text:
            self._names_of = text
            self._names = frozenset(self.name(booth) for booth in range(len(self.table.arena.seats)))
        return name in self._names

    def people(self) -> int:
        return sum(1 for o in self.table.occupants if o is not None and not o.bot)

    def lobby(self, now: float) -> None:
        """Before a match: bots take the free booths once a person has waited long enough,
        and leave when nobody is left for them to play with."""
        from mcbridge.tables.table import Occupant

        table = self.table
        occupants = table.occupants
        if not self.people():
            for booth, occ in enumerate(occupants):
                if occ is not None and occ.bot:
                    occupants[booth] = None
                    table.outbox.chat.append(table.text.t("common.bot_leaves", name=occ.name, seat=booth + 1))
            return
        if not self.settings.fill or None not in occupants:
            return
        waiting = [o.since for o in occupants if o is not None and not o.bot and o.present]
        if not waiting or now - min(waiting) < self.settings.after:
            return
        for booth, occ in enumerate(occupants):
            if occ is None:
                occupants[booth] = Occupant(self.name(booth), bot=True)
                table.outbox.chat.append(table.text.t("common.bot_joined", name=self.name(booth), seat=booth + 1))

    def give_up_booth(self, booth: int, to: str) -> None:
        """A person sits down in a bot's booth between matches: the bot leaves it."""
        table = self.table
        occ = table.occupants[booth]
        assert occ is not None and occ.bot and table.state is None
        table.occupants[booth] = None
        table.outbox.chat.append(table.text.t("common.bot_gives_way", name=occ.name, seat=booth + 1, player=to))

    def play(self, now: float) -> None:
        """In a match: each bot whose decision has been up `think` seconds makes it."""
        table = self.table
        state = table.state
        assert state is not None
        for seat in sorted(state.to_act() - {CHANCE}):
            occ = table.occupants[table.booth_of(seat)]
            if occ is None or not occ.bot:
                continue
            decision = (table.match_id, table.seq)
            seen, since = self._since.get(seat, (None, now))
            if seen != decision:
                self._since[seat] = (decision, now)
                since = now
            if now - since < self.settings.think or state.is_over or seat not in state.to_act():
                continue
            rng = Rng.derived(table.match_seed, "table-bot", seat, table.seq)
            table.submit(seat, table.game.bot().choose(state.view(seat), state.legal_actions(seat), rng))
