"""The garbage collector's settings for a controller process (`mcbridge run`).

Why: CPython's cyclic collector runs a full collection, walking every tracked object, every
few dozen young collections. A controller holds the code, locales, arenas and kits of every
table (tens of thousands of objects that live as long as the process) and allocates
thousands of short-lived objects per cycle (commands, replies, views), so at 50 active
tables full collections came every few seconds and took 50-200 ms: the slowest cycles of
bench/tables.py were mostly the collector (its "gc" figure per cycle).

`settle()` is called once the tables are built: it collects once, then freezes what is
alive (the collector never walks those objects again; they were going to live as long as
the process anyway), and makes full collections ten times rarer (each still walks the
matches in play: 50k objects, about 30 ms of CPU on the shared bench machine, so at the
default rate they alone made the slowest 1% of cycles). From then on `collect_ahead` runs
the collections, in the supervisor's wait for the server's tick; the collector's own young
threshold stays, ten times higher, as a safety net for a program that stops waiting.
Garbage made later is collected as before, cycles among old objects a few seconds later:
nothing frozen is freed early, nothing later is left uncollected.

[decided here] Only the application calls it (process-wide state is the program's choice,
not a library's): `mcbridge run` and the bench's controller, which stands for it.
"""

from __future__ import annotations

import gc

#: Allocations (minus deallocations) of tracked objects between young collections (CPython's
#: default is 700). [decided here] Small enough that every collection fits in a wait: at 50
#: busy mixed tables, at 20,000 a young collection took 20-30 ms and a middle one 57-71 ms
#: (wall, on the shared 2-core machine), more than the wait left; at 5,000, 5-16 and 8-14 ms.
#: The price: the collector's CPU per cycle went from 0.6 to 2.1 ms.
YOUNG_THRESHOLD = 5_000
#: The collector's own young threshold after `settle`: a safety net. `collect_ahead` runs
#: the young collections in the wait, at `YOUNG_THRESHOLD`; the supervisor leaves it out of
#: a cycle whose replies are already in (no wait left), and the collector itself steps in
#: if that goes on for this much (measured at 50 mixed tables: a net at 4x this, 200,000,
#: let the skipped collections pile into larger ones, and clicks came a tick late more often).
SAFETY_THRESHOLD = 10 * YOUNG_THRESHOLD
#: Middle-generation collections between full ones (CPython's default: 10); at 50 busy tables
#: a full collection then comes about every 20 s.
OLD_THRESHOLD = 100


def settle() -> None:
    """Collect now, freeze the survivors, and leave the collections to `collect_ahead`."""
    gc.collect()
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(SAFETY_THRESHOLD, middle, OLD_THRESHOLD)


def collect_ahead() -> None:
    """Run the collection the collector would run next, now, if it is due: `mcbridge run`
    calls it while a batch is in flight (the supervisor's `while_waiting`), so every
    collection lands in the wait for the server's tick instead of on a click's path.

    The same generations at the same counts as the collector's own thresholds
    (`YOUNG_THRESHOLD` allocations; a middle collection every `middle` young ones, a full one
    every `OLD_THRESHOLD` middle ones), only always here. Why not just ahead of the costly
    ones: a busy cycle at 50 tables allocates more than a young generation between two waits,
    so the collector's own young collections came on the path and, once in ten, cascaded into
    a middle or full one there (a full one is 15-40 ms at 50 tables). Running young collections
    earlier than due made more of them and more survivors (at 50 mixed tables the collector's
    CPU per cycle went from 0.9 to 7.2 ms): they run when due, not before.

    A full collection that is due runs at once, however empty the young generation (it comes
    once in a hundred middle collections: a little early costs nothing)."""
    _, middle, old = gc.get_threshold()
    allocated, middles, fulls = gc.get_count()
    if middles >= middle - 1 and fulls >= old - 1:
        gc.collect(2)
    elif allocated >= YOUNG_THRESHOLD:
        gc.collect(1 if middles >= middle - 1 else 0)
