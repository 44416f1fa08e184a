"""Arena YAML: the shipped arena validates; every kind of mistake names file:line:column and a fix."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from table_support import ARENA_FILE

from mcbridge import games
from mcbridge.cli import main
from mcbridge.tables.kits import games_with_kits

SHIPPED = ARENA_FILE.read_text(encoding="utf-8")
WHERE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?P<message>.+)$")


def line_of(text: str, needle: str) -> int:
    """1-based number of the line holding `needle` (which must occur exactly once)."""
    hits = [i + 1 for i, line in enumerate(text.splitlines()) if needle in line]
    assert len(hits) == 1, f"{needle!r} occurs on lines {hits}"
    return hits[0]


def edited(old: str, new: str) -> str:
    assert SHIPPED.count(old) == 1, old
    return SHIPPED.replace(old, new)


def validate(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> list[re.Match[str]]:
    """Run `mcbridge validate` on `text`; it must fail, and every problem line must be placed."""
    path = tmp_path / "arena.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1].endswith(f"problem(s) in {path}")
    problems = [WHERE.match(line) for line in out[:-1]]
    assert problems and all(problems), out
    assert all(p and p["file"] == str(path) for p in problems)
    return [p for p in problems if p]


def test_the_shipped_arena_validates_from_the_command_line() -> None:
    run = subprocess.run([sys.executable, "-m", "mcbridge.cli", "validate", str(ARENA_FILE)],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.startswith("OK: ")
    assert "4 seats" in run.stdout


# (description, old text, new text, line to point at (a unique piece of the edited file), words of the fix)
MISTAKES = [
    ("unknown key", "  tamper: warn ", "  tampr: warn ", "tampr: warn", ["did you mean 'tamper'"]),
    ("unknown top-level key", "locale: ja ", "lokale: ja ", "lokale: ja", ["did you mean 'locale'"]),
    ("wrong type", 'floor: "43:8"', "floor: [43, 8]", "floor: [43, 8]", ["materials.floor", "expected text"]),
    ("out-of-range option", "options: {turns: 10}", "options: {turns: 0}", "options: {turns: 0}",
     ["turns", "from 1 to"]),
    ("out-of-range timeout", "timeouts: {bid: 60,", "timeouts: {bid: 0,", "timeouts: {bid: 0,",
     ["timeouts.bid", "from 1 to 3600"]),
    ("unknown choice", "  dispensing: booth ", "  dispensing: chest ", "dispensing: chest", ["booth", "give"]),
    ("timeout of no phase", "timeouts: {bid: 60,", "timeouts: {bidding: 60,", "timeouts: {bidding: 60,",
     ["timeouts.bidding", "not a phase of wool_bluff", "did you mean 'bid'"]),
    ("unknown game", "game: wool_bluff", "game: wool_blaff", "game: wool_blaff",
     ["not a registered game", "dice_bluff", "wool_bluff"]),
    ("a game setting at the top level", "locale: ja ", "tamper: forfeit\nlocale: ja ", "tamper: forfeit",
     ["'tamper' is a wool_bluff setting", "move it under 'wool_bluff:'"]),
    ("another game's section", "locale: ja ", "dice_bluff: {}\nlocale: ja ", "dice_bluff: {}",
     ["section of dice_bluff arenas", "game is wool_bluff"]),
]
#: a registered game that no table kit plays yet (none once every game has one)
NO_KIT = next((g for g in games.available() if g not in games_with_kits()), None)
if NO_KIT is not None:
    MISTAKES.append(("a game without a table kit", "game: wool_bluff", f"game: {NO_KIT}", f"game: {NO_KIT}",
                     [f"{NO_KIT} has no table kit yet", "games with table kits: wool_bluff"]))


@pytest.mark.parametrize(("old", "new", "point", "fix"), [m[1:] for m in MISTAKES], ids=[m[0] for m in MISTAKES])
def test_a_bad_value_is_placed_and_explained(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            old: str, new: str, point: str, fix: list[str]) -> None:
    text = edited(old, new)
    [problem] = validate(tmp_path, text, capsys)
    assert int(problem["line"]) == line_of(text, point)
    for words in fix:
        assert words in problem["message"]


def test_a_yaml_syntax_error_is_placed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = edited("locale: ja ", "locale: [ja ")
    [problem] = validate(tmp_path, text, capsys)
    assert "YAML syntax error" in problem["message"]
    assert line_of(text, "locale: [ja") <= int(problem["line"]) <= line_of(text, "locale: [ja") + 1


def test_a_duplicate_key_is_placed_at_the_second_one(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = edited("  tamper: warn ", "  tamper: warn\n  tamper: forfeit ")
    [problem] = validate(tmp_path, text, capsys)
    assert int(problem["line"]) == line_of(text, "tamper: forfeit")
    assert "duplicate key 'tamper'" in problem["message"]
    assert "once" in problem["message"]


def test_overlapping_seats_name_both_seats_and_how_to_fix(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    text = edited("  - at: [9, 0, 0]", "  - at: [3, 0, 0]")
    problems = validate(tmp_path, text, capsys)
    assert any("seat 1 overlaps seat 2" in p["message"] for p in problems)
    assert all("move the seats further apart" in p["message"] for p in problems)
    seat_lines = {line_of(text, "  - at: [0, 0, 0]"), line_of(text, "  - at: [3, 0, 0]")}
    assert {int(p["line"]) for p in problems} <= seat_lines


def test_a_region_outside_the_bounds_points_at_the_seat_that_sticks_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = edited("  - at: [27, 0, 0]", "  - at: [33, 0, 0]")
    problems = validate(tmp_path, text, capsys)
    assert all("seat 4" in p["message"] and "outside the arena bounds" in p["message"] for p in problems)
    assert all("move it or enlarge 'bounds'" in p["message"] for p in problems)
    # the seat's own line is what to move: the template is fine for the other three seats
    assert {int(p["line"]) for p in problems} == {line_of(text, "  - at: [33, 0, 0]")}


def test_a_board_sign_outside_the_bounds_is_placed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = edited("title: {at: [16, 4, 2]", "title: {at: [16, 4, -3]")
    [problem] = validate(tmp_path, text, capsys)
    assert int(problem["line"]) == line_of(text, "title: {at: [16, 4, -3]")
    assert "board.signs.title" in problem["message"] and "outside the arena bounds" in problem["message"]


def test_a_wool_wall_too_small_for_a_hand_is_reported_once(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    text = edited("wool_wall: {from: [2, 1, 8], to: [6, 2, 8]", "wool_wall: {from: [2, 1, 8], to: [4, 2, 8]")
    problems = validate(tmp_path, text, capsys)
    assert [int(p["line"]) for p in problems] == [line_of(text, "wool_wall: {from")]
    assert "holds 6 blocks but a hand is 10" in problems[0]["message"]
    assert "make it at least 10 blocks" in problems[0]["message"]


def test_every_problem_in_a_file_is_listed_in_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SHIPPED.replace("  - at: [27, 0, 0]", "  - at: [33, 0, 0]").replace(
        "wool_wall: {from: [2, 1, 8], to: [6, 2, 8]", "wool_wall: {from: [2, 1, 8], to: [4, 2, 8]")
    messages = " ".join(p["message"] for p in validate(tmp_path, text, capsys))
    assert "outside the arena bounds" in messages and "make it at least 10 blocks" in messages


def test_schema_is_json_with_every_top_level_key(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema["type"] == "object"
    assert set(schema["properties"]) >= {
        "name", "game", "origin", "facing", "bounds", "locale", "prize", "lobby",
        "timeouts", "options", "materials", "board", "seat_template", "seats",
    }
    assert set(schema["required"]) >= {"name", "origin", "seats", "seat_template"}
    assert schema["properties"]["game"]["enum"] == games_with_kits()  # every game with a kit
    [wool] = [b["then"] for b in schema["allOf"] if b["if"]["properties"]["game"]["const"] == "wool_bluff"]
    assert wool["properties"]["wool_bluff"]["properties"]["dispensing"]["enum"] == ["booth", "give"]
    assert set(wool["properties"]["timeouts"]["properties"]) == {"bid", "respond", "discard", "reveal", "absent"}
    assert "colour" in wool["properties"]["seat_template"]["properties"]["signs"]["required"]
