"""YAML loading that remembers where every value came from, and cannot be made to blow up.

Operators and game designers edit YAML by hand; an error that says
`config/arenas/x.yaml:14:7` saves them the hunt. We build plain Python values straight
from PyYAML's event stream (its parser is a state machine, not recursive) and keep a
`path -> (line, column)` map. Duplicate keys, which PyYAML silently accepts, are errors here.

Arena files come from people we do not control (a shared server, a downloaded arena), so
loading is bounded: file size, nesting depth, and the number of values after alias
expansion (a "billion laughs" file fails at the alias that crosses the limit, in
milliseconds). Recursive aliases, unknown tags, `<<` merge keys, bytes that are not UTF-8
and characters YAML forbids are all errors with file:line:column — never a traceback.
"""

from __future__ import annotations

import copy
import unicodedata
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

PathKey = tuple[Hashable, ...]
Mark = tuple[int, int]

#: Bounds for hand-edited files; the shipped arena is 4 KB, ~400 values, 4 levels deep.
MAX_BYTES = 1 << 20
MAX_DEPTH = 64
MAX_VALUES = 50_000

_STD = "tag:yaml.org,2002:"
_SCALAR_TAGS = {f"{_STD}{t}": t for t in ("str", "int", "float", "bool", "null", "timestamp")}
_COLLECTION_TAGS = {f"{_STD}map", f"{_STD}seq"}
_MERGE_TAG, _VALUE_TAG = f"{_STD}merge", f"{_STD}value"
_BOMS = {
    b"\xff\xfe\x00\x00": "UTF-32",
    b"\x00\x00\xfe\xff": "UTF-32",
    b"\xff\xfe": "UTF-16",
    b"\xfe\xff": "UTF-16",
}


class YamlError(ValueError):
    """A YAML file that cannot be read; the message starts with file:line:column."""


@dataclass
class MarkedYaml:
    """Plain data plus the 1-based line and column of every value and mapping key."""

    data: Any
    filename: str
    marks: dict[PathKey, Mark] = field(default_factory=dict)

    def where(self, path: PathKey) -> str:
        """file:line:column of the value at `path`, or of its nearest marked parent."""
        probe = tuple(path)
        while probe not in self.marks and probe:
            probe = probe[:-1]
        line, column = self.marks.get(probe, (1, 1))
        return f"{self.filename}:{line}:{column}"


def path_from_dotted(dotted: str, root: tuple[Hashable, ...] = ()) -> tuple[Hashable, ...]:
    """'weights.red' or 'seats[2].at' (an option error's key) -> a marks path."""
    parts: list[Hashable] = list(root)
    for piece in dotted.replace("]", "").replace(" key", "").split("."):
        if not piece:
            continue
        name, *indices = piece.split("[")
        if name:
            parts.append(name)
        parts.extend(int(i) for i in indices if i.isdigit())
    return tuple(parts)


def load_marked(
    text: str, filename: str = "<string>", *, max_depth: int = MAX_DEPTH, max_values: int = MAX_VALUES
) -> MarkedYaml:
    """Parse one YAML document into plain data with marks; raises YamlError."""
    builder = _Builder(filename, max_depth, max_values)
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            builder.feed(event)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        where = _where(filename, mark.line, mark.column) if mark else f"{filename}:1:1"
        raise YamlError(f"{where}: YAML syntax error: {_syntax_problem(exc)}") from None
    except yaml.reader.ReaderError as exc:
        raise YamlError(f"{_offset_where(filename, text, exc.position)}: {_bad_character(exc.character)}") from None
    return builder.result


def load_marked_file(path: str | Path, *, max_bytes: int = MAX_BYTES) -> MarkedYaml:
    """Read a UTF-8 YAML file of at most `max_bytes`; every failure is a YamlError."""
    p = Path(path)
    try:
        with p.open("rb") as stream:
            raw = stream.read(max_bytes + 1)
    except FileNotFoundError:
        raise YamlError(f"{p}: file not found; check the path") from None
    except IsADirectoryError:
        raise YamlError(f"{p}: is a directory; give the path of a .yaml file") from None
    except PermissionError:
        raise YamlError(f"{p}: permission denied; make the file readable (chmod +r)") from None
    except OSError as exc:
        raise YamlError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    if len(raw) > max_bytes:
        raise YamlError(f"{p}:1:1: the file is larger than {max_bytes} bytes; is it the right file?")
    return load_marked(_decode(raw, str(p)), str(p))


