"""Golden transcripts: one bot match per game and ruleset, pinned byte for byte in tests/golden/.

Run as a script (`make golden`) to write the files again after a deliberate rules change;
review the diff like code. The test in test_golden_transcripts.py only compares.
"""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))  # run as a script: find contract.py beside us

from contract import VARIANTS, Variant

from mcbridge.cli import main
from mcbridge.games.cli import option_arg

GOLDEN = Path(__file__).parents[1] / "golden"
SEED = 1


def path(variant: Variant) -> Path:
    return GOLDEN / f"{variant.id}.txt"


def command(variant: Variant) -> list[str]:
    args = ["rules", variant.game, "--seed", str(SEED), "--bots", "--transcript"]
    for key, value in variant.options:
        args += ["--option", option_arg(key, value)]
    return args


def render(variant: Variant) -> str:
    """What `mcbridge rules ... --transcript` prints for this variant."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(command(variant))
    if code != 0:
        raise RuntimeError(f"mcbridge {' '.join(command(variant))} exited with {code}:\n{out.getvalue()}")
    return out.getvalue()


def regenerate() -> None:
    GOLDEN.mkdir(exist_ok=True)
    known = {path(v) for v in VARIANTS}
    for variant in VARIANTS:
        path(variant).write_text(render(variant), encoding="utf-8", newline="\n")
        print(f"wrote {path(variant)}")
    for stale in sorted(set(GOLDEN.glob("*.txt")) - known):
        stale.unlink()
        print(f"removed {stale} (no such game or ruleset any more)")


if __name__ == "__main__":
    regenerate()
