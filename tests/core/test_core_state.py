"""What the core owns for every game: generic save/restore from declared fields, the one
"who goes first" action, the timeout guard, ranked standings, the typed result and the
view header. Parametrised over every registered game, so a new game is checked too."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge import games
from mcbridge.core import CHANCE, BadState, FirstSeat, Game, IllegalAction, OptionError, Rng, State, ranked
from mcbridge.core.persist import saved_fields

NAMES = games.available()
#: The names each game used for its "who goes first" action before the core owned it.
OLD_FIRST_NAMES = {
    "wool_bluff": "FirstPredictor",
    "dice_bluff": "FirstOpener",
    "bribery": "FirstStarter",
    "braff": "FirstDealer",
    "briscola_bugiarda": "FirstDealer",
}


def seats_for(game: Game) -> list[str]:
    lo, hi = game.player_range
    return [f"p{i}" for i in range(max(lo, min(4, hi)))]


def random_play(game: Game, seed: int, steps: int) -> State:
    state = game.new_match(seats_for(game), seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        seat = min(state.to_act())
        state.apply(seat, state.sample_chance(rng) if seat == CHANCE else rng.pick(state.legal_actions(seat)))
    return state


def attributes(state: State) -> dict[str, Any]:
    """Every declared field's value, compared as Python objects (types included)."""
    return {name: getattr(state, name) for name in saved_fields(type(state))}


# -- save / restore from declared fields ----------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 400))
def test_every_declared_field_survives_a_json_round_trip(name: str, seed: int, steps: int) -> None:
    game = games.load(name)
    state = random_play(game, seed, steps)
    restored = game.from_json(state.to_json())
    assert attributes(restored) == attributes(state)
    for field, value in attributes(state).items():  # lists stay lists, tuples stay tuples
        assert type(getattr(restored, field)) is type(value), field
    assert restored.to_json() == state.to_json()
    # and the restored match plays on exactly like the original
    rng_a, rng_b = Rng(seed + 1), Rng(seed + 1)
    for _ in range(30):
        if state.is_over:
            break
        seat = min(state.to_act())
        a = state.sample_chance(rng_a) if seat == CHANCE else rng_a.pick(state.legal_actions(seat))
        b = restored.sample_chance(rng_b) if seat == CHANCE else rng_b.pick(restored.legal_actions(seat))
        assert a == b
        assert state.apply(seat, a) == restored.apply(seat, b)
    assert restored.to_json() == state.to_json()


@pytest.mark.parametrize("name", NAMES)
def test_every_attribute_a_match_holds_is_declared(name: str) -> None:
    """After a whole match nothing lives outside the declaration (dump would refuse it)."""
    game = games.load(name)
    state = random_play(game, 3, 5000)
    scratch = {k for k in vars(state) if k.startswith("_")}
    assert set(vars(state)) - scratch == set(saved_fields(type(state))) | {"game"}


@pytest.mark.parametrize("name", NAMES)
def test_an_undeclared_attribute_is_caught_by_the_next_dump(name: str) -> None:
    game = games.load(name)
    state = random_play(game, 1, 10)
    state.forgotten_field = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="forgotten_field"):
        state.to_json()


@pytest.mark.parametrize("name", NAMES)
def test_a_field_missing_from_saved_data_is_named(name: str) -> None:
    game = games.load(name)
    data = json.loads(random_play(game, 5, 40).to_json())
    field = sorted(data["state"])[-1]
    del data["state"][field]
    with pytest.raises(BadState) as refused:
        game.from_json(json.dumps(data))
    assert refused.value.code == "missing_field"
    assert refused.value.details["field"] == field


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_state"),
        ('{"game": "chess"}', "wrong_game"),
        (None, "bad_json"),
    ],
)
def test_text_that_is_not_a_match_gets_a_stable_code(name: str, text: Any, code: str) -> None:
    with pytest.raises(BadState) as refused:
        games.load(name).from_json(text)
    assert refused.value.code == code
    assert isinstance(refused.value, ValueError)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**10),
    junk=st.none() | st.booleans() | st.text(max_size=3) | st.integers() | st.lists(st.none()),
)
def test_a_field_of_the_wrong_shape_is_refused_with_its_name(name: str, seed: int, junk: Any) -> None:
    game = games.load(name)
    data = json.loads(random_play(game, seed, 30).to_json())
    for field in ("phase", "players", "seq"):
        if isinstance(junk, type(data["state"][field])) and not isinstance(junk, bool):
            continue
        broken = json.loads(json.dumps(data))
        broken["state"][field] = junk
        with pytest.raises(BadState) as refused:
            game.from_json(json.dumps(broken))
        assert refused.value.details["field"].startswith(field)