def _decode(raw: bytes, filename: str) -> str:
    for bom, encoding in _BOMS.items():
        if raw.startswith(bom):
            raise YamlError(f"{filename}:1:1: the file is saved as {encoding}; save it as UTF-8")
    try:
        return raw.decode("utf-8-sig")  # a UTF-8 byte order mark is harmless: drop it
    except UnicodeDecodeError as exc:
        start = exc.start
        line_start = raw.rfind(b"\n", 0, start) + 1
        line = raw.count(b"\n", 0, start) + 1
        column = len(raw[line_start:start].decode("utf-8", errors="replace")) + 1
        raise YamlError(
            f"{filename}:{line}:{column}: byte 0x{raw[start]:02X} is not UTF-8 text; save the file as UTF-8"
        ) from None


def _where(filename: str, line0: int, column0: int) -> str:
    return f"{filename}:{line0 + 1}:{column0 + 1}"


def _offset_where(filename: str, text: str, index: int) -> str:
    line_start = text.rfind("\n", 0, index) + 1
    return _where(filename, text.count("\n", 0, index), index - line_start)


def _syntax_problem(exc: yaml.MarkedYAMLError) -> str:
    problem = exc.problem or str(exc)
    if exc.context and exc.context not in problem:
        problem = f"{problem} ({exc.context})"
    if "'\\t'" in problem:
        problem += "; indent with spaces, YAML does not allow tabs there"
    return problem


_CONTROL_NAMES = {
    0x0: "NUL", 0x7: "BELL", 0x8: "BACKSPACE", 0x9: "TAB", 0xA: "LINE FEED", 0xD: "CARRIAGE RETURN",
    0x1B: "ESCAPE", 0x7F: "DELETE",
}  # fmt: skip


def describe_character(char: str) -> str:
    """'U+202E (RIGHT-TO-LEFT OVERRIDE)': invisible characters need a name to be found."""
    name = _CONTROL_NAMES.get(ord(char)) or unicodedata.name(char, "a control character")
    return f"U+{ord(char):04X} ({name})"


def _bad_character(character: int | str) -> str:
    char = chr(character) if isinstance(character, int) else str(character)
    return f"character {describe_character(char)} is not allowed in YAML; delete it"


