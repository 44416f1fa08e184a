"""A seeded mutator for arena files: what a careless editor, a bad download or an attacker makes.

`mutant(text, seed)` returns bytes: the same seed always gives the same mutant, so a
failure in the fuzz test is reproduced with one number. Mutations are chosen from what a
fault campaign found (byte flips, lost or doubled lines, swapped values, deep nesting,
alias bombs, tabs, NUL, byte order marks, non-UTF-8 bytes, merge keys, unknown tags).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

SCALAR = re.compile(r"(?<=[:\[,{] )[^\s,\[\]{}#][^,\[\]{}#\n]*?(?=\s*(?:[,\]}]|#|$))", re.MULTILINE)

HOSTILE_VALUES = [
    "-1", "0", "99999999999", "1e309", ".nan", "null", "~", "[]", "{}", "''", '"\\0"', '"a\\nb"',
    '"\\u202eevil"', '"\\u200b"', "!!python/object/apply:os.system [id]", "!foo x", "*nowhere", "&dup x",
    "2024-13-45", "0x", "=", "yes", "[1, 2]", "[99999, 6, 99999]", "[-30000001, 0, 0]", "é", "\t1",
    '"' + "x" * 5000 + '"', "9" * 5000, "!!binary aGVsbG8=", "!!set {a}", "? x", "- 1", "|", ">",
]  # fmt: skip

LAUGHS = "lol: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"lol{b}: &{b} [{', '.join([f'*{a}'] * 10)}]\n" for a, b in zip("abcdefg", "bcdefgh", strict=True)
)


def _lines(text: str, rng: random.Random) -> tuple[list[str], int]:
    lines = text.split("\n")
    return lines, rng.randrange(len(lines))


def flip_byte(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data))
    return data[:i] + bytes([rng.randrange(256)]) + data[i + 1 :]


def delete_line(data: bytes, rng: random.Random) -> bytes:
    lines, i = _lines(data.decode("utf-8", "surrogateescape"), rng)
    del lines[i]
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def duplicate_line(data: bytes, rng: random.Random) -> bytes:
    lines, i = _lines(data.decode("utf-8", "surrogateescape"), rng)
    lines.insert(rng.randrange(len(lines) + 1), lines[i])
    return "\n".join(lines).encode("utf-8", "surrogateescape")


def swap_values(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", "surrogateescape")
    found = list(SCALAR.finditer(text))
    if len(found) < 2:
        return data
    a, b = sorted(rng.sample(found, 2), key=lambda m: m.start())
    text = text[: a.start()] + b.group() + text[a.end() : b.start()] + a.group() + text[b.end() :]
    return text.encode("utf-8", "surrogateescape")


def _edit_scalar(data: bytes, rng: random.Random, edit: Callable[[str], str]) -> bytes:
    """Replace one scalar value, chosen at random, with `edit(value)`."""
    text = data.decode("utf-8", "surrogateescape")
    found = list(SCALAR.finditer(text))
    if not found:
        return data
    m = rng.choice(found)
    return (text[: m.start()] + edit(m.group()) + text[m.end() :]).encode("utf-8", "surrogateescape")


def hostile_value(data: bytes, rng: random.Random) -> bytes:
    return _edit_scalar(data, rng, lambda _value: rng.choice(HOSTILE_VALUES))


def deep_nesting(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice([10, 63, 64, 65, 200, 5000])
    opener, closer = rng.choice([("[", "]"), ("{a: ", "}")])
    return data + f"\ndeep: {opener * depth}1{closer * depth}\n".encode()


def block_nesting(data: bytes, rng: random.Random) -> bytes:
    depth = rng.choice([30, 70, 300])
    return data + ("\ndeeper:\n" + "".join(" " * (i + 1) + f"k{i}:\n" for i in range(depth))).encode()


def alias_bomb(data: bytes, rng: random.Random) -> bytes:
    bomb = rng.choice([LAUGHS, "loop: &l [1, *l]\n", "loop: &m {k: *m}\n", "ref: *undefined\n"])
    return bomb.encode() + data if rng.random() < 0.5 else data + b"\n" + bomb.encode()


def merge_key(data: bytes, rng: random.Random) -> bytes:
    return data.replace(b"seat_template:", b"base: &base {name: x}\n<<: *base\nseat_template:", 1)


def insert_bytes(data: bytes, rng: random.Random) -> bytes:
    junk = rng.choice([b"\t", b"\x00", b"\xef\xbb\xbf", b"\xe9", b"\xff\xfe", b"\x1b[31m", b"\r", b"\x85",
                       b"\xed\xa0\x80"])  # fmt: skip
    i = rng.randrange(len(data) + 1)
    return data[:i] + junk + data[i:]


def tab_indent(data: bytes, rng: random.Random) -> bytes:
    lines = data.split(b"\n")
    indented = [i for i, line in enumerate(lines) if line.startswith(b"  ")]
    if indented:
        i = rng.choice(indented)
        lines[i] = b"\t" + lines[i].lstrip(b" ")
    return b"\n".join(lines)


def reencode(data: bytes, rng: random.Random) -> bytes:
    text = data.decode("utf-8", "replace")
    return rng.choice([text.encode("utf-16"), text.encode("utf-32"), text.encode("latin-1", "replace"),
                       b"\xef\xbb\xbf" + data])  # fmt: skip


def truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data) + 1)]


def unknown_tag(data: bytes, rng: random.Random) -> bytes:
    tags = ["!foo ", "!!str ", "!!int ", "!!float ", "!!python/name:os.system ", "!<tag:x> "]
    return _edit_scalar(data, rng, lambda value: rng.choice(tags) + value)


def reindent(data: bytes, rng: random.Random) -> bytes:
    lines, i = _lines(data.decode("utf-8", "surrogateescape"), rng)
    lines[i] = lines[i][1:] if lines[i].startswith(" ") and rng.random() < 0.5 else " " + lines[i]
    return "\n".join(lines).encode("utf-8", "surrogateescape")


MUTATIONS: list[Callable[[bytes, random.Random], bytes]] = [
    flip_byte, delete_line, duplicate_line, swap_values, hostile_value, hostile_value, deep_nesting,
    block_nesting, alias_bomb, merge_key, insert_bytes, tab_indent, reencode, truncate, unknown_tag, reindent,
]  # fmt: skip


def mutant(text: str, seed: int) -> tuple[bytes, list[str]]:
    """The mutant for `seed` and the names of the mutations applied (for failure messages)."""
    rng = random.Random(seed)
    data = text.encode("utf-8")
    applied = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        mutation = rng.choice(MUTATIONS)
        data = mutation(data, rng)
        applied.append(mutation.__name__)
    return data, applied
