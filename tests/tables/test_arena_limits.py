"""Arena files that are well-formed but harmful: huge bounds, sign clashes, odd prizes, control text."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from table_support import ARENA_FILE

from mcbridge.tables.arena_limits import MAX_VOLUME, PRIZE_ITEMS
from mcbridge.tables.config import ArenaError, load_arena

SHIPPED = ARENA_FILE.read_text(encoding="utf-8")
BOUNDS = "bounds: {from: [0, 0, 0], to: [36, 7, 16]}"


def problems_of(tmp_path: Path, old: str, new: str) -> list[str]:
    assert SHIPPED.count(old) == 1, old
    path = tmp_path / "arena.yaml"
    path.write_text(SHIPPED.replace(old, new), encoding="utf-8")
    with pytest.raises(ArenaError) as exc:
        load_arena(path)
    assert all(p.startswith(f"{path}:") for p in exc.value.problems)
    return exc.value.problems


def line_of(needle: str) -> int:
    [line] = [i + 1 for i, text in enumerate(SHIPPED.splitlines()) if needle in text]
    return line


def test_the_shipped_arena_is_within_every_limit() -> None:
    arena = load_arena(ARENA_FILE)
    assert arena.bounds.volume < MAX_VOLUME and arena.prize["item"] in PRIZE_ITEMS


@pytest.mark.parametrize(
    ("bounds", "words"),
    [
        ("to: [99999, 7, 99999]", "hold 80,000,000,000 blocks; an arena may hold at most 1,000,000"),
        ("to: [36, 600, 16]", "601 blocks high; a world is 256 high"),
    ],
)
def test_bounds_that_would_exhaust_memory_are_refused_before_anything_is_built(
    tmp_path: Path, bounds: str, words: str
) -> None:
    [problem] = problems_of(tmp_path, BOUNDS, BOUNDS.replace("to: [36, 7, 16]", bounds))
    assert f"arena.yaml:{line_of(BOUNDS)}:9: bounds " in problem
    assert words in problem
    assert problem.endswith(("shrink 'bounds'", "lower 'bounds'"))


def test_the_largest_allowed_arena_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    path.write_text(SHIPPED.replace(BOUNDS, "bounds: {from: [0, 0, 0], to: [199, 24, 199]}"), encoding="utf-8")
    assert load_arena(path).bounds.volume == MAX_VOLUME


def test_two_signs_of_one_booth_on_one_cell_are_one_problem_for_the_template(tmp_path: Path) -> None:
    old = "through: {at: [6, 3, 10]"
    [problem] = problems_of(tmp_path, old, "through: {at: [5, 3, 10]")
    assert f":{line_of(old)}:19: sign 'through' is on the same cell (5, 3, 10) as sign 'plus'" in problem
    assert f"arena.yaml:{line_of('plus: {at:')}:16)" in problem
    assert problem.endswith("a cell holds one sign: move one of them")


def test_two_board_signs_on_one_cell_are_refused(tmp_path: Path) -> None:
    [problem] = problems_of(tmp_path, "status: {at: [17, 4, 2]", "status: {at: [16, 4, 2]")
    assert "board sign 'status' is on the same cell (16, 4, 2) as board sign 'title'" in problem


def test_an_unknown_prize_item_names_the_items_a_table_can_give(tmp_path: Path) -> None:
    [problem] = problems_of(tmp_path, "item: diamond", "item: diamnd")
    assert f":{line_of('item: diamond')}:15: prize.item: 'diamnd' is not an item a table can give" in problem
    assert "did you mean 'diamond'?" in problem and "emerald, gold_ingot, iron_ingot" in problem


@pytest.mark.parametrize(
    ("escaped", "named"),
    [
        ("\\n", "U+000A (LINE FEED)"),
        ("\\0", "U+0000 (NUL)"),
        ("\\u202e", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("\\u200b", "U+200B (ZERO WIDTH SPACE)"),
        ("\\e[31m", "U+001B (ESCAPE)"),
    ],
)
def test_control_characters_in_names_are_refused_and_named(tmp_path: Path, escaped: str, named: str) -> None:
    [problem] = problems_of(tmp_path, "name: wool-bluff-1", f'name: "wool{escaped}bluff"')
    assert f"arena.yaml:{line_of('name: wool-bluff-1')}:7: name: " in problem
    assert f"contains {named}" in problem and problem.endswith("remove it")
    assert "\n" not in problem and "\x00" not in problem and "\u202e" not in problem


def test_japanese_names_are_fine(tmp_path: Path) -> None:
    path = tmp_path / "ja.yaml"
    path.write_text(SHIPPED.replace("name: wool-bluff-1", "name: 羊毛ブラフ 1"), encoding="utf-8")
    assert load_arena(path).name == "羊毛ブラフ 1"


def test_keys_with_control_characters_stay_one_escaped_line(tmp_path: Path) -> None:
    problems = problems_of(tmp_path, "options: {turns: 10}", 'options: {turns: 10, "a\\nb\\u202e": 1}')
    assert problems and all("\n" not in p and "\u202e" not in p for p in problems)
    assert any("a\\nb\\u202e" in p for p in problems), problems


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ('roof: "5:5"', 'roof: "505"', "materials.roof: block id 505 does not exist in Minecraft 1.12"),
        ('floor: "43:8"', 'floor: "254"', "materials.floor: block id 254 does not exist"),
        ('wall: "98:0"', "wall: glass", "materials.wall: glass is see-through"),
        ('roof: "5:5"', "roof: red_stained_glass_pane", "would see the hand inside"),
        ('wall: "98:0"', "wall: air", "materials.wall: air is see-through"),
    ],
)
def test_materials_must_exist_and_booths_must_hide_their_hands(tmp_path: Path, old: str, new: str, words: str) -> None:
    [problem] = problems_of(tmp_path, old, new)
    assert f"arena.yaml:{line_of(old)}:" in problem and words in problem


def test_a_see_through_board_or_floor_is_allowed(tmp_path: Path) -> None:
    path = tmp_path / "glass.yaml"
    path.write_text(SHIPPED.replace('board: "155:0"', "board: glass"), encoding="utf-8")
    assert load_arena(path).materials["board"].id == 20


def test_a_sign_with_nothing_behind_it_is_refused(tmp_path: Path) -> None:
    old = "title: {at: [16, 4, 2]"
    [problem] = problems_of(tmp_path, old, "title: {at: [16, 4, 4]")
    assert f"arena.yaml:{line_of(old)}:17: board sign 'title' faces south but the block behind it (16, 4, 3)" in problem
    assert problem.endswith("a wall sign needs a block to hang on: move it against a wall")
    old = "info: {at: [5, 2, 12], faces: north}"
    [problem] = problems_of(tmp_path, old, "info: {at: [5, 2, 12], faces: south}")  # hangs on the interior's air
    assert "sign 'info' faces south" in problem


SEAT_SIGN_LINES = [line for line in SHIPPED.splitlines() if line.endswith("10], faces: south}")]  # inside the booth


@given(st.lists(st.tuples(st.integers(2, 6), st.integers(1, 4)), min_size=len(SEAT_SIGN_LINES),
                max_size=len(SEAT_SIGN_LINES)))  # fmt: skip
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_a_clash_is_reported_exactly_when_two_booth_signs_share_a_cell(
    tmp_path: Path, cells: list[tuple[int, int]]
) -> None:
    text = SHIPPED
    for line, (x, y) in zip(SEAT_SIGN_LINES, cells, strict=True):
        name = line.split(":")[0].strip()
        text = text.replace(line, f"    {name}: {{at: [{x}, {y}, 10], faces: south}}")
    path = tmp_path / "signs.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_arena(path)
        problems: list[str] = []
    except ArenaError as exc:
        problems = exc.problems
    clashes = [p for p in problems if "a cell holds one sign" in p]
    assert len(clashes) == len(cells) - len(set(cells))
