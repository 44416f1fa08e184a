"""Bribery rules: the seed's worked case and every [decided] point of rules/bribery.md."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from mcbridge.core import CHANCE, IllegalAction, OptionError, Rng
from mcbridge.games import load
from mcbridge.games.bribery import (
    INFORMANT,
    AllIn,
    ArrangeInfluencers,
    BriberyState,
    Call,
    FirstStarter,
    Fold,
    Pass,
    Raise,
    Shuffle,
)
from mcbridge.games.bribery.actions import (
    CardsDrawn,
    CarriedOver,
    DiscardsReshuffled,
    DrawShort,
    InfluencerRemoved,
    InfluencerWon,
    LosersDraw,
    MatchOver,
    NoWinner,
    OutOfRound,
    Showdown,
    Tie,
    WinnerDraws,
)

I = INFORMANT  # noqa: E741 - reads like the card
FAMILY = ["eldest_daughter", "second_daughter", "eldest_son", "third_daughter"]


def plain_deck(ids: list[str], vp: int = 1) -> list[dict[str, Any]]:
    return [{"id": card, "vp": vp, "effect": {}} for card in ids]


def setup(
    hands: list[list[int]],
    *,
    start: int = 0,
    pile: list[str] | None = None,
    next_cards: list[int] | None = None,
    options: dict[str, Any] | None = None,
) -> BriberyState:
    """A match after setup with these exact hands; `next_cards` lie on top of the rest."""
    pile = pile or ["influencer_a", "influencer_b", "influencer_c"]
    opts: dict[str, Any] = {"influencers": plain_deck([*pile, "removed_card"]), "tiebreak": [], **(options or {})}
    game = load("bribery", opts)
    state = game.new_match([f"p{i}" for i in range(len(hands))], seed=1)
    assert isinstance(state, BriberyState)
    state.apply(CHANCE, ArrangeInfluencers(("removed_card",), tuple(pile)))
    state.apply(CHANCE, FirstStarter(start))
    n = len(hands)
    top = [card for step in range(n) for card in hands[(start + step) % n]]
    wanted = Counter(top) + Counter(next_cards or [])
    assert not wanted - Counter(state.discard), f"more cards than the deck has: {wanted - Counter(state.discard)}"
    rest = Counter(state.discard) - wanted
    state.apply(CHANCE, Shuffle(tuple(top + (next_cards or []) + sorted(rest.elements()))))
    assert [sorted(h) for h in state.hands] == [sorted(h) for h in hands]
    assert state.phase == "bet" and state.round == 1
    return state


def everyone_takes_an_informant(state: BriberyState) -> None:
    """A round where every player passes for 1 card + 1 informant: nobody bet, carry over."""
    for _ in state.players:
        state.apply(state.turn or 0, Pass("card_and_informant"))


def of_type(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


# -- the seed's worked case -------------------------------------------------------------------
def test_seed_worked_case_tie_under_low_then_extension() -> None:
    """A 300 + informant, B 300 + informant, C 400 + informant: 3 informants -> low; A and B
    tie at 300, C is out; A and B continue with every card and all three informants in play."""
    hands = [[300, 100, 200, 200, 500], [300, 200, 400, 500, 500], [400, 100, 400, 500, 500]]
    state = setup(hands, next_cards=[100, 200, 300])
    everyone_takes_an_informant(state)
    assert state.round == 2 and state.stake == ["influencer_a", "influencer_b"]
    state.apply(0, Raise((I, 300)))
    state.apply(1, Call((I, 300)))
    events = state.apply(2, Call((I, 400)))
    assert of_type(events, Showdown) == [Showdown("low", 3)]
    assert of_type(events, Tie) == [Tie(300, 2)]
    assert of_type(events, OutOfRound)[0].seat == 2
    assert state.status == ["in", "in", "out"] and state.extension == 1
    assert state.played == [[I, 300], [I, 300], [I, 400]]  # every card stays in play
    assert state.turn == 0 and Pass("two_cards") not in state.legal_actions(0)
    # A adds a 100 (400 in all), B a 200 (500): C's informant still counts, so still low: A wins.
    state.apply(0, Raise((100,)))
    events = state.apply(1, Call((200,)))
    assert of_type(events, Showdown) == [Showdown("low", 3)]
    assert [(e.winner, e.card) for e in of_type(events, InfluencerWon)] == [(0, "influencer_a"), (0, "influencer_b")]


# -- high and low -----------------------------------------------------------------------------------
def test_even_informants_high_and_two_informants_cancel() -> None:
    hands = [[100, 500, 200, 200, 300], [300, 400, 200, 400, 500], [100, 100, 300, 500, 200]]
    state = setup(hands, next_cards=[400, 400, 300])
    everyone_takes_an_informant(state)
    state.apply(0, Raise((I, 100)))
    state.apply(1, Call((I, 400)))
    events = state.apply(2, Call((100, 100)))
    assert of_type(events, Showdown) == [Showdown("high", 2)]
    assert of_type(events, InfluencerWon)[0].winner == 1
    assert state.start == state.turn == 1  # the winner starts the next round


ODD_HANDS = [[500, 500, 200, 200, 300], [300, 400, 200, 200, 500], [100, 400, 300, 300, 100]]


def test_odd_informants_low_and_informants_alone_cannot_win() -> None:
    state = setup(ODD_HANDS, next_cards=[100, 100, 400])
    everyone_takes_an_informant(state)
    state.apply(0, Raise((I,)))  # only an informant: 0 in luck, but it cannot win
    state.apply(1, Call((400,)))
    events = state.apply(2, Call((100,)))
    assert of_type(events, Showdown) == [Showdown("low", 1)]
    assert of_type(events, InfluencerWon)[0].winner == 2  # 100: the best hand under low


def test_only_informants_in_play_means_no_winner_and_carry_over() -> None:
    state = setup(ODD_HANDS, next_cards=[100, 100, 400])
    everyone_takes_an_informant(state)
    state.apply(0, Raise((I,)))
    state.apply(1, Fold())
    events = state.apply(2, Fold())
    assert of_type(events, NoWinner) == [NoWinner("no_luck")]
    assert [e.card for e in of_type(events, CarriedOver)] == ["influencer_a", "influencer_b"]


# -- betting ---------------------------------------------------------------------------------------------
HANDS3 = [[100, 200, 300, 400, 500], [100, 200, 300, 400, 500], [100, 200, 300, 400, 500]]


def test_raise_call_no_check_and_refusals_change_nothing() -> None:
    state = setup(HANDS3)
    assert not any(isinstance(a, Call) for a in state.legal_actions(0))  # nothing to call, no check
    refusals = [
        (Raise(()), "no_check"),
        (Call(()), "no_check"),
        (Raise((200, 200)), "cards_not_held"),
        (Call((100,)), "call_wrong_count"),
    ]
    for bad, code in refusals:
        before = state.to_json()
        with pytest.raises(IllegalAction) as err:
            state.apply(0, bad)
        assert err.value.code == code
        assert state.to_json() == before
    state.apply(0, Raise((500, 400)))  # a raise may be any number of cards
    with pytest.raises(IllegalAction) as err:
        state.apply(1, Raise((500, 400)))
    assert err.value.code == "raise_too_small"
    with pytest.raises(IllegalAction) as err:
        state.apply(1, Call((500,)))
    assert err.value.code == "call_wrong_count"
    state.apply(1, Raise((500, 400, 300)))
    state.apply(2, Call((100, 200, 300)))
    assert state.turn == 0  # seat 0 has not acted since the last raise
    state.apply(0, Call((100,)))
    assert state.round == 2  # everyone still in acted since the raise and matched it


def win_round_one_alone() -> BriberyState:
    """Seat 0 bets one card and the others pass: a bet is needed to win, and it is enough."""
    state = setup([[500, 500, 500, 500, 400], [100] * 5, [200] * 5], next_cards=[300, 300, 300, 300])
    state.apply(0, Raise((400,)))
    state.apply(1, Pass("two_cards"))
    events = state.apply(2, Pass("two_cards"))
    assert of_type(events, InfluencerWon)[0].winner == 0
    return state


def test_all_in_with_fewer_cards_than_the_highest_count_can_win() -> None:
    state = win_round_one_alone()
    assert state.turn == 0 and state.hands[0] == [500] * 4  # the winner starts round 2
    state.apply(0, Raise((500, 500)))
    state.apply(1, Raise((100,) * 5))
    state.apply(2, Call((200,) * 5))
    assert state.legal_actions(0) == [Fold(), AllIn()]  # a call needs 3 cards, seat 0 has 2
    events = state.apply(0, AllIn())
    assert of_type(events, Showdown) == [Showdown("high", 0)]
    assert of_type(events, InfluencerWon)[0].winner == 0  # 4 cards, 2000 in luck


def test_tied_players_all_in_means_no_winner_and_the_card_leaves_the_game() -> None:
    state = setup([[300], [300], [100]], options={"hand_size": 1})
    state.apply(0, Raise((300,)))
    state.apply(1, Call((300,)))
    events = state.apply(2, Call((100,)))
    assert of_type(events, NoWinner) == [NoWinner("all_in_tie")]
    assert [e.card for e in of_type(events, InfluencerRemoved)] == ["influencer_a"]
    assert state.removed == ["influencer_a"] and state.stake == ["influencer_b"]
    assert state.start == 0  # no winner: the same start player again


def test_a_folded_players_informant_still_counts() -> None:
    hands = [[500, 100, 100, 100, 100], [100, 300, 400, 500, 500], [200, 200, 200, 300, 300]]
    state = setup(hands, next_cards=[400, 400, 400])
    everyone_takes_an_informant(state)
    state.apply(0, Raise((I, 500)))
    state.apply(1, Raise((100, 300, 400)))
    state.apply(2, Call((200, 200, 200)))
    events = state.apply(0, Fold())
    assert of_type(events, Showdown) == [Showdown("low", 1)]  # the folded seat's informant flips it
    assert of_type(events, InfluencerWon)[0].winner == 2  # 600 beats 800 under low


def test_pass_only_as_first_action_and_its_two_refills() -> None:
    state = setup(HANDS3, next_cards=[500, 400, 300])
    supply = state.supply
    events = state.apply(0, Pass("card_and_informant"))
    assert sorted(state.hands[0]) == [I, 100, 200, 300, 400, 500, 500] and state.supply == supply - 1
    assert of_type(events, CardsDrawn) == [CardsDrawn(0, 1)]
    state.apply(1, Pass("two_cards"))
    assert sorted(state.hands[1]) == [100, 200, 300, 300, 400, 400, 500]
    state.apply(2, Raise((100,)))
    assert state.round == 2  # seat 2 bet alone and won
    state.apply(2, Raise((200,)))
    state.apply(0, Raise((I, 500)))
    state.apply(1, Call((100, 200)))
    with pytest.raises(IllegalAction) as err:
        state.apply(2, Pass("two_cards"))
    assert err.value.code == "pass_only_first"


def test_no_informant_left_refuses_the_informant_refill() -> None:
    state = setup(HANDS3, options={"informants": 0})
    assert Pass("card_and_informant") not in state.legal_actions(0)
    with pytest.raises(IllegalAction) as err:
        state.apply(0, Pass("card_and_informant"))
    assert err.value.code == "no_informant_left"


# -- resolution ------------------------------------------------------------------------------------------
def test_effects_winner_draws_and_losers_who_bet_draw_but_not_passers() -> None:
    deck = [
        {"id": "generous", "vp": 2, "effect": {"winner_draws": 2, "losers_who_bet_draw": 1}},
        {"id": "plain", "vp": 1, "effect": {}},
        {"id": "removed_card", "vp": 1, "effect": {}},
    ]
    hands = [[500, 400, 100, 100, 100], [100, 200, 200, 200, 200], [200, 300, 300, 300, 300], [400, 400, 400, 400, 500]]
    state = setup(hands, pile=["generous", "plain"], options={"influencers": deck})
    state.apply(0, Raise((500,)))
    state.apply(1, Call((100,)))
    state.apply(2, Raise((200, 300)))
    state.apply(3, Pass("two_cards"))
    state.apply(0, Call((400,)))
    events = state.apply(1, Fold())  # a bettor who folded still gets the consolation
    assert of_type(events, InfluencerWon) == [InfluencerWon(0, "generous", 2)]
    assert of_type(events, WinnerDraws) == [WinnerDraws("generous", 0, 2)]
    assert of_type(events, LosersDraw) == [LosersDraw("generous", 1)]
    assert of_type(events, CardsDrawn) == [CardsDrawn(0, 2), CardsDrawn(1, 1), CardsDrawn(2, 1)]
    assert len(state.discard) == 5 and state.view(None)["discard"] == 5  # all played cards, face down


def test_discards_reshuffle_when_a_draw_finds_the_pile_empty() -> None:
    hands = [[100] * 5 + [200] * 2, [300] * 5 + [200] * 2, [400] * 5 + [500] * 2]
    state = setup(hands, next_cards=[200, 500, 500, 500], options={"hand_size": 7})
    everyone_takes_an_informant(state)  # 3 of the 4 pile cards drawn
    state.apply(0, Raise((I, 100)))
    state.apply(1, Call((I, 300)))
    state.apply(2, Call((I, 400)))  # low: seat 0 wins; 6 cards (3 informants) to the discards
    assert state.round == 3 and len(state.pile) == 1 and sorted(state.discard) == [I, I, I, 100, 300, 400]
    events = state.apply(0, Pass("two_cards"))
    assert of_type(events, CardsDrawn) == [CardsDrawn(0, 1)] and state.phase == "shuffle"
    with pytest.raises(IllegalAction) as err:
        state.apply(CHANCE, Shuffle((I, I, 100, 300, 400)))
    assert err.value.code == "bad_shuffle"
    events = state.apply(CHANCE, Shuffle((I, 300, I, 100, 400, I)))
    assert of_type(events, DiscardsReshuffled) == [DiscardsReshuffled(6)]
    assert of_type(events, CardsDrawn) == [CardsDrawn(0, 1)]
    assert state.hands[0].count(I) == 1 and state.phase == "bet" and state.turn == 1  # the new pile had informants


def test_draw_short_when_no_card_is_left_anywhere() -> None:
    hands = [[100] * 5 + [200] * 3, [300] * 5 + [200] * 2 + [500], [400] * 5 + [500] * 3]
    state = setup(hands, options={"hand_size": 8})  # 24 of 25 luck cards dealt
    events = state.apply(0, Pass("two_cards"))
    assert of_type(events, CardsDrawn) == [CardsDrawn(0, 1)]
    assert of_type(events, DrawShort) == [DrawShort(0, 1)]


def test_game_ends_after_the_last_influencer_and_an_unclaimed_stake_leaves() -> None:
    state = setup(HANDS3, pile=["influencer_a", "influencer_b"])
    everyone_takes_an_informant(state)
    for seat in (0, 1, 2):
        events = state.apply(seat, Pass("two_cards"))
    assert [e.card for e in of_type(events, InfluencerRemoved)] == ["influencer_a", "influencer_b"]
    assert isinstance(events[-1], MatchOver) and events[-1].winners == (0, 1, 2)  # 0 VP each: a draw
    assert state.is_over and state.removed == ["influencer_a", "influencer_b"]


def test_rounds_equal_influencer_pile_size_with_the_seed_deck() -> None:
    game = load("bribery")
    state = game.new_match(["a", "b", "c"], seed=9)
    state.apply(CHANCE, state.sample_chance(Rng(1)))
    assert isinstance(state, BriberyState)
    assert len(state.influencer_pile) == 7 and len(state.unseen) == 1


# -- standings --------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("owned", "ranks"),
    [
        ([["third_daughter"], ["eldest_daughter"], []], [(0, 1), (1, 2), (2, 3)]),  # most VP
        ([["eldest_son"], ["influencer_a", "influencer_b"], []], [(1, 1), (0, 2), (2, 3)]),  # then most cards
        ([["second_daughter"], ["eldest_daughter"], []], [(1, 1), (0, 2), (2, 3)]),  # then eldest daughter
        ([["eldest_son", "influencer_a"], ["second_daughter", "influencer_b"], []], [(1, 1), (0, 2), (2, 3)]),
        ([["influencer_a"], ["influencer_b"], []], [(0, 1), (1, 1), (2, 3)]),  # otherwise a draw
    ],
)
def test_vp_and_tie_breaks(owned: list[list[str]], ranks: list[tuple[int, int]]) -> None:
    state = load("bribery").new_match(["a", "b", "c"], seed=1)
    assert isinstance(state, BriberyState)
    state.owned = owned
    state.phase = "over"
    rows = state.result()["standings"]
    assert [(r["seat"], r["rank"]) for r in rows] == ranks
    assert [r["seat"] for r in rows if r["winner"]] == [s for s, rank in ranks if rank == 1]


# -- timeouts, options, placeholders ----------------------------------------------------------------------
def test_timeout_passes_first_then_folds() -> None:
    state = setup(HANDS3)
    assert state.timeout_action(0) == Pass("two_cards")
    state.apply(0, Raise((500,)))
    state.apply(1, Raise((500, 400)))
    state.apply(2, Fold())
    assert state.timeout_action(0) == Fold()
    with pytest.raises(IllegalAction):
        state.timeout_action(1)


@pytest.mark.parametrize(
    "options",
    [
        {"max_players": 6},  # no luck_copies entry for 6 players
        {"tiebreak": ["nobody"]},
        {"luck_values": [100, 100]},
        {"removed_influencers": 8},
        {"min_players": 5, "max_players": 4},
    ],
)
def test_options_are_checked(options: dict[str, Any]) -> None:
    with pytest.raises(OptionError):
        load("bribery", options)


def test_every_open_number_is_a_listed_placeholder() -> None:
    paths = {p.path for p in load("bribery").placeholders}
    expected = {"hand_size", "informants", "min_players", "max_players"}
    expected |= {f"luck_copies[{i}].copies" for i in range(3)}
    expected |= {f"influencers[{i}].{field}" for i in range(8) for field in ("vp", "effect")}
    expected |= {f"influencers[{i}].id" for i in range(4, 8)}
    assert paths == expected
