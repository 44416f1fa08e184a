"""Saving a match from its declared fields (core/persist.py): each annotation shape decodes
back to what was saved, and data of the wrong shape is refused naming the exact field.

Written to kill mutants bench/mutation.py found surviving in core/persist.py: the games'
round trips only use the shapes their states happen to declare.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbridge.core.errors import BadState
from mcbridge.core.persist import decode, dump, encode, load, saved_fields, scratch_fields


@dataclass(frozen=True)
class Point:
    x: int
    y: int


class Tag:
    """A `from_json` class: decoded through its own constructor."""

    def __init__(self, name: str) -> None:
        self.name = name

    def to_json(self) -> dict[str, str]:
        return {"tag": self.name}

    @classmethod
    def from_json(cls, data: Any) -> Tag:
        return cls(data["tag"])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tag) and other.name == self.name


class Base:
    game: object
    turn: int
    _cache: dict[str, int] | None


class Match(Base):
    phase: Literal["bid", "over"]
    hands: list[list[int]]
    score: dict[int, float]
    pair: tuple[int, str]
    runs: tuple[int, ...]
    point: Point | None
    tag: Tag
    note: str | None
    free: Any


def match() -> Match:
    m = Match()
    m.game = object()
    m.turn, m.phase, m.hands = 3, "bid", [[1, 2], []]
    m.score, m.pair, m.runs = {0: 1.5, -2: 2.0}, (4, "a"), (1, 2, 3)
    m.point, m.tag, m.note, m.free = Point(1, 2), Tag("t"), None, {"k": [1]}
    m._cache = {"x": 1}
    return m


def test_declared_fields_come_base_first_without_game_or_scratch() -> None:
    assert list(saved_fields(Match)) == [
        "turn", "phase", "hands", "score", "pair", "runs", "point", "tag", "note", "free",
    ]  # fmt: skip
    assert scratch_fields(Match) == ["_cache"]


def test_every_shape_round_trips_through_json_and_scratch_is_reset() -> None:
    original = match()
    data = json.loads(json.dumps(dump(original)))
    assert data["score"] == {"0": 1.5, "-2": 2.0} and data["tag"] == {"tag": "t"}
    assert data["point"] == {"x": 1, "y": 2} and data["pair"] == [4, "a"]
    copy = Match()
    load(copy, data)
    for name in saved_fields(Match):
        assert getattr(copy, name) == getattr(original, name), name
        assert type(getattr(copy, name)) is type(getattr(original, name)), name
    assert copy._cache is None


def test_an_undeclared_attribute_is_refused_at_dump_by_name() -> None:
    m = match()
    m.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match=r"undeclared fields \(extra\)"):
        dump(m)


def test_a_missing_field_or_a_non_object_is_refused() -> None:
    data = dump(match())
    del data["runs"]
    with pytest.raises(BadState) as err:
        load(Match(), data)
    assert (err.value.code, err.value.details) == ("missing_field", {"field": "runs"})
    with pytest.raises(BadState) as err:
        load(Match(), [1])  # type: ignore[arg-type]
    assert err.value.details["field"] == "state"


@pytest.mark.parametrize(
    ("hint", "value", "field", "expected"),
    [
        (int, "3", "f", "int"),
        (int, True, "f", "int"),
        (bool, 1, "f", "bool"),
        (str, None, "f", "str"),
        (float, "1.0", "f", "float"),
        (list[int], {"a": 1}, "f", "a list"),
        (list[int], [1, "2"], "f[1]", "int"),
        (tuple[int, ...], [1, 2, "x"], "f[2]", "int"),
        (tuple[int, str], [1], "f", "2 items"),
        (tuple[int, str], [1, 2], "f[1]", "str"),
        (dict[int, int], [1], "f", "an object"),
        (dict[int, int], {"x": 1}, "f key", "a whole number"),
        (dict[str, int], {"a": "b"}, "f.a", "int"),
        (Literal["bid", "over"], "done", "f", "'bid' or 'over'"),
        (type(None), 0, "f", "null"),
        (Point, [1, 2], "f", "Point"),
        (Point, {"x": "1", "y": 2}, "f.x", "int"),
        (int | str, None, "f", "int"),
    ],
)
def test_a_value_of_the_wrong_shape_names_its_field_and_what_was_expected(
    hint: Any, value: Any, field: str, expected: str
) -> None:
    with pytest.raises(BadState) as err:
        decode(value, hint, "f")
    assert err.value.code == "bad_state"
    assert (err.value.details["field"], err.value.details["expected"]) == (field, expected)


@pytest.mark.parametrize(
    ("hint", "value", "decoded"),
    [
        (float, 2, 2.0),
        (dict[int, str], {"-3": "a", "4": "b"}, {-3: "a", 4: "b"}),
        (dict[int, str], {5: "a"}, {5: "a"}),
        (dict, {"a": 1}, {"a": 1}),
        (tuple[int, str], [1, "a"], (1, "a")),
        (list, [1, [2]], [1, [2]]),
        (int | None, None, None),
        (str | int, 3, 3),
        (Point, {"x": 1, "y": 2, "z": 9}, Point(1, 2)),
        (Any, {"k": object}, {"k": object}),
    ],
)
def test_good_values_decode_as_their_annotation_says(hint: Any, value: Any, decoded: Any) -> None:
    out = decode(value, hint, "f")
    assert out == decoded and type(out) is type(decoded)


def test_a_from_json_class_that_fails_is_a_bad_state_naming_the_field() -> None:
    with pytest.raises(BadState) as err:
        decode({"nope": 1}, Tag, "f")
    assert err.value.details["field"] == "f" and err.value.details["expected"] == "Tag"


@given(st.recursive(st.integers() | st.text(max_size=3), lambda inner: st.lists(inner, max_size=3), max_leaves=8))
def test_encode_turns_tuples_into_lists_and_keeps_the_rest(value: Any) -> None:
    def tupled(v: Any) -> Any:
        return tuple(tupled(x) for x in v) if isinstance(v, list) else v

    assert encode(tupled(value)) == value
    assert encode({1: tupled(value), "k": None}) == {"1": value, "k": None}
