"""A bounded NBT reader: hostile files are refused in bounded memory and time.

nbtlib trusts every length a file states: a list of two billion End tags spins for
hours, a deep nesting overflows the stack, a gzip bomb fills memory. Schematics come
from strangers, so this reader checks before it allocates:

* the decompressed size is capped (`MAX_BYTES`), read in pieces, never all at once;
* every length is checked against the bytes left (each element of a list needs at least
  its smallest encoding), so no loop runs longer than the file is long;
* nesting is capped at Minecraft's own limit (`MAX_DEPTH`, 512);
* errors name the field (``Schematic.Blocks.Palette``) and what was wrong.

It returns nbtlib values, so the format modules keep one vocabulary. Large lists of
small compounds (a structure file's ``blocks``, one compound per block) can be read as
columns instead (`Columns`): runs of byte-identical layout are cut out of the buffer
with numpy in one step, which is what makes that format fast.
"""

from __future__ import annotations

import gzip
import io
import struct
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import nbtlib
import numpy as np
import numpy.typing as npt

#: Largest decompressed file: a 256^3 Sponge schematic is ~20 MB, a Litematica one ~40 MB.
MAX_BYTES = 512 * 1024 * 1024
#: Deepest nesting of lists and compounds (the game's NbtAccounter refuses deeper).
MAX_DEPTH = 512
#: Rows compared per numpy step when cutting uniform runs out of a list.
RUN_CHUNK = 65_536

_SCALARS: dict[int, tuple[str, int, type[Any]]] = {
    1: (">b", 1, nbtlib.Byte),
    2: (">h", 2, nbtlib.Short),
    3: (">i", 4, nbtlib.Int),
    4: (">q", 8, nbtlib.Long),
    5: (">f", 4, nbtlib.Float),
    6: (">d", 8, nbtlib.Double),
}
_ARRAYS: dict[int, tuple[str, type[Any]]] = {
    7: (">i1", nbtlib.ByteArray),
    11: (">i4", nbtlib.IntArray),
    12: (">i8", nbtlib.LongArray),
}
_TYPES: dict[int, type[Any]] = {
    0: nbtlib.End,
    8: nbtlib.String,
    9: nbtlib.List,
    10: nbtlib.Compound,
    **{k: v[2] for k, v in _SCALARS.items()},
    **{k: v[1] for k, v in _ARRAYS.items()},
}
#: The fewest bytes one payload of each tag takes (bounds a list's length by the file's).
_MIN_SIZE = {0: 0, 1: 1, 2: 2, 3: 4, 4: 8, 5: 4, 6: 8, 7: 4, 8: 2, 9: 5, 10: 1, 11: 4, 12: 4}


class NbtError(ValueError):
    """Bytes that are not NBT, or NBT past the limits; ``field`` says where."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field or "(root)"
        self.reason = message
        super().__init__(f"{self.field}: {message}")


@dataclass
class Columns:
    """A list of compounds read as columns: ``ints[name]`` has one row per element.

    Rows the fast path could not take (another layout: a block with a block entity) are
    in ``others`` as nbtlib compounds; their rows in ``ints`` hold zeros and
    ``uniform`` is False there.
    """

    count: int
    ints: dict[str, npt.NDArray[np.int64]] = field(default_factory=dict)
    uniform: npt.NDArray[np.bool_] = field(default_factory=lambda: np.zeros(0, bool))
    others: dict[int, nbtlib.Compound] = field(default_factory=dict)

    def __len__(self) -> int:
        return self.count

    def fits(self, layout: _Layout, count: int) -> bool:
        """Whether a layout's fields have the shapes the columns already hold (a damaged
        or irregular element whose list has another length is kept whole instead)."""
        for name, _offset, _width, n in layout.fields:
            column = self.ints.get(name)
            if column is not None and column.shape != ((count, n) if n > 1 else (count,)):
                return False
        return True


def read_bytes(path: str, max_bytes: int = MAX_BYTES) -> bytes:
    """The file's NBT bytes: gunzipped or inflated when compressed, at most ``max_bytes``."""
    with open(path, "rb") as handle:
        head = handle.read(2)
        handle.seek(0)
        if head == b"\x1f\x8b":
            stream = gzip.GzipFile(fileobj=handle)
            return _bounded(stream.read, max_bytes, "gzip")
        if head[:1] == b"\x78":
            return _inflate(handle.read(), max_bytes)
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise NbtError("", f"is over {max_bytes} bytes; refused")
    return data


def _bounded(read: Callable[[int], bytes], max_bytes: int, what: str) -> bytes:
    parts: list[bytes] = []
    total = 0
    try:
        while True:
            part = read(1 << 20)
            if not part:
                break
            total += len(part)
            if total > max_bytes:
                raise NbtError("", f"unpacks ({what}) to over {max_bytes} bytes; refused")
            parts.append(part)
    except (OSError, EOFError, zlib.error) as exc:
        raise NbtError("", f"the {what} stream is cut short or corrupt ({exc})") from None
    return b"".join(parts)


