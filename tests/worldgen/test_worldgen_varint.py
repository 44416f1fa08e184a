"""Varint block data: the numpy paths agree with the definition."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from worldgen import varint


def reference_encode(values: list[int]) -> bytes:
    out = bytearray()
    for value in values:
        while True:
            byte = value & 0x7F
            value >>= 7
            out.append(byte | (0x80 if value else 0))
            if not value:
                break
    return bytes(out)


@given(st.lists(st.integers(0, 2**31 - 1), max_size=200))
def test_encode_matches_the_definition_and_decodes_back(values: list[int]) -> None:
    encoded = varint.encode(values)
    assert encoded.tobytes() == reference_encode(values)
    assert varint.decode(encoded).tolist() == values


def test_small_palettes_take_the_one_byte_path() -> None:
    values = np.arange(128) % 100
    assert varint.encode(values).tobytes() == bytes(values.tolist())
    assert varint.decode(np.frombuffer(bytes(range(128)), np.int8)).tolist() == list(range(128))


def test_cut_off_and_overlong_varints_are_refused() -> None:
    with pytest.raises(varint.VarintError, match="cut off"):
        varint.decode(np.array([0x01, 0x81], np.uint8))
    with pytest.raises(varint.VarintError, match="6 bytes long"):
        varint.decode(np.array([0x80] * 5 + [0x01], np.uint8))
    with pytest.raises(ValueError, match="negative"):
        varint.encode([-1])


#: Each length boundary, pinned as bytes: a `>=` turned `>` in the length count, or a
#: shift off by one, changes one of these (issue 20: random values hit them rarely).
BOUNDARIES = [
    (0, "00"),
    (127, "7f"),
    (128, "8001"),
    (16383, "ff7f"),
    (16384, "808001"),
    (2**21 - 1, "ffff7f"),
    (2**21, "80808001"),
    (2**28 - 1, "ffffff7f"),
    (2**28, "8080808001"),
    (2**31 - 1, "ffffffff07"),
]


@pytest.mark.parametrize(("value", "wire"), BOUNDARIES)
def test_every_length_boundary_encodes_and_decodes_exactly(value: int, wire: str) -> None:
    assert varint.encode([value]).tobytes().hex() == wire
    assert varint.decode(np.frombuffer(bytes.fromhex(wire), np.uint8)).tolist() == [value]


def test_boundaries_side_by_side_keep_their_order() -> None:
    values = [v for v, _ in BOUNDARIES] * 2
    wire = "".join(w for _, w in BOUNDARIES) * 2
    assert varint.encode(values).tobytes().hex() == wire
    assert varint.decode(np.frombuffer(bytes.fromhex(wire), np.uint8)).tolist() == values
