"""The soak's twins (bench/soak.py): a match thrown faults must be compared with its calm twin,
never with a later match. The one divergence seen in the in-process soak (a Briscola bugiarda
match differing from its twin at action 0) was a controller killed in the cycle that finished
the match: the resumed controller found no unfinished match, started the arena's next one
(the next seed) for the players still seated, and that match was compared. Here the kill is
placed exactly there, with a real SIGKILL of the controller process.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parents[2] / "bench" / "soak.py"
GAME = "briscola_bugiarda"
SEED = 1000


def load_soak() -> Any:
    spec = importlib.util.spec_from_file_location("soak", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["soak"] = module
    spec.loader.exec_module(module)
    return module


def test_a_controller_killed_as_the_match_finishes_is_compared_on_that_match(tmp_path: Path) -> None:
    soak = load_soak()
    rng = random.Random(0)
    with (tmp_path / "controllers.log").open("w", encoding="utf-8") as log:
        calm = soak.play(GAME, tmp_path / "calm.sqlite", SEED, None, rng, soak.Figures(), log)
        expected = calm.journal()
        last = len(expected)

        def kill_as_it_finishes(status: dict[str, Any]) -> str | None:
            # every action is in; the next cycle journals the result: SIGKILL right after it
            return "kill-after" if status["seq"] == last and not status["finished"] else None

        figures = soak.Figures()
        faulted = soak.play(GAME, tmp_path / "soak.sqlite", SEED, kill_as_it_finishes, rng, figures, log)
    assert faulted.faults == [f"kill-after at action {last} (match 1)"]  # the kill came exactly there
    assert figures.kills == 1
    assert faulted.match_id == 1
    assert faulted.journal() == expected
    soak.compare(GAME, 0, faulted, expected, figures)
    assert (figures.wrong, figures.lost) == (0, 0)
    assert len(faulted.accepted) == sum(1 for seat, _ in expected if seat >= 0)  # every move was seen
