"""Which tables' output goes into this cycle's write: input first, bulk spread out.

Why: a click is seen by one cycle's poll and shown by the next cycle's write, so anything
that makes that write late (rendering, reconciling and encoding every table's changes)
makes every click late. Most of a busy cycle's writes answer nobody's input: a table
resetting its scene after a match, dealing the next round, its lobby countdown, a bot's
move. When many tables do that in the same cycle (they finish together, they reset
together) one write held 400-800 commands and the clicks waited behind it.

So a table with fresh input this cycle (a click, a chat line, a block placed or broken, a
seat taken or left) or that reads the world this cycle (its reads must see its scene
drawn) always writes at once. A table whose scene changed without input writes while the
cycle's bulk allowance (`BULK_WRITES` commands) lasts, the longest-waiting first; the
others wait, and a table never waits more than `MAX_WAIT` cycles. A deferred table's
output waits as a whole (its chat with its scene, so chat never runs ahead of the world);
its journal does not: rules, journal and resume never depend on when the world shows them.

[decided here] The allowance is counted in commands after each table is written, so one
table may go over it by its own size (never split a table's scene across writes: half a
reset is a wrong picture); 120 commands is about one Wool Bluff reset, and what a cycle at
50 tables wrote on average for bulk work, so a burst is spread over the next few cycles
instead of landing on one. 8 cycles is 0.4 s at 20 TPS: a deal or a reset shows late by
at most that much, and only when many tables have one at once.
"""

from __future__ import annotations

from collections.abc import Collection

#: Commands per cycle for tables that changed without input (see the module docstring).
BULK_WRITES = 120
#: Cycles at most that a table's changed output waits for the allowance.
MAX_WAIT = 8


class WriteBudget:
    """The allowance of one cycle's write, and the tables waiting for it (by index)."""

    def __init__(self, bulk_writes: int = BULK_WRITES, max_wait: int = MAX_WAIT) -> None:
        self.bulk_writes = bulk_writes
        self.max_wait = max_wait
        self.waiting: dict[int, int] = {}  # table index -> the cycle since which its output waits
        self.cycle = 0
        self.spent = 0

    def start(self, cycle: int) -> None:
        """A new cycle's write: the allowance is full again."""
        self.cycle = cycle
        self.spent = 0

    def order(self, count: int, urgent: Collection[int]) -> list[int]:
        """Tables in the order they write: with input first, then the longest waiting, then the
        rest by index (deterministic: the same inputs give the same writes)."""
        first = sorted(i for i in urgent if 0 <= i < count)
        waiting = sorted((since, i) for i, since in self.waiting.items() if i not in urgent)
        placed = {*first, *(i for _, i in waiting)}
        return [*first, *(i for _, i in waiting), *(i for i in range(count) if i not in placed)]

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
