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
