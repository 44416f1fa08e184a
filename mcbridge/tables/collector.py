"""The garbage collector's settings for a controller process (`mcbridge run`).

Why: CPython's cyclic collector runs a full collection, walking every tracked object, every
few dozen young collections. A controller holds the code, locales, arenas and kits of every
table (tens of thousands of objects that live as long as the process) and allocates
thousands of short-lived objects per cycle (commands, replies, views), so at 50 active
tables full collections came every few seconds and took 50-200 ms: the slowest cycles of
bench/tables.py were mostly the collector (its "gc" figure per cycle).

`settle()` is called once the tables are built: it collects once, then freezes what is
alive (the collector never walks those objects again; they were going to live as long as
the process anyway), raises the young-generation threshold so young collections come less
often, each still small, and makes full collections ten times rarer (each still walks the
matches in play: 50k objects, about 30 ms of CPU on the shared bench machine, so at the
default rate they alone made the slowest 1% of cycles). Garbage made later is collected as
before, cycles among old objects a few seconds later: nothing frozen is freed early,
nothing later is left uncollected.

[decided here] Only the application calls it (process-wide state is the program's choice,
not a library's): `mcbridge run` and the bench's controller, which stands for it.
"""

from __future__ import annotations

import gc

#: Allocations (minus deallocations) of tracked objects between young collections; CPython's
#: default is 700, about a tenth of what one busy cycle at 50 tables allocates.
YOUNG_THRESHOLD = 20_000
#: Middle-generation collections between full ones (CPython's default: 10); at 50 busy tables
#: a full collection then comes about every 20 s.
OLD_THRESHOLD = 100


def settle() -> None:
    """Collect now, freeze the survivors, and make young collections rarer."""
    gc.collect()
    gc.freeze()
    _, middle, _ = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, OLD_THRESHOLD)


def collect_ahead() -> None:
    """Run now the middle (or full) collection that the next young collection would cascade
    into, once the young generation is half full: `mcbridge run` calls it while a batch is
    in flight (the supervisor's `while_waiting`), so the costly collections land in the wait
    for the server's tick instead of on a click's path. Young collections (cheap) are left to
    the collector: running them early made more of them and more survivors (measured at 50
    mixed tables: the collector's CPU per cycle went from 0.9 to 7.2 ms). The same
    generations as the thresholds would run, a little earlier.

    A full collection that is due runs at once, however empty the young generation: a busy
    cycle allocates more than half a young generation between two waits, so waiting for
    half let the full collection (40-50 ms at 50 mixed tables) cascade on a click's path; it
    comes once in a hundred middle collections, so running it a little early costs nothing."""
    young, middle, old = gc.get_threshold()
    allocated, middles, fulls = gc.get_count()
    if middles < middle - 1:
        return  # the next young collection stays young
    if fulls >= old - 1:
        gc.collect(2)
    elif allocated >= young // 2:
        gc.collect(1)
