"""Match seeds and chance streams.

A match seed has 128 bits: fresh from `secrets` for every match, or (with `--seed`, for
tests and the demo) derived from the table seed by SHA-256, so nothing public narrows it.
Each chance action draws from its own stream, derived by SHA-256 from (match seed, seq):
a match resumed from its journal draws exactly what the uninterrupted match would have
drawn next, without storing any RNG state.
"""

from __future__ import annotations

import hashlib
import secrets

from mcbridge.core import Rng

SEED_BITS = 128


def _hash(*parts: object) -> int:
    text = "\x1f".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[: SEED_BITS // 8], "big")


def match_seed(table_seed: int | None, arena: str, number: int) -> int:
    """The seed of the arena's match `number` (0-based): secret, or derived from a given seed."""
    if table_seed is None:
        return secrets.randbits(SEED_BITS)
    return _hash(table_seed, arena, "match", number)


def chance_rng(seed: int, seq: int) -> Rng:
    """The stream for the chance action journaled at position `seq` of a match."""
    return Rng(_hash(seed, "chance", seq))