@pytest.mark.parametrize("name", NAMES)
def test_a_saved_match_in_no_phase_of_the_game_is_refused(name: str) -> None:
    game = games.load(name)
    data = json.loads(random_play(game, 4, 20).to_json())
    data["state"]["phase"] = "lunch"
    with pytest.raises(BadState) as refused:
        game.from_json(json.dumps(data))
    assert refused.value.details["field"] == "phase"


@pytest.mark.parametrize("name", NAMES)
def test_fields_that_do_not_fit_together_are_refused(name: str) -> None:
    """Each field well-typed, the whole nonsense: a seat list shorter than the players."""
    game = games.load(name)
    data = json.loads(random_play(game, 4, 60).to_json())
    shortened = [k for k, v in data["state"].items() if isinstance(v, list) and len(v) == len(data["state"]["players"])]
    assert shortened
    for key in shortened:
        data["state"][key] = data["state"][key][:1]
    with pytest.raises(BadState) as refused:
        game.from_json(json.dumps(data))
    assert refused.value.code in ("inconsistent_state", "bad_state")


@pytest.mark.parametrize("name", NAMES)
def test_bad_options_in_saved_data_are_an_option_error(name: str) -> None:
    game = games.load(name)
    data = json.loads(random_play(game, 2, 10).to_json())
    data["options"]["min_players"] = "many"
    with pytest.raises(OptionError):
        game.from_json(json.dumps(data))


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("options", ["x", 3, ["turns"]])
def test_options_that_are_not_a_mapping_are_an_option_error(name: str, options: Any) -> None:
    with pytest.raises(OptionError) as refused:
        games.load(name, options)
    assert refused.value.key == "options"


@pytest.mark.parametrize("game_name", [None, 3, ["wool_bluff"], "chess"])
def test_an_unknown_game_is_an_option_error(game_name: Any) -> None:
    with pytest.raises(OptionError) as refused:
        games.load(game_name)
    assert refused.value.key == "game"


# -- who goes first -------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
def test_who_goes_first_is_one_core_action_and_old_journals_still_read(name: str) -> None:
    game = games.load(name)
    state = random_play(game, 1, 0)
    while state.phase != state.first_phase:  # Bribery arranges its influencers first
        state.apply(CHANCE, state.sample_chance(Rng(1)))
    n = len(state.players)
    assert state.legal_actions(CHANCE) == [FirstSeat(s) for s in range(n)]
    assert isinstance(state.sample_chance(Rng(4)), FirstSeat)
    old = game.action_from_json({"type": OLD_FIRST_NAMES[name], "seat": n - 1})
    assert old == FirstSeat(n - 1) == game.action_from_json({"type": "FirstSeat", "seat": n - 1})
    for seat in (n, -1, True, "0"):
        before = state.to_json()
        with pytest.raises(IllegalAction) as refused:
            state.apply(CHANCE, FirstSeat(seat))  # type: ignore[arg-type]
        assert refused.value.code == "no_such_seat"
        assert state.to_json() == before
    events = state.apply(CHANCE, old)
    assert events and getattr(events[0], "seat", None) == n - 1
    assert state.phase != state.first_phase
    with pytest.raises(IllegalAction) as again:
        state.apply(min(state.to_act()), FirstSeat(0))
    assert again.value.code == "wrong_phase"


# -- timeout guard --------------------------------------------------------------------------
@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 200))
def test_timeout_actions_only_for_seats_to_act_and_always_legal(name: str, seed: int, steps: int) -> None:
    game = games.load(name)
    state = random_play(game, seed, steps)
    waiting = state.to_act()
    for seat in [CHANCE, *range(len(state.players))]:
        if seat in waiting and seat != CHANCE:
            action = state.timeout_action(seat)
            assert action in state.legal_actions(seat)
            state.apply(seat, action)  # accepted: a default action is always legal
            return
        with pytest.raises(IllegalAction) as refused:
            state.timeout_action(seat)
        assert refused.value.code == "not_your_turn"


