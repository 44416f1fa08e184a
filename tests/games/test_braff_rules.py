"""Braff rules (rules/braff.md): the seed's A-chan worked cases and every [decided] point.

Rounds are driven with injected chance actions: `deal()` builds a Shuffle that gives each
seat the character and cards a test names, with a chosen top of the draw pile.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest

from mcbridge import games
from mcbridge.core import CHANCE, IllegalAction, OptionError, Rng, play_out
from mcbridge.core.legal import MAX_LISTED, ActionRange, contains
from mcbridge.core.legal import count as legal_count
from mcbridge.games.braff import (
    AllIn,
    Braff,
    BraffState,
    Call,
    Discard,
    Doubt,
    Drop,
    FirstDealer,
    Raise,
    Shuffle,
    Stand,
    cup_label,
    cup_ordinal,
)
from mcbridge.games.braff.cards import deck_cards

NAMES = ["ann", "bob", "cy", "dee", "eve"]


def new_game(**options: Any) -> Braff:
    game = games.load("braff", options)
    assert isinstance(game, Braff)
    return game


def deal(game: Braff, characters: list[str], hands: list[list[str]], pile_top: Sequence[str] = ()) -> Shuffle:
    """A Shuffle giving seat s characters[s] and hands[s]; the pile starts with pile_top."""
    rest_characters = [c for c in game.characters if c not in characters]
    used = Counter(c for hand in hands for c in hand) + Counter(pile_top)
    rest = Counter(deck_cards(game.options["deck"]))
    rest.subtract(used)
    assert min(rest.values()) >= 0, "the test asks for more cards of a colour than the deck has"
    cards = [c for hand in hands for c in hand] + list(pile_top) + list(rest.elements())
    return Shuffle(tuple(characters + rest_characters), tuple(cards))


def start(
    game: Braff,
    characters: list[str],
    hands: list[list[str]],
    dealer: int = 0,
    pile_top: Sequence[str] = (),
    stacks: list[int] | None = None,
) -> BraffState:
    state = game.new_match(NAMES[: len(characters)], seed=1)
    assert isinstance(state, BraffState)
    if stacks is not None:
        state = with_stacks(state, stacks)
    state.apply(CHANCE, FirstDealer(dealer))
    state.apply(CHANCE, deal(game, characters, hands, pile_top))
    return state


def with_stacks(state: BraffState, stacks: list[int]) -> BraffState:
    """The same match with other chip stacks (a restored match, as a table would load it)."""
    data = json.loads(state.to_json())
    data["state"]["chips"]["stacks"] = list(stacks)
    restored = state.game.from_json(json.dumps(data))
    assert isinstance(restored, BraffState)
    return restored


def act(state: BraffState, *moves: tuple[int, Any]) -> list[Any]:
    events = []
    for seat, action in moves:
        events += state.apply(seat, action)
    return events


def keep_all(state: BraffState) -> None:
    while state.phase == "discard":
        state.apply(min(state.to_act()), Discard(()))


def kinds(events: list[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


FIVE_RED = ["red"] * 5
PLAIN = ["green", "green", "blue", "yellow", "white"]  # nothing for A-chan


# -- the character table and the seed's worked cases --------------------------------------
@pytest.mark.parametrize(
    ("hand", "cup"),
    [
        (["red"] * 5, 10),  # seed: 1 + 9 = 10 (J cup)
        (["blue"] * 5, 10),  # seed: 5 blue also J
        (["red", "red", "red", "yellow", "yellow"], 9),  # seed: 1 + 5 + 3 = 9 (I cup)
        (["black"] * 5, 8),  # seed: black stops at 3 cards: 1 + 7
        (["red"] * 4 + ["green"], 6),  # 4 red uses the 3-card row: 1 + 5
        (["black", "black", "yellow", "yellow", "green"], 9),  # colours add up: 1 + 5 + 3
        (["yellow"] * 5, 4),  # yellow has only a 2-card row: 1 + 3
        (PLAIN, 1),  # nothing matches: the base cup
    ],
)
def test_a_chan_worked_cases(hand: list[str], cup: int) -> None:
    a_chan = new_game().characters["a"]
    assert a_chan.base == 1 and a_chan.exposed_by_fake
    assert a_chan.cup(hand) == cup


def test_cup_labels_follow_the_letters() -> None:
    assert [cup_label(n) for n in (-1, 0, 1, 9, 10, 12)] == ["AAA", "AA", "A", "I", "J", "L"]
    assert cup_label(27) == "27"
    assert [cup_ordinal(x) for x in ("aaa", "AA", "j", "L")] == [-1, 0, 10, 12]
    assert cup_ordinal("Q1") is None


def test_only_aaa_a_and_c_are_exposed_by_fake() -> None:
    exposed = {cid for cid, c in new_game().characters.items() if c.exposed_by_fake}
    assert exposed == {"aaa", "a", "c"}


def test_every_unknown_number_is_a_flagged_placeholder() -> None:
    game = new_game()
    paths = {p.path for p in game.placeholders}
    assert "meter" in paths and "max_laps" in paths
    for i, character in enumerate(game.options["characters"]):
        if character["id"] == "a":  # the seed's real data: not a placeholder
            assert not any(p.startswith(f"characters[{i}]") for p in paths)
        else:
            assert {f"characters[{i}].base", f"characters[{i}].rows"} <= paths
    assert game.meter[0] == (1, 1) and game.meter[-1] == (12, 12)  # A..L, minimum = ordinal


def test_option_errors_say_what_is_wrong() -> None:
    with pytest.raises(OptionError, match=r"meter\.Q1"):
        new_game(meter={"Q1": 3})
    with pytest.raises(OptionError, match="at least one character per player"):
        new_game(characters=new_game().options["characters"][:3])
    with pytest.raises(OptionError, match="end_pattern"):
        new_game(end_pattern=3)


# -- prepare: discards and their stake ------------------------------------------------------
def test_discards_are_public_cost_a_chip_each_and_draw_from_the_pile() -> None:
    game = new_game()
    state = start(game, ["a", "b", "c"], [PLAIN, FIVE_RED, ["blue"] * 5], pile_top=["yellow", "yellow", "black"])
    assert state.queue == [0, 1, 2]  # from the dealer, in seat order
    events = act(state, (0, Discard(("green", "green"))))
    assert kinds(events) == ["CardDiscarded", "CardDiscarded", "Discarded"]
    assert state.hands[0] == ["yellow", "yellow", "yellow", "blue", "white"]  # drew the pile's top two
    assert state.chips.stacks[0] == 49 - 1 and state.chips.contributions[0] == 2
    public = state.view(None)
    assert public["discards"][0] == ["green", "green"] and "hand" not in public
    act(state, (1, Discard(("red",))), (2, Discard(())))
    assert state.chips.contributions == [2, 1, 0]
    assert state.hands[1] == ["red", "red", "red", "red", "black"]
    assert state.phase == "open" and state.to_act() == {0}


def test_discard_limits() -> None:
    state = start(new_game(), ["a", "b", "c"], [PLAIN, FIVE_RED, ["blue"] * 5])
    before = state.to_json()
    with pytest.raises(IllegalAction) as too_many:
        state.apply(0, Discard(("green", "green", "blue")))
    assert too_many.value.code == "too_many_discards"
    with pytest.raises(IllegalAction) as not_held:
        state.apply(0, Discard(("red",)))
    assert not_held.value.code == "card_not_held"
    assert state.to_json() == before  # refused actions change nothing
    assert len(state.legal_actions(0)) == 1 + 4 + 7  # keep, 4 single colours, 7 pairs


def pattern_two_at_lap(lap: int) -> BraffState:
    game = new_game(end_pattern=2)
    state = game.new_match(NAMES[:3], seed=1)
    assert isinstance(state, BraffState)
    data = json.loads(state.to_json())
    data["state"]["round"] = (lap - 1) * 3  # the round before the lap starts
    data["state"]["phase"] = "first_dealer"
    state = game.from_json(json.dumps(data))
    assert isinstance(state, BraffState)
    state.apply(CHANCE, FirstDealer(0))
    state.apply(CHANCE, deal(game, ["a", "b", "c"], [PLAIN, FIVE_RED, ["blue"] * 5]))
    return state


@pytest.mark.parametrize(("lap", "cost"), [(1, 1), (2, 2), (3, 3)])
def test_pattern_two_discards_cost_the_lap_number_per_card(lap: int, cost: int) -> None:
    state = pattern_two_at_lap(lap)
    assert state.lap == lap and state.view(None)["discard_cost"] == cost
    events = state.apply(0, Discard(("green", "green")))
    assert events[-1].stake == 2 * cost and state.chips.contributions[0] == 2 * cost


def test_a_player_cannot_discard_more_than_they_can_pay() -> None:
    state = start(new_game(), ["a", "b", "c"], [PLAIN, FIVE_RED, ["blue"] * 5], stacks=[1, 50, 50])
    assert {len(a.cards) for a in state.legal_actions(0)} == {0, 1}
    with pytest.raises(IllegalAction) as refused:
        state.apply(0, Discard(("green", "green")))
    assert refused.value.code == "cannot_pay_discard"


# -- highest: open, call, raise, drop, all-in ---------------------------------------------
def test_dealer_opens_with_at_least_the_cup_minimum() -> None:
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    keep_all(state)
    with pytest.raises(IllegalAction) as low:
        state.apply(0, Raise("D", 3))
    assert low.value.code == "stake_too_low" and low.value.details["min"] == 4
    with pytest.raises(IllegalAction) as off:
        state.apply(0, Raise("M", 13))
    assert off.value.code == "not_on_meter"
    events = state.apply(0, Raise("D", 5))  # more than the minimum is allowed
    assert kinds(events) == ["Opened"] and state.chips.contributions[0] == 5
    assert state.view(None)["highest"] == {"seat": 0, "cup": "D", "ordinal": 4}
    assert state.to_act() == {1}


def test_dealer_opening_must_also_match_a_larger_discard_stake() -> None:
    # [decided here] the opening follows the raise rule: max(cup minimum, highest stake)
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    act(state, (0, Discard(())), (1, Discard(("green", "green"))), (2, Discard(())))
    assert state.required_stake("A") == 2
    with pytest.raises(IllegalAction):
        state.apply(0, Raise("A", 1))
    state.apply(0, Raise("A", 2))


def test_call_brings_the_stake_up_to_the_highest_stake() -> None:
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    act(state, (0, Discard(())), (1, Discard(("green",))), (2, Discard(())))
    state.apply(0, Raise("E", 5))
    events = state.apply(1, Call())
    assert kinds(events) == ["Called"] and events[0].stake == 5
    assert state.chips.contributions == [5, 5, 0] and state.chips.stacks[1] == 45


def test_raise_needs_a_bigger_cup_and_the_larger_of_its_minimum_and_the_highest_stake() -> None:
    # [decided] a raise brings the stake to at least max(cup minimum, highest stake)
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    keep_all(state)
    state.apply(0, Raise("C", 8))
    with pytest.raises(IllegalAction) as smaller:
        state.apply(1, Raise("C", 8))
    assert smaller.value.code == "cup_not_bigger"
    with pytest.raises(IllegalAction) as cheap:
        state.apply(1, Raise("D", 4))  # D's minimum is 4, but the highest stake is 8
    assert cheap.value.details["min"] == 8
    state.apply(1, Raise("D", 8))
    assert state.view(None)["highest"]["seat"] == 1


def test_a_raise_costs_nothing_more_when_the_stake_already_meets_it() -> None:
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    keep_all(state)
    state.apply(0, Raise("A", 1))
    state.apply(1, Raise("B", 4))
    state.apply(2, Call())
    state.apply(0, Call())  # the dealer calls the 4
    events = state.apply(1, Raise("C", 4))  # play returned to the highest: C needs only 3
    assert kinds(events) == ["Raised"] and state.chips.contributions[1] == 4


def test_betting_ends_when_play_returns_to_the_highest_player_and_they_stand() -> None:
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    keep_all(state)
    state.apply(0, Raise("B", 2))
    act(state, (1, Call()), (2, Call()))
    assert state.to_act() == {0} and Stand() in state.legal_actions(0)
    assert Drop() not in state.legal_actions(0)  # [decided here] the highest cannot drop
    state.apply(0, Stand())
    assert state.phase == "doubt"


def test_drop_leaves_the_chips_in_the_pot_and_the_last_player_wins_unseen() -> None:
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    act(state, (0, Discard(())), (1, Discard(("green",))), (2, Discard(())))
    state.apply(0, Raise("C", 3))
    state.apply(1, Drop())
    events = state.apply(2, Drop())
    assert kinds(events)[:3] == ["Dropped", "WonUnseen", "RoundStarted"]
    assert (events[1].winner, events[1].amount) == (0, 4)
    assert "Shown" not in kinds(events)
    assert state.chips.stacks[:3] == [51, 49, 50]
    assert state.last_round is not None and state.last_round["shown"] == []  # cards stay hidden


def test_all_in_only_when_a_call_cannot_be_paid_and_once_per_round() -> None:
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN], stacks=[50, 5, 5])
    keep_all(state)
    state.apply(0, Raise("J", 10))
    assert AllIn() in state.legal_actions(1) and Call() not in state.legal_actions(1)
    events = state.apply(1, AllIn())
    assert kinds(events) == ["WentAllIn"] and events[0].stake == 5
    assert state.legal_actions(2) == [Drop()]  # one all-in per round: nothing else is affordable
    with pytest.raises(IllegalAction) as taken:
        state.apply(2, AllIn())
    assert taken.value.code == "all_in_taken"
    state.apply(2, Drop())
    # the all-in player is skipped: back to the dealer, who may raise or stand
    assert state.to_act() == {0}


def test_all_in_is_refused_when_the_call_is_affordable() -> None:
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    keep_all(state)
    state.apply(0, Raise("B", 2))
    with pytest.raises(IllegalAction) as refused:
        state.apply(1, AllIn())
    assert refused.value.code == "can_call"


def test_an_all_in_player_wins_at_most_their_own_stake_from_each_other_player() -> None:
    # [decided] side pots as in poker. Seat 2 (all-in for 5) has the biggest cup.
    game = new_game()
    state = start(game, ["b", "e", "a"], [PLAIN, PLAIN, FIVE_RED], stacks=[50, 50, 5])
    keep_all(state)
    state.apply(0, Raise("C", 10))  # dealer B-chan: 2 + 3 (two green) + 1 = 6
    state.apply(1, Call())  # E-chan: 5
    state.apply(2, AllIn())  # A-chan with five red: 10
    state.apply(0, Stand())
    act(state, (0, Doubt("not_enough")), (1, Doubt("not_enough")), (2, Doubt("not_enough")))
    # main pot 5 + 5 + 5 = 15 to seat 2; the side pot 5 + 5 = 10 goes to seat 0 (6 beats 5)
    assert state.chips.stacks[:3] == [50, 40, 15]
    assert state.carry == 0


def test_a_dealer_who_cannot_afford_the_meter_opens_the_lowest_cup_all_in() -> None:
    # [decided here]: reachable when another player's discard stake is above the dealer's chips
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN], stacks=[1, 50, 50])
    act(state, (0, Discard(())), (1, Discard(("green", "green"))), (2, Discard(())))
    assert state.legal_actions(0) == [AllIn()]
    events = state.apply(0, AllIn())
    assert kinds(events) == ["OpenedAllIn"] and state.all_in == 0 and state.chips.stacks[0] == 0


# -- doubt and show --------------------------------------------------------------------------
def to_doubt(state: BraffState, cup: str = "B", stake: int = 2) -> None:
    keep_all(state)
    state.apply(0, Raise(cup, stake))
    for seat in range(1, len(state.players)):
        state.apply(seat, Call())
    state.apply(0, Stand())


def test_the_doubt_chain_runs_from_the_dealer_to_the_next_player_still_in() -> None:
    state = start(new_game(), ["a", "b", "c", "d"], [FIVE_RED, PLAIN, PLAIN, PLAIN], dealer=1)
    keep_all(state)
    state.apply(1, Raise("B", 2))
    act(state, (2, Drop()), (3, Call()), (0, Call()), (1, Stand()))
    givers = []
    while state.phase == "doubt":
        (seat,) = state.to_act()
        givers.append(seat)
        state.apply(seat, Doubt("not_enough"))
    assert givers == [1, 3, 0]  # from the dealer, skipping the dropped seat 2
    doubts = [tuple(d) for d in state.last_round["doubts"]]
    assert doubts == [(1, 3, "not_enough"), (3, 0, "not_enough"), (0, 1, "not_enough")]
    assert sorted(r for _, r, _ in doubts) == sorted(givers)  # everyone gives and receives one


def test_fake_exposes_a_listed_character_holding_black() -> None:
    black = ["black", "red", "red", "red", "green"]  # A-chan: 1 + 5 = 6
    state = start(new_game(), ["b", "a", "d"], [PLAIN, black, PLAIN])
    to_doubt(state)
    events = act(state, (0, Doubt("fake")), (1, Doubt("not_enough")), (2, Doubt("not_enough")))
    assert [(e.seat, e.reason) for e in events if type(e).__name__ == "Exposed"] == [(1, "fake")]


def test_fake_does_not_expose_an_unlisted_character_or_white_cards() -> None:
    b_black = ["black", "black", "green", "green", "red"]  # B-chan (not exposed by fake!)
    a_white = ["white", "white", "red", "red", "red"]  # [decided] white is never exposed
    state = start(new_game(), ["a", "b", "c"], [a_white, b_black, PLAIN])
    to_doubt(state)
    events = act(state, (0, Doubt("fake")), (1, Doubt("not_enough")), (2, Doubt("fake")))
    assert not [e for e in events if type(e).__name__ == "Exposed"]


def test_not_enough_exposes_a_cup_below_the_meter_and_the_dealer_bonus_counts() -> None:
    # meter D (4). Seat 0 is the dealer: A-chan with 3 red = 6 + 1 = 7 (safe).
    # Seat 1: A-chan cannot be (characters are unique), so C-chan PLAIN = 3 < 4: exposed.
    # Seat 2: D-chan PLAIN = 4, exactly the meter: safe.
    three_red = ["red", "red", "red", "green", "white"]
    state = start(new_game(), ["a", "c", "d"], [three_red, PLAIN, PLAIN])
    to_doubt(state, "D", 4)
    events = act(state, (0, Doubt("not_enough")), (1, Doubt("not_enough")), (2, Doubt("not_enough")))
    shown = {e.seat: (e.cup, e.dealer) for e in events if type(e).__name__ == "Shown"}
    assert shown == {0: (7, True), 1: (3, False), 2: (4, False)}
    assert [e.seat for e in events if type(e).__name__ == "Exposed"] == [1]
    won = [(e.winner, e.amount) for e in events if type(e).__name__ == "PotWon"]
    assert won == [(0, 12)]


def test_the_dealer_bonus_can_save_a_dealer_from_not_enough() -> None:
    # dealer C-chan PLAIN = 3 + 1 = 4 = meter D: not exposed
    state = start(new_game(), ["c", "d", "e"], [PLAIN, PLAIN, PLAIN])
    to_doubt(state, "D", 4)
    events = act(state, (0, Doubt("not_enough")), (1, Doubt("not_enough")), (2, Doubt("not_enough")))
    assert not [e for e in events if type(e).__name__ == "Exposed"]


def test_a_single_survivor_wins_the_pot_whatever_their_cup() -> None:
    # PLAIN gives AA-chan 0 + 3 (+1 dealer) = 4, C-chan 3, B-chan 2 + 3 = 5; the meter is E (5)
    state = start(new_game(), ["aa", "c", "b"], [PLAIN, PLAIN, PLAIN])
    to_doubt(state, "E", 5)
    events = act(state, (0, Doubt("not_enough")), (1, Doubt("fake")), (2, Doubt("not_enough")))
    # seat 1 got "not enough!" (3 < 5), seat 2 got "fake!" (B-chan: never exposed), seat 0 "not enough!"
    assert [e.seat for e in events if type(e).__name__ == "Exposed"] == [0, 1]
    assert [(e.winner, e.amount) for e in events if type(e).__name__ == "PotWon"] == [(2, 15)]


def test_ties_split_the_pot_and_the_odd_chip_carries_to_the_next_round() -> None:
    # dealer C-chan PLAIN 3 + 1 = 4 ties with D-chan PLAIN 4; B-chan with five black is 2
    state = start(new_game(), ["c", "d", "b"], [PLAIN, PLAIN, ["black"] * 5])
    keep_all(state)
    state.apply(0, Raise("A", 3))
    act(state, (1, Call()), (2, Call()), (0, Stand()))
    events = act(state, (0, Doubt("not_enough")), (1, Doubt("not_enough")), (2, Doubt("not_enough")))
    won = [(e.winner, e.amount, e.shared) for e in events if type(e).__name__ == "PotWon"]
    assert won == [(0, 4, True), (1, 4, True)]  # a pot of 9
    assert state.carry == 1 and kinds(events).count("Carried") == 1
    # the odd chip joins the next round's pot
    state.apply(CHANCE, deal(state.game, ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN]))
    keep_all(state)
    state.apply(1, Raise("B", 2))
    state.apply(2, Drop())
    events = state.apply(0, Drop())
    assert [(e.winner, e.amount) for e in events if type(e).__name__ == "WonUnseen"] == [(1, 3)]


def test_when_everyone_is_exposed_there_is_no_game_and_the_pot_carries_over() -> None:
    state = start(new_game(), ["aa", "c", "b"], [PLAIN, PLAIN, PLAIN])
    to_doubt(state, "F", 6)  # 4, 3 and 5 are all below F
    events = act(state, (0, Doubt("not_enough")), (1, Doubt("not_enough")), (2, Doubt("not_enough")))
    assert "NoGame" in kinds(events) and state.carry == 18
    assert sum(state.chips.stacks) + state.carry == 150
    # the carried pot goes to the next round's winner
    state.apply(CHANCE, deal(state.game, ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN]))
    keep_all(state)
    state.apply(1, Raise("A", 1))
    state.apply(2, Drop())
    events = state.apply(0, Drop())
    assert [(e.winner, e.amount) for e in events if type(e).__name__ == "WonUnseen"] == [(1, 19)]
    assert state.carry == 0


def test_a_no_game_in_the_last_round_loses_the_pot() -> None:
    state = start(new_game(), ["aa", "c", "b"], [PLAIN, PLAIN, PLAIN])
    data = json.loads(state.to_json())
    data["state"]["round"] = 3  # make this the last round of pattern 1 (3 players)
    state = state.game.from_json(json.dumps(data))
    to_doubt(state, "F", 6)
    events = act(state, (0, Doubt("not_enough")), (1, Doubt("not_enough")), (2, Doubt("not_enough")))
    assert kinds(events)[-1] == "MatchOver" and events[-1].unclaimed == 18
    assert state.is_over and sum(state.chips.stacks) == 132


# -- end of the match ------------------------------------------------------------------------
def finish_round(state: BraffState) -> list[Any]:
    """Everyone keeps their cards, the dealer opens A and the others drop."""
    keep_all(state)
    dealer = state.dealer
    assert dealer is not None
    events = state.apply(dealer, Raise("A", 1))
    while state.phase == "bet":
        (seat,) = state.to_act()
        events += state.apply(seat, Drop())
    return events


def test_pattern_one_ends_after_everyone_has_dealt_once() -> None:
    game = new_game()
    hands = [[colour] * 5 for colour in ("red", "yellow", "blue", "green")]
    state = start(game, ["a", "b", "c", "d"], hands, dealer=2)
    dealers = []
    while not state.is_over:
        if state.phase == "shuffle":
            state.apply(CHANCE, deal(game, ["a", "b", "c", "d"], hands))
        dealers.append(state.dealer)
        finish_round(state)
    assert dealers == [2, 3, 0, 1] and state.round == 4


def test_pattern_one_ends_when_someone_has_no_chips() -> None:
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN], stacks=[50, 50, 1])
    keep_all(state)
    state.apply(0, Raise("A", 1))
    state.apply(1, Call())
    state.apply(2, Call())  # seat 2 is now at 0 chips
    state.apply(0, Stand())
    events = act(state, (0, Doubt("not_enough")), (1, Doubt("not_enough")), (2, Doubt("not_enough")))
    assert state.is_over and state.round == 1 and kinds(events)[-1] == "MatchOver"
    assert state.result()["standings"][0] == {"rank": 1, "seat": 0, "name": "ann", "chips": 52, "winner": True}


def test_pattern_two_keeps_lapping_until_the_lap_limit() -> None:
    game = new_game(end_pattern=2, max_laps=3)
    state = start(game, ["a", "b", "c"], [PLAIN] * 3)
    laps = set()
    while not state.is_over:
        if state.phase == "shuffle":
            state.apply(CHANCE, deal(game, ["a", "b", "c"], [PLAIN] * 3))
        laps.add(state.lap)
        finish_round(state)
    assert laps == {1, 2, 3} and state.round == 9


def test_ties_share_the_top_rank() -> None:
    state = start(new_game(), ["a", "b", "c"], [PLAIN] * 3)
    ranks = [(row["seat"], row["rank"], row["winner"]) for row in state.result()["standings"]]
    assert ranks == [(0, 1, True), (1, 1, True), (2, 1, True)]


# -- timeouts ----------------------------------------------------------------------------------
def test_timeout_actions_are_the_decided_defaults_and_always_legal() -> None:
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    assert state.timeout_action(0) == Discard(())
    keep_all(state)
    assert state.timeout_action(0) == Raise("A", 1)  # the cheapest opening
    state.apply(0, Raise("B", 2))
    assert state.timeout_action(1) == Drop()  # a call would cost chips
    state.apply(1, Call())
    state.apply(2, Drop())
    assert state.timeout_action(0) == Stand()
    state.apply(0, Stand())
    assert state.timeout_action(0) == Doubt("not_enough")
    with pytest.raises(IllegalAction):
        state.timeout_action(1)


def test_a_free_call_is_the_timeout_action() -> None:
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    act(state, (0, Discard(())), (1, Discard(("green", "green"))), (2, Discard(())))
    state.apply(0, Raise("B", 2))
    assert state.timeout_action(1) == Call()  # already staked 2 by discarding


def test_wrong_phase_and_wrong_seat_are_refused_without_change() -> None:
    state = start(new_game(), ["a", "b", "c"], [FIVE_RED, PLAIN, PLAIN])
    before = state.to_json()
    for seat, action, code in [
        (0, Call(), "wrong_phase"),
        (1, Discard(()), "not_your_turn"),
        (CHANCE, FirstDealer(0), "not_your_turn"),
    ]:
        with pytest.raises(IllegalAction) as refused:
            state.apply(seat, action)
        assert refused.value.code == code
    assert state.to_json() == before


# -- option and list-size guards (issue 11, item 4) ----------------------------------------
@pytest.mark.parametrize("meter", [{"A": 1, "a": 5}, {"aa": 0, "AA": 1}, {"B": 2, "b": 2}])
def test_one_cup_named_twice_on_the_meter_is_refused(meter: dict[str, int]) -> None:
    with pytest.raises(OptionError) as refused:
        new_game(meter=meter)
    assert refused.value.code == "duplicate_cup"
    assert "same cup" in str(refused.value)


def deep_stacks_at_open(chips: int) -> tuple[Braff, BraffState]:
    game = new_game(starting_chips=chips)
    state = game.new_match(NAMES[:3], seed=4)
    assert isinstance(state, BraffState)
    state.apply(CHANCE, FirstDealer(0))
    state.apply(CHANCE, state.sample_chance(Rng(4)))
    while state.phase == "discard":
        state.apply(min(state.to_act()), Discard(()))
    return game, state


def test_deep_stacks_list_one_range_per_cup_not_one_raise_per_chip() -> None:
    game, state = deep_stacks_at_open(100_000)
    legal = state.legal_actions(0)
    assert len(legal) == len(game.meter)  # one entry per cup, not 1.2 million raises
    assert all(isinstance(entry, ActionRange) for entry in legal)
    assert [entry.first for entry in legal] == [Raise(cup_label(c), m) for c, m in game.meter]
    assert all(entry.last == 100_000 for entry in legal)
    assert legal_count(legal) == sum(100_000 - m + 1 for _, m in game.meter)
    assert contains(legal, Raise("C", 99_999)) and not contains(legal, Raise("C", 100_001))
    assert not contains(legal, Raise("C", 2))  # below the cup's minimum
    # every action a range stands for is one apply accepts; the entry itself is not
    rng = Rng(8)
    for _ in range(20):
        trial = game.from_json(state.to_json())
        trial.apply(0, rng.pick(trial.legal_actions(0)))
    refused_entry = game.from_json(state.to_json())
    with pytest.raises(IllegalAction) as refused:
        refused_entry.apply(0, legal[0])
    assert refused.value.code == "unknown_action"


def test_shallow_stacks_still_list_every_raise() -> None:
    _, state = deep_stacks_at_open(20)
    legal = state.legal_actions(0)
    assert not any(isinstance(entry, ActionRange) for entry in legal)
    assert Raise("A", 20) in legal and Raise("A", 1) in legal
    assert len(legal) <= MAX_LISTED


def test_the_bot_and_the_timeout_play_deep_stacks_to_the_end() -> None:
    game = new_game(starting_chips=100_000)
    state = game.new_match(NAMES[:4], seed=2)
    log = play_out(state, game.bot(), Rng(2))
    assert state.is_over and log
    assert sum(state.chips.stacks) + state.carry == 400_000
    _, fresh = deep_stacks_at_open(100_000)
    timeout = fresh.timeout_action(0)
    assert contains(fresh.legal_actions(0), timeout)
