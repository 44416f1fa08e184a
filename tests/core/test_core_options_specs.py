"""Option specs at their edges: inclusive bounds, every wording of `describe`, the JSON
Schema each spec gives editors, and the keys errors name at the top level.

Written to kill mutants bench/mutation.py found surviving in core/options.py.
"""

from __future__ import annotations

from typing import Any

import pytest

from mcbridge.core import OptionError
from mcbridge.core.options import Bool, Choice, Float, Int, ListOf, MapOf, Str, Struct


def refused(spec: Any, value: Any, key: str = "k") -> OptionError:
    with pytest.raises(OptionError) as exc:
        spec.check(value, key)
    return exc.value


def test_bounds_are_inclusive_on_both_sides() -> None:
    assert [Int(1, 3).check(v, "k") for v in (1, 3)] == [1, 3]
    for spec, bad in ((Int(1, 3), 0), (Int(1, 3), 4), (Int(min=1), 0), (Int(max=3), 4)):
        refused(spec, bad)
    assert Int().check(-(10**9), "k") == -(10**9)
    assert [Float(0.5, 1.5).check(v, "k") for v in (0.5, 1.5)] == [0.5, 1.5]
    for bad in (0.49, 1.51, True, "1", None):
        refused(Float(0.5, 1.5), bad)
    assert type(Float().check(3, "k")) is float
    assert Str(3).check("abc", "k") == "abc"
    refused(Str(3), 3)
    assert Bool().check(False, "k") is False
    refused(Bool(), 0)


def test_describe_says_what_is_allowed_in_words() -> None:
    assert Int().describe() == "a whole number"
    assert Float().describe() == "a number"
    assert Float(min=0).describe() == "a number >= 0"
    assert Float(max=2).describe() == "a number <= 2"
    assert Choice("warn", "forfeit").describe() == "one of 'warn', 'forfeit'"
    assert ListOf(Bool(), 2, 2).describe() == "a list of exactly 2 items, each true or false"
    assert ListOf(Bool(), 1, 3).describe() == "a list of 1 to 3 items, each true or false"
    colours = MapOf(Int(), keys=Choice("red"))
    assert colours.describe() == "a mapping with keys one of 'red' to a whole number"
    assert MapOf(Bool()).describe() == "a mapping to true or false"
    assert Struct({"a": Int(), "b": Bool()}).describe() == "a mapping with keys a, b"


def test_list_lengths_are_inclusive_and_non_lists_are_refused() -> None:
    spec = ListOf(Int(), 1, 2)
    assert spec.check([1, 2], "k") == [1, 2] and spec.check([1], "k") == [1]
    for bad in ([], [1, 2, 3], (1,), "1"):
        assert refused(spec, bad).key == "k"


def test_maps_and_structs_refuse_what_is_not_a_mapping_and_keep_free_keys() -> None:
    assert refused(MapOf(Int()), [1]).allowed == "a mapping to a whole number"
    assert MapOf(Int()).check({"any": 1}, "k") == {"any": 1}
    assert MapOf(Int(), keys=Choice("a", "b")).check({"a": 1}, "k") == {"a": 1}  # not all required
    spec = Struct({"bid": Int()}, required=("bid",))
    assert refused(spec, 5).allowed == "a mapping with keys bid"
    assert refused(spec, {"bdi": 1}, "").key == "bdi"  # the top level has no prefix
    assert refused(spec, {}, "").key == "bid"
    assert spec.check({"bid": 2}, "") == {"bid": 2}


def test_each_spec_gives_the_same_rule_as_json_schema() -> None:
    assert Int(1, 9).json_schema() == {"type": "integer", "minimum": 1, "maximum": 9}
    assert Int().json_schema() == {"type": "integer"}
    assert Float(max=1.5).json_schema() == {"type": "number", "maximum": 1.5}
    assert Bool().json_schema() == {"type": "boolean"}
    assert Str(7).json_schema() == {"type": "string", "maxLength": 7}
    assert Choice("a", 1).json_schema() == {"enum": ["a", 1]}
    assert ListOf(Bool(), 1).json_schema() == {"type": "array", "items": {"type": "boolean"}, "minItems": 1}
    assert ListOf(Bool(), 0, 4).json_schema()["maxItems"] == 4
    keyed = MapOf(Int(0), keys=Choice("red", "blue"), require_all_keys=True)
    assert keyed.json_schema() == {
        "type": "object",
        "additionalProperties": {"type": "integer", "minimum": 0},
        "propertyNames": {"enum": ["red", "blue"]},
        "required": ["red", "blue"],
    }
    assert "required" not in MapOf(Int(), keys=Choice("a")).json_schema()
    assert MapOf(Bool()).json_schema() == {"type": "object", "additionalProperties": {"type": "boolean"}}
    assert Struct({"a": Bool()}, required=("a",)).json_schema() == {
        "type": "object",
        "properties": {"a": {"type": "boolean"}},
        "required": ["a"],
        "additionalProperties": False,
    }
