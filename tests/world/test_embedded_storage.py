"""The embedded world's block storage and Java text rules, below the wire."""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mcbridge.world.embedded.javatext import (
    format_double,
    format_float,
    java_int_cast,
    parse_byte,
    parse_double,
    parse_int,
    split_args,
    to_float32,
    wrap_int,
)
from mcbridge.world.embedded.storage import SECTION_BYTES, WORLD_BORDER, BlockStore, state_of

STONE, WOOL = state_of(1), state_of(35, 14)


def test_the_flat_world_without_any_storage():
    store = BlockStore()
    column = [store.get(5, y, -7) >> 4 for y in range(7)]
    assert column == [7, 3, 3, 3, 2, 0, 0]
    assert store.get(0, -1, 0) == 0 and store.get(0, 256, 0) == 0
    assert store.sections() == {}


def test_single_writes_allocate_one_section_and_keep_the_flat_layers():
    store = BlockStore()
    assert store.set(17, 2, -3, WOOL)
    assert not store.set(17, 2, -3, WOOL)  # equal: nothing to do
    assert store.get(17, 2, -3) == WOOL
    assert store.get(18, 2, -3) >> 4 == 3  # the rest of the section is still dirt
    assert len(store.sections()) == 1
    assert not store.set(0, 300, 0, STONE) and not store.set(WORLD_BORDER, 5, 0, STONE)


def test_fill_and_read_agree_with_single_blocks():
    store = BlockStore()
    store.fill((-20, 3, -20), (20, 40, 5), WOOL)
    cuboid = store.read((-21, 2, -21), (21, 41, 6))
    assert cuboid.shape == (40, 43, 28)  # [y, x, z]
    for y, x, z in [(2, -21, -21), (3, -20, -20), (40, 20, 5), (41, 21, 6), (10, 0, 0)]:
        assert cuboid[y - 2, x + 21, z + 21] == store.get(x, y, z)


FLAT = [state_of(7), state_of(3), state_of(3), state_of(3), state_of(2)]


@given(
    low=st.tuples(st.integers(-40, 40), st.integers(-3, 60), st.integers(-40, 40)),
    size=st.tuples(st.integers(1, 20), st.integers(1, 20), st.integers(1, 20)),
    probe=st.tuples(st.integers(-50, 70), st.integers(-5, 85), st.integers(-50, 70)),
    checks=st.lists(
        st.tuples(st.integers(-50, 70), st.integers(-5, 85), st.integers(-50, 70)), max_size=20
    ),
)
def test_fill_set_read_and_get_agree_with_a_model(low, size, probe, checks):
    high = tuple(a + s - 1 for a, s in zip(low, size, strict=True))

    def model(x: int, y: int, z: int) -> int:
        if not 0 <= y < 256:
            return 0
        if (x, y, z) == probe:
            return STONE
        if all(lo <= p <= hi for lo, p, hi in zip(low, (x, y, z), high, strict=True)):
            return WOOL
        return FLAT[y] if y < len(FLAT) else 0

    store = BlockStore()
    store.fill(low, high, WOOL)  # type: ignore[arg-type]
    store.set(*probe, STONE)
    cuboid = store.read((-50, -5, -50), (70, 85, 70))
    for x, y, z in [probe, low, high, *checks]:
        assert store.get(x, y, z) == model(x, y, z)
        assert cuboid[y + 5, x + 50, z + 50] == model(x, y, z)


def test_reads_beyond_the_border_are_air():
    store = BlockStore()
    cuboid = store.read((WORLD_BORDER - 2, 4, 0), (WORLD_BORDER + 1, 4, 0))
    assert (cuboid.ravel() >> 4).tolist() == [2, 2, 0, 0]


def test_signs_die_when_their_block_changes():
    store = BlockStore()
    store.set(1, 5, 1, state_of(63))
    store.signs[(1, 5, 1)] = ["a", "b", "c", "d"]
    store.set(1, 5, 1, state_of(63, 4))  # same block, other rotation: text kept
    assert (1, 5, 1) in store.signs
    store.fill((0, 5, 0), (2, 5, 2), state_of(63, 4))
    assert (1, 5, 1) in store.signs
    store.fill((0, 5, 0), (2, 5, 2), STONE)
    assert store.signs == {}