def _inflate(raw: bytes, max_bytes: int) -> bytes:
    inflater = zlib.decompressobj()
    try:
        data = inflater.decompress(raw, max_bytes + 1)
    except zlib.error as exc:
        raise NbtError("", f"the zlib stream is corrupt ({exc})") from None
    if len(data) > max_bytes:
        raise NbtError("", f"unpacks (zlib) to over {max_bytes} bytes; refused")
    return data


def parse(data: bytes, *, columns: frozenset[str] = frozenset(), max_depth: int = MAX_DEPTH) -> nbtlib.Compound:
    """The root compound. Lists at the paths in ``columns`` are read as `Columns`."""
    reader = _Reader(data, columns, max_depth)
    if not data:
        raise NbtError("", "the file is empty")
    if data[0] != 10:
        raise NbtError(
            "",
            f"is not a readable NBT file: it starts with byte {data[0]}, where NBT (gzip,"
            " zlib or plain) starts with a compound (10)",
        )
    reader.pos = 1
    reader.string("(root name)")
    # Two Python frames per level: make room for the depth the game itself allows.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 3 * max_depth + 500))
    try:
        return reader.compound("", 0)
    finally:
        sys.setrecursionlimit(limit)


def load(path: str, *, columns: frozenset[str] = frozenset()) -> nbtlib.Compound:
    return parse(read_bytes(path), columns=columns)