def printable(text: str) -> str:
    """`text` with invisible and line-breaking characters escaped, so an error stays one honest line."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def short_repr(value: Any, limit: int = 60) -> str:
    """repr() cut to `limit` characters: an error line quoting a 5,000-deep value stays readable."""
    shown = repr(value)
    return shown if len(shown) <= limit else shown[: limit - 3] + "..."


_scalar_loader = yaml.SafeLoader("")
_NO_KEY = object()


@dataclass
class _Open:
    """A mapping or sequence being filled, and where it sits."""

    value: dict[Any, Any] | list[Any]
    path: PathKey
    anchor: str | None
    first: int  # index in `_Builder.order` of this node's own mark
    key: Any = _NO_KEY  # a mapping's key waiting for its value


@dataclass
class _Anchor:
    value: Any
    marks: list[tuple[PathKey, Mark]]  # relative to the anchored node; () is the node itself


class _Builder:
    """Turns parser events into plain values and marks, enforcing every bound as it goes."""

    def __init__(self, filename: str, max_depth: int, max_values: int) -> None:
        self.result = MarkedYaml(None, filename)
        self.max_depth = max_depth
        self.max_values = max_values
        self.stack: list[_Open] = []
        self.anchors: dict[str, _Anchor] = {}
        self.order: list[PathKey] = []
        self.documents = 0

    def fail(self, mark: Mark, message: str) -> YamlError:
        return YamlError(f"{self.result.filename}:{mark[0]}:{mark[1]}: {message}")

    def feed(self, event: yaml.Event) -> None:
        start = event.start_mark
        mark = (start.line + 1, start.column + 1) if start else (1, 1)
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise self.fail(mark, "a second document ('---'); this file holds one: remove the line")
        elif isinstance(event, yaml.AliasEvent):
            self.alias(event.anchor or "", mark)
        elif isinstance(event, yaml.ScalarEvent):
            value = self.scalar(event, mark)
            self.place(value, mark)
            self.anchor_leaf(event.anchor, value, mark)
        elif isinstance(event, yaml.SequenceStartEvent | yaml.MappingStartEvent):
            self.open(event, mark)
        elif isinstance(event, yaml.SequenceEndEvent | yaml.MappingEndEvent):
            self.close()

    # -- values -------------------------------------------------------------------------
    def scalar(self, event: yaml.ScalarEvent, mark: Mark) -> Any:
        tag = event.tag
        if tag is None or tag == "!":
            tag = _scalar_loader.resolve(yaml.ScalarNode, event.value, event.implicit)
            if tag == _VALUE_TAG:  # a bare '=' is text to a person, not YAML 1.1's value key
                tag = f"{_STD}str"
        if tag == _MERGE_TAG:
            raise self.fail(mark, "'<<' merge keys are not supported; write the keys out")
        if tag not in _SCALAR_TAGS:
            raise self.fail(mark, f"unknown tag {event.tag or tag!r}; remove it (plain values need no tag)")
        node = yaml.ScalarNode(tag, event.value, style=event.style)
        try:
            return _scalar_loader.construct_object(node, deep=True)
        except Exception:  # a PyYAML constructor's ValueError/KeyError on an impossible value
            raise self.fail(mark, f"{short_repr(event.value)} is not a valid {_SCALAR_TAGS[tag]}") from None
        finally:
            _scalar_loader.constructed_objects.clear()

    def open(self, event: yaml.CollectionStartEvent, mark: Mark) -> None:
        if event.tag not in (None, "!", *_COLLECTION_TAGS):
            raise self.fail(mark, f"unknown tag {event.tag!r}; remove it (plain mappings and lists need no tag)")
        if len(self.stack) >= self.max_depth:
            raise self.fail(mark, f"nested deeper than {self.max_depth} levels; flatten the file")
        container: dict[Any, Any] | list[Any] = {} if isinstance(event, yaml.MappingStartEvent) else []
        path = self.place(container, mark)
        self.stack.append(_Open(container, path, event.anchor, len(self.order) - 1))

    def close(self) -> None:
        done = self.stack.pop()
        if done.anchor is not None:
            depth = len(done.path)
            marks = [(p[depth:], self.result.marks[p]) for p in self.order[done.first :]]
            self.anchors[done.anchor] = _Anchor(done.value, marks)

    def anchor_leaf(self, anchor: str | None, value: Any, mark: Mark) -> None:
        if anchor is not None:
            self.anchors[anchor] = _Anchor(value, [((), mark)])

    def alias(self, name: str, mark: Mark) -> None:
        if any(o.anchor == name for o in self.stack):
            raise self.fail(mark, f"alias *{name} is used inside its own anchor &{name} (a loop); remove it")
        anchor = self.anchors.get(name)
        if anchor is None:
            raise self.fail(mark, f"alias *{name} has no anchor &{name} before it")
        if len(self.order) + len(anchor.marks) > self.max_values:
            raise self.fail(mark, f"alias *{name} expands the file past {self.max_values} values; use fewer aliases")
        if isinstance(anchor.value, dict | list) and self.expecting_key():
            raise self.fail(mark, "a mapping key must be a plain value")
        path = self.place(copy.deepcopy(anchor.value), mark)
        for relative, inner in anchor.marks[1:]:
            self.mark((*path, *relative), inner)

    # -- placement ----------------------------------------------------------------------
    def expecting_key(self) -> bool:
        return bool(self.stack) and isinstance(self.stack[-1].value, dict) and self.stack[-1].key is _NO_KEY

    def place(self, value: Any, mark: Mark) -> PathKey:
        """Put a value where the parser is; return its path (a key gets no path of its own)."""
        if not self.stack:
            self.result.data = value
            self.mark((), mark)
            return ()
        top = self.stack[-1]
        if isinstance(top.value, list):
            path = (*top.path, len(top.value))
            top.value.append(value)
        elif top.key is _NO_KEY:
            self.key(top, value, mark)
            return top.path
        else:
            path = (*top.path, top.key)
            top.value[top.key] = value
            top.key = _NO_KEY
        self.mark(path, mark)
        return path

    def key(self, top: _Open, key: Any, mark: Mark) -> None:
        if not isinstance(key, Hashable) or isinstance(key, dict | list):
            raise self.fail(mark, "a mapping key must be a plain value")
        if key in top.value:
            raise self.fail(mark, f"duplicate key {key!r}; each key may appear once")
        top.key = key

    def mark(self, path: PathKey, mark: Mark) -> None:
        if len(self.order) >= self.max_values:
            raise self.fail(mark, f"more than {self.max_values} values; is this the right file?")
        self.result.marks[path] = mark
        self.order.append(path)
