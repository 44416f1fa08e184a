"""The garbage collector's settings for a controller process (`mcbridge run`).

Why: CPython's cyclic collector runs a full collection, walking every tracked object, every
few dozen young collections. A controller holds the code, locales, arenas and kits of every
table (tens of thousands of objects that live as long as the process) and allocates
thousands of short-lived objects per cycle (commands, replies, views), so at 50 active
tables full collections came every few seconds and took 50-200 ms: the slowest cycles of
bench/tables.py were mostly the collector (its "gc" figure per cycle).

`settle()` is called once the tables are built: it collects once, then freezes what is
alive (the collector never walks those objects again; they were going to live as long as
the process anyway), and raises the young-generation threshold so young collections come
less often, each still small. Garbage made later is collected as before: nothing frozen is
freed early, nothing later is left uncollected.

[decided here] Only the application calls it (process-wide state is the program's choice,
not a library's): `mcbridge run` and the bench's controller, which stands for it.
"""

from __future__ import annotations

import gc

#: Allocations (minus deallocations) of tracked objects between young collections; CPython's
#: default is 700, about a tenth of what one busy cycle at 50 tables allocates.
YOUNG_THRESHOLD = 20_000


def settle() -> None:
    """Collect now, freeze the survivors, and make young collections rarer."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
