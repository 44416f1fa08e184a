"""World I/O on both servers side by side: the embedded world and flying-squid, in one run.

The same [WORLD] cases as bench/world_io.py (reading Wool Bluff's eight walls, writing 10,000
blocks; stock mcpi versus the pipelined connection) run against the embedded world at 20 TPS
and against the real Minecraft server (flying-squid with the RaspberryJuice bridge). Both
servers run RaspberryJuice's tick model, so a query costs about one tick on either; the table
shows how close the real server comes. Prints a table; never fails on timing.

    python bench/server_io.py
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from world_io import TPS, Row, measure

KINDS = ("embedded", "flying-squid")


def print_side_by_side(title: str, embedded: list[Row], squid: list[Row]) -> None:
    print(f"\n{title}")
    print(
        f"{'case':<52}{'embedded s':>11}{'ticks':>7}{'squid s':>10}{'ticks':>7}"
        f"{'squid/emb':>11}{'speed-up e/s':>14}"
    )
    for e, s in zip(embedded, squid, strict=True):
        e_ticks = f"{e.ticks:.0f}" if e.exact_ticks else f"~{e.ticks:.0f}"
        s_ticks = f"{s.ticks:.0f}" if s.exact_ticks else f"~{s.ticks:.0f}"
        ratio = s.seconds / e.seconds if e.seconds else float("inf")
        e_gain = embedded[0].seconds / e.seconds if e.seconds else float("inf")
        s_gain = squid[0].seconds / s.seconds if s.seconds else float("inf")
        print(
            f"{e.case:<52}{e.seconds:>11.3f}{e_ticks:>7}{s.seconds:>10.3f}{s_ticks:>7}"
            f"{ratio:>10.2f}x{e_gain:>7.1f}/{s_gain:<6.1f}"
        )


def main() -> None:
    results = {kind: measure(kind) for kind in KINDS}
    (e_reads, e_writes), (s_reads, s_writes) = results["embedded"], results["flying-squid"]
    print_side_by_side("Reading 4 wool walls + 4 torch walls (10 blocks each)", e_reads, s_reads)
    print_side_by_side("Writing 10000 blocks, confirmed", e_writes, s_writes)
    print(
        f"\nembedded at {TPS} TPS (ticks counted); flying-squid bridge ticks every 50 ms (ticks ~ "
        "derived from seconds). squid/emb = time on flying-squid / time on embedded; speed-up "
        "= each server's own first row / this row."
    )


if __name__ == "__main__":
    main()