def test_heightmap_ignores_light_transparent_blocks():
    store = BlockStore()
    assert store.highest_open_y(0, 0) == 5
    store.set(0, 100, 0, state_of(20))  # glass
    store.set(0, 101, 0, state_of(50))  # torch
    assert store.highest_open_y(0, 0) == 5
    store.set(0, 99, 0, state_of(18))  # leaves do block light
    assert store.highest_open_y(0, 0) == 100
    store.fill((0, 0, 0), (0, 255, 0), 0)
    assert store.highest_open_y(0, 0) == 0


def test_a_full_256x64x256_region_takes_eight_mebibytes():
    tracemalloc.start()
    try:
        store = BlockStore()
        store.fill((-128, 0, -128), (127, 63, 127), WOOL)
        current, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(store.sections()) == 16 * 4 * 16
    assert store.allocated_bytes == 1024 * SECTION_BYTES == 8 << 20
    assert current < 9 << 20  # the arrays plus small bookkeeping
    assert int((store.read((-128, 0, -128), (127, 63, 127)) == WOOL).sum()) == 256 * 64 * 256


# ----------------------------------------------------------------- Java text rules
@pytest.mark.parametrize(
    ("text", "parts"),
    [("", [""]), ("a", ["a"]), ("a,b", ["a", "b"]), ("a,,b,,", ["a", "", "b"]),
     (",,,", []), (",a", ["", "a"])],
)
def test_split_like_java(text, parts):
    assert split_args(text) == parts


@pytest.mark.parametrize(
    ("value", "text"),
    [(0.0, "0.0"), (-0.0, "-0.0"), (0.5, "0.5"), (5.0, "5.0"), (1e7, "1.0E7"),
     (123456789.0, "1.23456789E8"), (0.001, "0.001"), (0.0001, "1.0E-4"),
     (6.123233995736766e-17, "6.123233995736766E-17"), (-1.5e-5, "-1.5E-5"),
     (math.inf, "Infinity"), (-math.inf, "-Infinity"), (math.nan, "NaN"), (100.0, "100.0")],
)
def test_double_to_string_like_java(value, text):
    assert format_double(value) == text


@pytest.mark.parametrize(
    ("value", "text"),
    [(90.0, "90.0"), (-90.0, "-90.0"), (0.1, "0.1"), (22.5, "22.5"), (1e-5, "1.0E-5")],
)
def test_float_to_string_like_java(value, text):
    assert format_float(to_float32(value)) == text


def test_number_parsing_like_java():
    assert parse_double(" 1.5d ") == 1.5 and parse_double("-Infinity") == -math.inf
    assert math.isnan(parse_double("NaN")) and parse_double(".5") == 0.5
    for bad in ("inf", "nan", "1_0", "0x10", "", "1.2.3", "e5"):
        with pytest.raises(ValueError):
            parse_double(bad)
    assert parse_int("-12") == -12 and parse_int("+7") == 7
    for bad in (" 1", "1.0", "2147483648", ""):
        with pytest.raises(ValueError):
            parse_int(bad)
    assert parse_byte("-128") == -128
    with pytest.raises(ValueError):
        parse_byte("128")
    assert [java_int_cast(v) for v in (-0.5, 1.9, -1.9, math.nan, 1e30, -1e30)] == [
        0, 1, -1, 0, 2**31 - 1, -(2**31)]
    assert wrap_int(2**31) == -(2**31)


def test_float32_rounding():
    assert to_float32(0.1) == float(np.float32(0.1))
    assert to_float32(1e39) == math.inf


_SIGN = state_of(68, 2)
_corners = st.tuples(st.integers(0, 7), st.integers(1, 3), st.integers(0, 7))


@given(signs=st.sets(_corners, max_size=40), a=_corners, b=_corners, block=st.sampled_from([0, 68, 35]))
def test_a_fill_drops_the_text_of_exactly_the_signs_it_replaces(
        signs: set[tuple[int, int, int]], a: tuple[int, int, int], b: tuple[int, int, int], block: int) -> None:
    """Small boxes among many signs look only at their own cells; big ones at every sign: the same."""
    store = BlockStore()
    for pos in signs:
        store.set(*pos, _SIGN)
        store.signs[pos] = ["a", "b", "c", "d"]
    low, high = tuple(map(min, a, b)), tuple(map(max, a, b))
    store.fill(low, high, state_of(block, 2))
    inside = {p for p in signs if all(lo <= v <= hi for lo, v, hi in zip(low, p, high, strict=True))}
    kept = signs - inside if block != 68 else signs
    assert set(store.signs) == kept
