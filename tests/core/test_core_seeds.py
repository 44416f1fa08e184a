"""Seed files (mcbridge.core.seeds): schema checks with file:line:column, placeholder flags."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcbridge.core import OptionError
from mcbridge.core.options import Int, ListOf, Struct
from mcbridge.core.seeds import Placeholder, load_seed
from mcbridge.core.yamlmarks import YamlError
from mcbridge.games.wool_bluff import WoolBluff
from mcbridge.games.wool_bluff.options import SCHEMA

SEED = """\
game: wool_bluff
source: seeds/001.txt
spec: rules/wool_bluff.md
options:
  hand_size: 10
  turns: {value: 7, placeholder: "the seed gives no number"}
  min_players: 2
  max_players: 4
  weights: {red: 2, blue: 2, yellow: 2, green: 2, black: 2, white: 1}
  white_multiplier: 2
  tamper: warn
  timeouts:
    bid: 60
    respond: 30
    discard: {value: 45, placeholder: "a guess"}
    reveal: 60
  prize:
    item: diamond
    winner: 5
    others: 1
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "wool_bluff.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def load_with(tmp_path: Path, old: str, new: str) -> OptionError:
    assert old in SEED
    path = write(tmp_path, SEED.replace(old, new, 1))
    with pytest.raises(OptionError) as exc:
        load_seed("wool_bluff", SCHEMA, path)
    return exc.value


def test_a_good_seed_loads_with_placeholders_unwrapped_and_listed(tmp_path: Path) -> None:
    path = write(tmp_path, SEED)
    seed = load_seed("wool_bluff", SCHEMA, path)
    assert seed.options["turns"] == 7
    assert seed.options["timeouts"] == {"bid": 60, "respond": 30, "discard": 45, "reveal": 60}
    assert seed.placeholders == [
        Placeholder("turns", 7, "the seed gives no number"),
        Placeholder("timeouts.discard", 45, "a guess"),
    ]
    assert (seed.source, seed.spec, seed.file) == ("seeds/001.txt", "rules/wool_bluff.md", str(path))


def test_a_game_lists_the_placeholders_of_its_seed_file(tmp_path: Path) -> None:
    game = WoolBluff(seed_file=write(tmp_path, SEED))
    assert [(p.path, p.value) for p in game.placeholders] == [("turns", 7), ("timeouts.discard", 45)]
    assert game.options["turns"] == 7


def test_placeholders_inside_lists_are_named_by_index(tmp_path: Path) -> None:
    schema = Struct({"ladder": ListOf(Int(1, 9))})
    path = write(tmp_path, "game: g\noptions:\n  ladder: [1, {value: 2, placeholder: why}, 3]\n")
    seed = load_seed("g", schema, path)
    assert seed.options == {"ladder": [1, 2, 3]}
    assert seed.placeholders == [Placeholder("ladder[1]", 2, "why")]


def test_an_unknown_option_names_it_suggests_the_right_one_and_points_at_it(tmp_path: Path) -> None:
    err = load_with(tmp_path, "  hand_size: 10", "  hand_sise: 10")
    assert err.key == "hand_sise"
    assert err.where == f"{tmp_path / 'wool_bluff.yaml'}:5:14"
    message = str(err)
    assert message.startswith(f"{tmp_path / 'wool_bluff.yaml'}:5:14: option 'hand_sise': 10")
    assert "did you mean 'hand_size'?" in message
    assert "turns" in message  # the known keys are listed


@pytest.mark.parametrize(
    ("old", "new", "key", "value", "allowed", "line_col"),
    [
        ("  hand_size: 10", "  hand_size: ten", "hand_size", "'ten'", "a whole number from 1 to 64", "5:14"),
        ("  hand_size: 10", "  hand_size: 99", "hand_size", "99", "a whole number from 1 to 64", "5:14"),
        ("  hand_size: 10", "  hand_size: true", "hand_size", "True", "a whole number", "5:14"),
        ("  tamper: warn", "  tamper: kick", "tamper", "'kick'", "one of 'warn', 'forfeit'", "11:11"),
        ("    bid: 60", "    bid: 0", "timeouts.bid", "0", "a whole number from 1 to 3600", "13:10"),
        ("    bid: 60", "    bdi: 60", "timeouts.bdi", "60", "did you mean 'bid'?", "13:10"),
        ("    winner: 5", "    winner: -1", "prize.winner", "-1", "from 0 to 64", "19:13"),
        ("{red: 2,", "{purple: 2, red: 2,", "weights key", "'purple'", "one of 'red', 'blue'", "9:12"),
        ("white: 1}", "white: 1.5}", "weights.white", "1.5", "a whole number from 0 to 1000", "9:68"),
        ("turns: {value: 7", "turns: {value: x", "turns", "'x'", "a whole number from 1 to 1000", "6:10"),
        ("    bid: 60\n", "", "timeouts.bid", "None", "it is required", "13:5"),
    ],
)
def test_bad_values_name_key_value_what_is_allowed_and_where(
    tmp_path: Path, old: str, new: str, key: str, value: str, allowed: str, line_col: str
) -> None:
    err = load_with(tmp_path, old, new)
    assert err.key == key
    where = f"{tmp_path / 'wool_bluff.yaml'}:{line_col}"
    assert err.where == where
    assert str(err).startswith(f"{where}: option '{key}': {value} is not allowed; expected ")
    assert allowed in err.allowed


def test_unknown_top_level_keys_and_the_wrong_game_are_refused(tmp_path: Path) -> None:
    err = load_with(tmp_path, "source:", "sourc:")
    assert err.key == "sourc" and "did you mean 'source'?" in str(err)
    assert err.where is not None and err.where.endswith(":2:8")
    err = load_with(tmp_path, "game: wool_bluff", "game: dice_bluff")
    assert (err.key, err.value, err.allowed) == ("game", "dice_bluff", "'wool_bluff'")
    path = write(tmp_path, "- just\n- a list\n")
    with pytest.raises(OptionError, match="a mapping with game, source, options"):
        load_seed("wool_bluff", SCHEMA, path)


def test_yaml_problems_in_a_seed_are_located(tmp_path: Path) -> None:
    path = write(tmp_path, SEED.replace("    winner: 5", "    winner: 5\n    winner: 6"))
    with pytest.raises(YamlError, match=r":20:5: duplicate key 'winner'"):
        load_seed("wool_bluff", SCHEMA, path)
    with pytest.raises(YamlError, match="file not found"):
        load_seed("wool_bluff", SCHEMA, tmp_path / "missing.yaml")


def test_the_shipped_seed_loads_and_leaves_no_placeholders_open() -> None:
    game = WoolBluff()
    assert game.seed.file.endswith("seeds/wool_bluff.yaml")
    assert game.placeholders == []


@pytest.mark.parametrize("other", ["game: zebra_bluff", "game: wool_bluffs", "game: Wool_bluff"])
def test_a_seed_for_any_other_game_is_refused_whichever_way_its_name_sorts(tmp_path: Path, other: str) -> None:
    err = load_with(tmp_path, "game: wool_bluff", other)
    assert (err.key, err.allowed) == ("game", "'wool_bluff'")
