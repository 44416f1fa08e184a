"""Golden playthroughs: `mcbridge rules GAME --seed 1 --bots --transcript` for every game and
ruleset, compared byte for byte with tests/golden/. A difference means the rules, a bot, the
RNG stream or the transcript format changed: if that was meant, run `make golden` and commit
the new files with the change that explains them."""

from __future__ import annotations

import shlex

import pytest
from contract import VARIANT_IDS, VARIANTS, Variant
from golden import GOLDEN, path, render

from mcbridge.cli import main
from mcbridge.games.cli import option_arg, parse_option


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_the_transcript_matches_its_golden_file(variant: Variant) -> None:
    golden = path(variant)
    assert golden.exists(), f"no golden transcript for {variant.id}: run `make golden` and review it"
    expected = golden.read_text(encoding="utf-8")
    actual = render(variant)
    if actual != expected:
        first = next(
            (i for i, (a, b) in enumerate(zip(actual.splitlines(), expected.splitlines(), strict=False)) if a != b),
            min(len(actual.splitlines()), len(expected.splitlines())),
        )
        pytest.fail(
            f"{golden.name} differs from line {first + 1}:\n"
            f"  golden: {expected.splitlines()[first] if first < len(expected.splitlines()) else '<end>'}\n"
            f"  now:    {actual.splitlines()[first] if first < len(actual.splitlines()) else '<end>'}\n"
            "If the change is meant, run `make golden` and commit the new transcript."
        )


def test_every_golden_file_belongs_to_a_game_and_ruleset() -> None:
    assert {p.name for p in GOLDEN.glob("*.txt")} == {path(v).name for v in VARIANTS}


@pytest.mark.parametrize("variant", VARIANTS, ids=VARIANT_IDS)
def test_the_first_line_is_the_command_that_prints_the_file(
    variant: Variant, capsys: pytest.CaptureFixture[str]
) -> None:
    text = path(variant).read_text(encoding="utf-8")
    prompt, mcbridge, *args = shlex.split(text.splitlines()[0])
    assert (prompt, mcbridge) == ("$", "mcbridge") and "--transcript" in args
    assert main(args) == 0
    assert capsys.readouterr().out == text


@pytest.mark.parametrize(
    ("value", "arg"),
    [
        ("perudo", "ruleset=perudo"),
        ("3", 'ruleset="3"'),
        (3, "ruleset=3"),
        ({"a": [1]}, 'ruleset={"a": [1]}'),
        (None, "ruleset=null"),
    ],
)
def test_option_arguments_read_back_as_the_same_value(value: object, arg: str) -> None:
    assert option_arg("ruleset", value) == arg
    assert parse_option(arg) == ("ruleset", value)


def test_a_transcript_is_the_same_in_every_run_and_names_what_it_played() -> None:
    variant = VARIANTS[0]
    text = render(variant)
    assert text == render(variant)
    lines = text.splitlines()
    assert lines[0].startswith(f"$ mcbridge rules {variant.game} --seed 1 ")
    assert lines[1].startswith(f"game {variant.game}, seed 1, players ")
    assert any(line.startswith("#1 chance: {") for line in lines)
    assert any(line.startswith("rank 1: ") and line.endswith(", winner") for line in lines)
    assert lines[-1].startswith('result {"over":true')
