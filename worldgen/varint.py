"""Sponge `varint[]` block data, vectorised with numpy.

Decoding a schematic is dominated by the varint array, not by NBT parsing (a pure-Python
loop runs at ~5 M blocks/s). Arena palettes are small, so every index is below 128 and
one byte each: that case is a plain copy. The general case decodes all values at once by
locating the terminating bytes, so large palettes stay fast too.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

MAX_BYTES = 5  # a 32-bit varint never needs more


class VarintError(ValueError):
    """The byte array is not a well-formed varint sequence."""


def decode(raw: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """All varints in a byte array, in order."""
    data = np.asarray(raw).view(np.uint8).ravel()
    if data.size == 0:
        return np.zeros(0, dtype=np.int64)
    continues = data >= 0x80
    if not continues.any():
        return data.astype(np.int64)
    if continues[-1]:
        raise VarintError("the last varint is cut off (its final byte has the continuation bit)")
    ends = np.flatnonzero(~continues)
    starts = np.empty_like(ends)
    starts[0] = 0
    starts[1:] = ends[:-1] + 1
    lengths = ends - starts + 1
    longest = int(lengths.max())
    if longest > MAX_BYTES:
        raise VarintError(f"a varint is {longest} bytes long; at most {MAX_BYTES} are allowed")
    values = np.zeros(ends.size, dtype=np.int64)
    for k in range(longest):
        has = lengths > k
        values[has] |= (data[starts[has] + k].astype(np.int64) & 0x7F) << (7 * k)
    return values


def encode(values: npt.ArrayLike) -> npt.NDArray[np.uint8]:
    """Encode non-negative integers as one varint byte array."""
    vals = np.asarray(values, dtype=np.int64).ravel()
    if vals.size and vals.min() < 0:
        raise ValueError("varint values must not be negative")
    if vals.size == 0 or vals.max() < 0x80:
        return vals.astype(np.uint8)
    lengths = np.ones(vals.size, dtype=np.int64)
    for k in range(1, MAX_BYTES):
        lengths += vals >= (1 << (7 * k))
    offsets = np.zeros(vals.size, dtype=np.int64)
    np.cumsum(lengths[:-1], out=offsets[1:])
    out = np.zeros(int(lengths.sum()), dtype=np.uint8)
    for k in range(int(lengths.max())):
        has = lengths > k
        byte = (vals[has] >> (7 * k)) & 0x7F
        more = lengths[has] > k + 1
        out[offsets[has] + k] = (byte | (more.astype(np.int64) << 7)).astype(np.uint8)
    return out