# -- standings, result, header ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("keys", "expected"),
    [
        ([], []),
        ([5], [(1, 0)]),
        ([2, 1, 2, 0], [(1, 3), (2, 1), (3, 0), (3, 2)]),
        ([1, 1, 1], [(1, 0), (1, 1), (1, 2)]),
        ([(0, 1), (0, 0), (1, 0), (0, 0)], [(1, 1), (1, 3), (3, 0), (4, 2)]),
    ],
)
def test_ranked_shares_ranks_and_skips_places(keys: list[Any], expected: list[tuple[int, int]]) -> None:
    assert ranked(keys) == expected


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 3000))
def test_result_is_typed_and_reads_as_its_json(name: str, seed: int, steps: int) -> None:
    game = games.load(name)
    state = random_play(game, seed, steps)
    result = state.result()
    data = result.to_json()
    assert json.loads(json.dumps(data)) == data
    assert result["standings"] == data["standings"] and dict(result) == data
    assert data["over"] is state.is_over
    assert result.score_name in ("torches", "dice", "vp", "chips", "points")
    assert result.better in ("higher", "lower")
    assert sorted(s.seat for s in result.standings) == list(range(len(state.players)))
    scores = state.scores()
    for standing, row in zip(result.standings, data["standings"], strict=True):
        assert row[result.score_name] == standing.score == scores[standing.seat]
        assert (row["rank"], row["seat"], row["name"], row["winner"]) == (
            standing.rank,
            standing.seat,
            standing.name,
            standing.winner,
        )
    ranks = [s.rank for s in result.standings]
    assert ranks == sorted(ranks) and ranks[0] == 1
    assert result.winners == tuple(s.seat for s in result.standings if s.winner)


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 300))
def test_every_view_has_the_shared_header(name: str, seed: int, steps: int) -> None:
    game = games.load(name)
    state = random_play(game, seed, steps)
    for seat in [None, *range(len(state.players))]:
        view = state.view(seat)
        header = view["header"]
        assert header == state.header().to_json()
        assert header["game"] == name and header["phase"] == state.phase == view["phase"]
        assert header["players"] == list(state.players)
        assert header["to_act"] == sorted(state.to_act())
        assert header["scores"] == state.scores()
        assert header["seq"] == state.seq
        timeouts = game.options["timeouts"]
        assert header["deadline"] is None or header["deadline"] in timeouts
        if state.is_over:
            assert header["deadline"] is None


def test_seq_counts_applied_actions_and_refusals_do_not_count() -> None:
    game = games.load("wool_bluff")
    state = game.new_match(["a", "b"], 1)
    assert state.header().seq == 0
    state.apply(CHANCE, FirstSeat(0))
    with pytest.raises(IllegalAction):
        state.apply(CHANCE, FirstSeat(0))
    assert state.header().seq == 1
    assert game.from_json(state.to_json()).header().seq == 1


def test_the_header_names_the_timeout_that_runs() -> None:
    braff = games.load("braff")
    state = random_play(braff, 1, 0)
    state.apply(CHANCE, FirstSeat(0))
    state.apply(CHANCE, state.sample_chance(Rng(1)))
    assert (state.phase, state.header().deadline) == ("discard", "discard")
    while state.phase == "discard":
        state.apply(min(state.to_act()), state.timeout_action(min(state.to_act())))
    assert (state.phase, state.header().deadline) == ("open", "bet")
    briscola = games.load("briscola_bugiarda")
    state = random_play(briscola, 1, 2)
    assert (state.phase, state.header().deadline) == ("auction", "bid")
    wool = random_play(games.load("wool_bluff"), 1, 1)
    assert (wool.phase, wool.header().deadline) == ("deal", None)  # a deal has no clock


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("text", [None, 3, b"bid", ["bid"]])
def test_parse_action_refuses_what_is_not_text(name: str, text: Any) -> None:
    game = games.load(name)
    state = random_play(game, 1, 0)
    with pytest.raises(IllegalAction) as refused:
        game.parse_action(0, text, state)
    assert refused.value.code == "not_text"
