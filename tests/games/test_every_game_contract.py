"""The rules-core contract (DESIGN.md §3), checked the same way for every game and ruleset.

Random playthroughs to the end (random, type-first and bot policies, 2 to 6 seats as the game
allows) under every per-step check of `contract.play_checked`: the accepted action was listed,
the state moved as the rules say, JSON round trips at every step, refused actions change
nothing, twins prove that no view shows hidden information, conservation laws hold, the bot
decides from its own view, and the JSON journal replays to an equal match. The variants come
from the registry, so a new game or ruleset is in the suite the day it is registered.
"""

from __future__ import annotations

import pytest
from contract import POLICY_KINDS, VARIANT_IDS, VARIANTS, Variant, hooks_for, play_checked, play_plain, seat_names, walk
from game_hooks import HOOKS
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import Rng


def test_the_suite_covers_every_registered_game_and_ruleset() -> None:
    missing = set(games.GAMES) - set(HOOKS)
    assert not missing, f"registered games without contract hooks in tests/games/game_hooks.py: {sorted(missing)}"
    assert {v.game for v in VARIANTS} == set(games.GAMES) == set(HOOKS)
    assert "dice_bluff-perudo" in VARIANT_IDS  # a second ruleset is a second variant


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_random_playthroughs_keep_the_contract_at_every_step(variant: Variant) -> None:
    game = variant.load()
    lo, hi = game.player_range

    @settings(max_examples=hooks_for(game).examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(seed=st.integers(0, 2**32 - 1), players=st.integers(lo, min(hi, 6)), kind=st.sampled_from(POLICY_KINDS))
    def playthrough(seed: int, players: int, kind: str) -> None:
        state, journal = play_checked(game, players, seed, kind)
        assert state.is_over and journal
        assert play_plain(game, players, seed, kind) == journal  # same seed and policy, same match

    playthrough()


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_twins_change_something_their_owner_can_see(variant: Variant) -> None:
    """A hook that builds no twin, or twins nobody can tell apart, proves nothing: during a bot
    match every game has hidden information (a hand, a cup) that its owner's view shows."""
    game = variant.load()
    hooks = hooks_for(game)
    lo, _ = game.player_range
    rng = Rng(11)
    seen = 0
    for state in walk(game, lo, 11, "bot"):
        for twin in hooks.twins(state, rng):
            seen += any(twin.state.view(owner) != state.view(owner) for owner in twin.may_notice)
    assert seen > 0


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_a_twin_with_a_leaky_view_is_caught(variant: Variant, monkeypatch: pytest.MonkeyPatch) -> None:
    """The privacy check itself can fail: a view that shows the whole state leaks, and the
    playthrough must say so."""
    game = variant.load()
    lo, _ = game.player_range
    original = type(game.new_match(seat_names(lo), 1)).view

    def leaky(self: object, seat: int | None = None) -> dict[str, object]:
        return {**original(self, seat), "everything": self.to_json()}  # type: ignore[attr-defined, arg-type]

    monkeypatch.setattr(type(game.new_match(seat_names(lo), 1)), "view", leaky)
    with pytest.raises(AssertionError):
        play_checked(game, lo, 3, "bot")