class _Reader:
    def __init__(self, data: bytes, columns: frozenset[str], max_depth: int) -> None:
        self.buf = data
        self.size = len(data)
        self.pos = 0
        self.columns = columns
        self.max_depth = max_depth

    # -- primitives ------------------------------------------------------------------

    def need(self, count: int, where: str) -> None:
        if count < 0 or self.pos + count > self.size:
            left = self.size - self.pos
            raise NbtError(where, f"needs {count} more bytes but the file has {left}: cut short")

    def unpack(self, fmt: str, width: int, where: str) -> Any:
        self.need(width, where)
        value = struct.unpack_from(fmt, self.buf, self.pos)[0]
        self.pos += width
        return value

    def string(self, where: str) -> str:
        length = self.unpack(">H", 2, where)
        self.need(length, where)
        raw = self.buf[self.pos : self.pos + length]
        self.pos += length
        return raw.decode("utf-8", errors="replace")  # modified UTF-8 differs only in edge cases

    def length(self, where: str, element: int) -> int:
        count = self.unpack(">i", 4, where)
        if count < 0:
            raise NbtError(where, f"has a negative length ({count})")
        if count * element > self.size - self.pos:
            raise NbtError(
                where,
                f"claims {count} elements but only {self.size - self.pos} bytes remain;"
                " the file is cut short or hostile",
            )
        return int(count)

    # -- payloads --------------------------------------------------------------------

    def payload(self, tag: int, where: str, depth: int) -> Any:
        if tag in _SCALARS:
            fmt, width, kind = _SCALARS[tag]
            return kind(self.unpack(fmt, width, where))
        if tag == 8:
            return nbtlib.String(self.string(where))
        if tag in _ARRAYS:
            dtype, kind = _ARRAYS[tag]
            width = np.dtype(dtype).itemsize
            count = self.length(where, width)
            values = np.frombuffer(self.buf, dtype=dtype, count=count, offset=self.pos)
            self.pos += count * width
            return kind(values)
        if tag == 9:
            return self.list(where, depth + 1)
        if tag == 10:
            return self.compound(where, depth + 1)
        raise NbtError(where, f"has an unknown tag type {tag}")

    def compound(self, where: str, depth: int) -> nbtlib.Compound:
        if depth > self.max_depth:
            raise NbtError(where, f"nests deeper than {self.max_depth} levels; refused")
        items: dict[str, Any] = {}
        while True:
            tag = self.unpack(">B", 1, where)
            if tag == 0:
                return nbtlib.Compound(items)
            name = self.string(where)
            inner = f"{where}.{name}" if where else name
            items[name] = self.payload(tag, inner, depth)

    def list(self, where: str, depth: int) -> Any:
        if depth > self.max_depth:
            raise NbtError(where, f"nests deeper than {self.max_depth} levels; refused")
        tag = self.unpack(">B", 1, where)
        if tag not in _TYPES:
            raise NbtError(where, f"is a list of unknown tag type {tag}")
        count = self.length(where, max(1, _MIN_SIZE[tag]))  # End lists must be empty: 1
        if tag == 0 and count:
            raise NbtError(where, f"is a list of {count} End tags; only an empty one is valid")
        if tag == 10 and where in self.columns:
            return self.columnar(where, count, depth)
        items = [self.payload(tag, f"{where}[{i}]", depth) for i in range(count)]
        out = nbtlib.List[_TYPES[tag]]() if tag else nbtlib.List()
        list.extend(out, items)  # the items are already of the list's type
        return out

    # -- columns ---------------------------------------------------------------------

    def columnar(self, where: str, count: int, depth: int) -> Columns:
        cols = Columns(count, uniform=np.zeros(count, dtype=bool))
        i = 0
        while i < count:
            start = self.pos
            element = self.compound(f"{where}[{i}]", depth + 1)
            layout = _layout(self.buf, start, self.pos)
            if layout is None or not cols.fits(layout, count):
                cols.others[i] = element
                i += 1
                continue
            run = self._run(layout, count - i)
            for name, offset, width, n in layout.fields:
                column = cols.ints.setdefault(
                    name,
                    np.zeros((count, n) if n > 1 else count, dtype=np.int64),
                )
                column[i : i + run] = layout.values(self.buf, start, run, offset, width, n)
            cols.uniform[i : i + run] = True
            self.pos = start + run * layout.size
            i += run
        return cols

    def _run(self, layout: _Layout, most: int) -> int:
        """How many elements from here share the layout byte for byte (at least 1)."""
        run = 0
        start = self.pos - layout.size
        while run < most:
            rows = min(RUN_CHUNK, most - run, (self.size - start) // layout.size - run)
            if rows <= 0:
                break
            block = np.frombuffer(self.buf, np.uint8, rows * layout.size, start + run * layout.size).reshape(
                rows, layout.size
            )
            bad = np.flatnonzero((block[:, layout.fixed] != layout.skeleton).any(axis=1))
            if bad.size:
                return max(1, run + int(bad[0]))
            run += rows
        return max(1, run)


@dataclass
class _Layout:
    """A compound's byte layout whose values are integers at fixed offsets."""

    size: int
    fixed: npt.NDArray[np.intp]  # offsets of the bytes every element shares
    skeleton: npt.NDArray[np.uint8]
    fields: list[tuple[str, int, int, int]]  # name, offset, width, count

    def values(self, buf: bytes, start: int, rows: int, offset: int, width: int, n: int) -> npt.NDArray[np.int64]:
        """One field of ``rows`` elements from ``start``: (rows,) or (rows, n) integers."""
        block = np.frombuffer(buf, np.uint8, rows * self.size, start).reshape(rows, self.size)
        raw = np.ascontiguousarray(block[:, offset : offset + width * n])
        values = raw.view(f">i{width}").astype(np.int64)
        return values if n > 1 else values[:, 0]


def _layout(buf: bytes, start: int, end: int) -> _Layout | None:
    """The layout of the compound in buf[start:end] if all its values are integers
    (or lists of integers): tag bytes and names are then the same for every element."""
    pos = start
    value_bytes: list[tuple[int, int]] = []
    fields: list[tuple[str, int, int, int]] = []
    while True:
        tag = buf[pos]
        pos += 1
        if tag == 0:
            break
        (name_len,) = struct.unpack_from(">H", buf, pos)
        name = buf[pos + 2 : pos + 2 + name_len].decode("utf-8", errors="replace")
        pos += 2 + name_len
        if tag in (1, 2, 3, 4):
            width = _SCALARS[tag][1]
            fields.append((name, pos - start, width, 1))
            value_bytes.append((pos - start, width))
            pos += width
        elif tag == 9 and buf[pos] in (1, 2, 3, 4):
            width = _SCALARS[buf[pos]][1]
            (n,) = struct.unpack_from(">i", buf, pos + 1)
            if n < 1:  # an empty (or damaged, negative) list has no column to fill
                return None
            pos += 5
            fields.append((name, pos - start, width, n))
            value_bytes.append((pos - start, width * n))
            pos += width * n
        else:
            return None
    size = end - start
    varying = np.zeros(size, dtype=bool)
    for offset, width in value_bytes:
        varying[offset : offset + width] = True
    fixed = np.flatnonzero(~varying)
    skeleton = np.frombuffer(buf, np.uint8, size, start)[fixed].copy()
    return _Layout(size, fixed, skeleton, fields)


class Document:
    """A root compound to write, some of whose fields are already encoded (``raw``).

    nbtlib writes one Python object per tag, which is most of the time a structure file
    takes (one compound per block). A writer that can lay such a list out with numpy
    passes its bytes here: ``raw[name] = (tag id, payload)``. Saved like `nbtlib.File`.
    """

    def __init__(
        self,
        root: nbtlib.Compound,
        root_name: str = "",
        raw: dict[str, tuple[int, bytes]] | None = None,
    ) -> None:
        self.root = root
        self.root_name = root_name
        self.raw = raw or {}

    def encode(self) -> bytes:
        out = io.BytesIO()
        out.write(b"\x0a" + _name(self.root_name))
        for name, value in self.root.items():
            out.write(bytes([value.tag_id]) + _name(name))
            value.write(out)
        for name, (tag, payload) in self.raw.items():
            out.write(bytes([tag]) + _name(name) + payload)
        out.write(b"\x00")
        return out.getvalue()

    def save(self, path: str | Any, gzipped: bool = True) -> None:
        data = self.encode()
        with open(path, "wb") as handle:
            handle.write(gzip.compress(data, compresslevel=6, mtime=0) if gzipped else data)


def _name(text: str) -> bytes:
    raw = text.encode("utf-8")
    return struct.pack(">H", len(raw)) + raw
