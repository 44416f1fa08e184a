"""Which tables' output goes into this cycle's write: input first, bulk spread out.

Why: a click is seen by one cycle's poll and shown by the next cycle's write, so anything
that makes that write late (rendering, reconciling and encoding every table's changes)
makes every click late. Most of a busy cycle's writes answer nobody's input: a table
resetting its scene after a match, dealing the next round, its lobby countdown, a bot's
move. When many tables do that in the same cycle (they finish together, they reset
together) one write held 400-800 commands and the clicks waited behind it.

So a table with fresh input this cycle (a click, a chat line, a block placed or broken, a
seat taken or left) writes at once (see the two ranks below). A table whose scene changed
without input writes while the cycle's bulk allowance (`BULK_WRITES` commands) lasts, the
longest-waiting first; the others wait, and a table never waits more than `MAX_WAIT` cycles. A deferred table's
output waits as a whole (its chat with its scene, so chat never runs ahead of the world);
its journal does not: rules, journal and resume never depend on when the world shows them.

[decided here] The allowance is counted in commands after each table is written, so one
table may go over it by its own size (never split a table's scene across writes: half a
reset is a wrong picture); 120 commands is about one Wool Bluff reset, and what a cycle at
50 tables wrote on average for bulk work, so a burst is spread over the next few cycles
instead of landing on one. 8 cycles is 0.4 s at 20 TPS: a deal or a reset shows late by
at most that much, and only when many tables have one at once.

Input has two ranks (issue 12 item 7). A click answers the one who clicked, on the sign they
look at: a table clicked this cycle writes at once, always. Other input (a chat command, a
seat taken, a block placed) writes at once while the cycle's input allowance
(`INPUT_WRITES` commands) lasts; past it, a table's output goes out right behind, in the
write the shell prepares while this one is in flight (`SupervisorProtocol.background`), one
tick later. Why: at 50 busy tables, 40-80 chat commands land in one cycle, and rendering
every table they changed before sending the write (20-35 ms) made that write miss the tick,
and with it every click it carried and the next cycle's polls. [decided here] 160 commands
is about 12 Wool Bluff tables answering a bid (5 ms of rendering); the tables past it are
taken in turn (their order rotates each cycle), so no table is always the one a tick late.
"""

from __future__ import annotations

from collections.abc import Collection

#: Commands per cycle for tables that changed without input (see the module docstring).
BULK_WRITES = 120
#: Cycles at most that a table's changed output waits for the allowance.
MAX_WAIT = 8
#: Commands per cycle for tables with input other than a click (see the module docstring).
INPUT_WRITES = 160


class WriteBudget:
    """The allowance of one cycle's write, and the tables waiting for it (by index)."""

    def __init__(self, bulk_writes: int = BULK_WRITES, max_wait: int = MAX_WAIT,
                 input_writes: int = INPUT_WRITES) -> None:
        self.bulk_writes = bulk_writes
        self.max_wait = max_wait
        self.input_writes = input_writes
        self.waiting: dict[int, int] = {}  # table index -> the cycle since which its output waits
        self.cycle = 0
        self.spent = 0
        self.input_spent = 0

    def start(self, cycle: int) -> None:
        """A new cycle's write: the allowances are full again."""
        self.cycle = cycle
        self.spent = 0
        self.input_spent = 0

    def order(self, count: int, urgent: Collection[int], soon: Collection[int] = ()) -> list[int]:
        """Tables in the order they write: the urgent (clicked, rebuilt) first, then those with
        other input (`soon`, by index from a place among them that moves each cycle), then the
        longest waiting, then the rest by index (deterministic: the same inputs give the same
        writes)."""
        first = sorted(i for i in urgent if 0 <= i < count)
        second = sorted({i for i in soon if 0 <= i < count} - set(first))
        if second:  # each in turn first: over as many cycles, each of them leads once
            shift = self.cycle % len(second)
            second = second[shift:] + second[:shift]
        placed = {*first, *second}
        waiting = sorted((since, i) for i, since in self.waiting.items() if i not in placed)
        placed.update(i for _, i in waiting)
        return [*first, *second, *(i for _, i in waiting), *(i for i in range(count) if i not in placed)]

    def input_room(self) -> bool:
        """Whether a table with input (not a click) may still write in this cycle's write."""
        return self.input_spent < self.input_writes

    def spend_input(self, commands: int) -> None:
        self.input_spent += commands

    def admit(self, index: int, urgent: bool) -> bool:
        """Whether a table whose output changed writes in this cycle; if not, it waits."""
        since = self.waiting.get(index)
        if urgent or self.spent < self.bulk_writes or (since is not None and self.cycle - since >= self.max_wait):
            self.waiting.pop(index, None)
            return True
        if since is None:
            self.waiting[index] = self.cycle
        return False

    def spend(self, commands: int, urgent: bool) -> None:
        """A table wrote `commands`; only bulk (not urgent) writes count against the allowance."""
        if not urgent:
            self.spent += commands
