"""Cross-check against OpenSpiel's liars_dice (`open_spiel`, in the `test` extra).

Random OpenSpiel games are mirrored move by move into our engine with OpenSpiel's settings;
the legal moves and the winner must agree every time.

The skip is precise: only where the `test` extra does not install `open_spiel` (no wheel for
the platform: the marker in pyproject.toml says where) and it is not installed. Where the
marker holds, a missing or broken `open_spiel` fails the test instead of hiding it.
"""

from __future__ import annotations

import importlib
import importlib.util
import random
import tomllib
from pathlib import Path
from types import ModuleType

import pytest
from packaging.requirements import Requirement

from mcbridge.core import CHANCE
from mcbridge.core.legal import expand
from mcbridge.games import load
from mcbridge.games.dice_bluff import Bid, Challenge, FirstOpener, Roll

PYPROJECT = Path(__file__).parents[2] / "pyproject.toml"


def openspiel_requirement() -> Requirement:
    """The `open_spiel` line of the `test` extra."""
    extras = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    return next(r for r in map(Requirement, extras["test"]) if r.name.replace("-", "_") == "open_spiel")


def load_pyspiel() -> ModuleType:
    requirement = openspiel_requirement()
    wheel_here = requirement.marker is None or requirement.marker.evaluate()
    if not wheel_here and importlib.util.find_spec("pyspiel") is None:
        pytest.skip(f"open_spiel has no wheel for this platform ({requirement.marker}) and is not installed")
    try:
        return importlib.import_module("pyspiel")
    except ImportError as exc:
        pytest.fail(
            f"open_spiel is in the test extra for this platform but does not import ({exc}): pip install -e '.[test]'"
        )


@pytest.fixture(scope="module")
def pyspiel() -> ModuleType:
    return load_pyspiel()


SETTINGS = {"dice_per_player": 1, "wild_face": 6, "exact": "challenger_only", "penalty": "one", "set_aside": False}


def test_random_openspiel_games_agree(pyspiel: ModuleType) -> None:
    spiel_game = pyspiel.load_game("liars_dice")
    liar = 12  # 2 dice in play x 6 faces: the action after the last bid
    game = load("dice_bluff", SETTINGS)
    rng = random.Random(5)
    for n in range(300):
        spiel = spiel_game.new_initial_state()
        ours = game.new_match(["p0", "p1"], seed=n)
        ours.apply(CHANCE, FirstOpener(0))
        for seat in (0, 1):
            face = rng.randrange(6)
            spiel.apply_action(face)
            ours.apply(CHANCE, Roll(seat, (face + 1,)))
        while not spiel.is_terminal():
            seat = spiel.current_player()
            mapped = {a: Challenge() if a == liar else Bid(a // 6 + 1, a % 6 + 1) for a in spiel.legal_actions()}
            assert sorted(map(repr, mapped.values())) == sorted(map(repr, expand(ours.legal_actions(seat))))
            choice = rng.choice(list(mapped))
            spiel.apply_action(choice)
            ours.apply(seat, mapped[choice])
        winner = max((0, 1), key=lambda p: spiel.returns()[p])
        assert [row["seat"] for row in ours.result()["standings"] if row["winner"]] == [winner]


def test_the_skip_is_only_for_a_platform_without_a_wheel(monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = Requirement("open_spiel>=2.0.2; sys_platform == 'nonesuch'")
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    monkeypatch.setattr(f"{__name__}.openspiel_requirement", lambda: elsewhere)
    with pytest.raises(pytest.skip.Exception):
        load_pyspiel()


def test_a_broken_open_spiel_where_a_wheel_exists_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(name: str) -> ModuleType:
        raise ImportError("libpyspiel.so: cannot open shared object file")

    monkeypatch.setattr(f"{__name__}.openspiel_requirement", lambda: Requirement("open_spiel>=2.0.2"))
    monkeypatch.setattr(importlib, "import_module", broken)
    with pytest.raises(pytest.fail.Exception, match="does not import"):
        load_pyspiel()
