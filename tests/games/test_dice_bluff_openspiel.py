"""Cross-check against OpenSpiel's liars_dice where `open_spiel` is installed (optional).

Random OpenSpiel games are mirrored move by move into our engine with OpenSpiel's settings;
the legal moves and the winner must agree every time.
"""

from __future__ import annotations

import random

import pytest

from mcbridge.core import CHANCE
from mcbridge.games import load
from mcbridge.games.dice_bluff import Bid, Challenge, FirstOpener, Roll

pyspiel = pytest.importorskip("pyspiel")

SETTINGS = {"dice_per_player": 1, "wild_face": 6, "exact": "challenger_only", "penalty": "one", "set_aside": False}


def test_random_openspiel_games_agree() -> None:
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
            assert sorted(map(repr, mapped.values())) == sorted(map(repr, ours.legal_actions(seat)))
            choice = rng.choice(list(mapped))
            spiel.apply_action(choice)
            ours.apply(seat, mapped[choice])
        winner = max((0, 1), key=lambda p: spiel.returns()[p])
        assert [row["seat"] for row in ours.result()["standings"] if row["winner"]] == [winner]
