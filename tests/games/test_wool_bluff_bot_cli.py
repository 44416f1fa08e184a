"""The Wool Bluff bot (sensible, from its own view) and `mcbridge rules wool_bluff`."""

from __future__ import annotations

import pytest
from test_wool_bluff_helpers import deal, discard, new_match, play, play_match, wool

from mcbridge.cli import main
from mcbridge.core import CHANCE, Action, Rng
from mcbridge.core.policies import RandomPolicy
from mcbridge.games.wool_bluff import Bid, Bluff, Reveal, Through, WoolBluffBot, WoolBluffState

A, B = 0, 1


def bot_choice(state: WoolBluffState, seat: int) -> Action:
    return WoolBluffBot().choose(state.view(seat), state.legal_actions(seat), Rng(0))


def test_bot_calls_bluff_on_a_bid_its_hand_makes_impossible_and_passes_a_sure_one() -> None:
    state = new_match(2)
    deal(state, [wool(red=8, white=2), wool()], first=A)
    play(state, (A, Bid("blue", 15)))  # B holds 10 blue: at least 10 are certain, 15 unlikely
    assert bot_choice(state, B) == Bluff()
    state = new_match(2)
    deal(state, [wool(red=8, white=2), wool()], first=A)
    play(state, (A, Bid("blue", 9)))
    assert bot_choice(state, B) == Through()


def test_bot_opens_with_what_its_own_hand_supports() -> None:
    state = new_match(2)
    deal(state, [wool(red=8, white=2), wool()], first=A)
    choice = bot_choice(state, A)
    assert isinstance(choice, Bid)
    assert choice.colour == "red" and choice.count >= 10


def test_bot_calls_bluff_when_that_is_all_it_may_do() -> None:
    state = new_match(2)
    deal(state, [wool(), wool()], first=A)
    play(state, (A, Bid("red", 20)), (B, Through()))
    assert bot_choice(state, B) == Bluff()


def test_bot_discards_its_least_useful_wool_and_keeps_white() -> None:
    state = new_match(2)
    deal(state, [wool(), wool()], first=A)
    play(state, (A, Bid("red", 3)), (B, Bluff()))
    state.apply(CHANCE, Reveal())  # no red: A +3
    deal(state, [{"red": 5, "green": 2, "yellow": 1, "white": 2}, wool()])
    assert bot_choice(state, A) == discard(yellow=1, green=2)


def test_bot_beats_random_play_by_a_clear_margin() -> None:
    bot, rand = WoolBluffBot(), RandomPolicy()
    torches = {"bot": 0, "random": 0}
    wins = {"bot": 0, "random": 0}
    matches = 200
    for m in range(matches):
        bots = {m % 4, (m + 2) % 4}  # two of each, rotating round the table
        state = new_match(4, seed=m)
        play_match(state, [bot if s in bots else rand for s in range(4)], Rng(m))
        for row in state.result()["standings"]:
            kind = "bot" if row["seat"] in bots else "random"
            torches[kind] += row["torches"]
            wins[kind] += row["winner"]
    mean = {kind: total / (2 * matches) for kind, total in torches.items()}
    assert mean["bot"] * 2 < mean["random"], mean
    assert wins["bot"] > 0.9 * matches and wins["bot"] > 10 * wins["random"], wins


# -- the terminal match ------------------------------------------------------------------------
def run_cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["rules", "wool_bluff", *args])
    return code, capsys.readouterr().out


def test_cli_plays_a_full_bot_match_with_turns_bids_bluffs_penalties_and_standings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = run_cli(capsys, "--seed", "7", "--players", "4", "--bots")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("predicts first.")
    assert "Turn 1: " in out and "Turn 2: " in out
    assert " receives 10 wool." in out
    assert ": at least " in out  # bids
    assert ": THROUGH" in out
    assert " calls BLUFF on " in out
    assert "Reveal: " in out and " count for " in out
    assert "torch(es)" in out  # penalties
    assert "The match is over." in out
    standings = [line for line in lines if line.startswith("#")]
    assert len(standings) == 4
    assert standings[0].startswith("#1 ")
    assert sorted(line.split()[1].rstrip(":") for line in standings) == ["Bot1", "Bot2", "Bot3", "Bot4"]
    assert "Wool Bluff - seed 7" in out


def test_cli_same_seed_same_output_other_seed_other_match(capsys: pytest.CaptureFixture[str]) -> None:
    first = run_cli(capsys, "--seed", "7", "--players", "4", "--bots")
    again = run_cli(capsys, "--seed", "7", "--players", "4", "--bots")
    other = run_cli(capsys, "--seed", "8", "--players", "4", "--bots")
    assert first == again
    assert other[1] != first[1]


def test_cli_prints_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(capsys, "--seed", "7", "--players", "3", "--bots", "--lang", "ja")
    assert code == 0
    assert "第1ターン" in out and "個以上！" in out and "にブラフ！" in out and "トーチ" in out
    assert "試合終了！" in out and "羊毛ブラフ" in out and "1位 " in out


def test_cli_json_result_and_options(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(capsys, "--seed", "3", "--players", "2", "--bots", "--option", "turns=1", "--json")
    assert code == 0
    assert out.count("Turn ") == 1
    assert '"over": true' in out and '"standings"' in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--option", "turns=0"], "error: option 'turns': 0 is not allowed; expected a whole number from 1 to 1000"),
        (["--option", "trns=3"], "did you mean 'turns'?"),
        (
            ["--option", "tamper=kick"],
            "error: option 'tamper': 'kick' is not allowed; expected one of 'warn', 'forfeit'",
        ),
        (["--players", "9"], "error: option 'players'"),
    ],
)
def test_cli_bad_options_are_clear_errors_with_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out = run_cli(capsys, "--seed", "7", "--bots", *args)
    assert code == 2
    assert message in out
    assert "Traceback" not in out


def test_cli_needs_bots_and_lists_placeholders(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_cli(capsys, "--seed", "7")
    assert code == 2 and "--bots" in out
    code, out = run_cli(capsys, "--placeholders")
    assert code == 0
    assert out.startswith("wool_bluff: 0 placeholder value(s) in ") and "seeds/wool_bluff.yaml" in out
