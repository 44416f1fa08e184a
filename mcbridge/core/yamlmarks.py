"""YAML loading that remembers where every value came from.

Operators and game designers edit YAML by hand; an error that says
`config/arenas/x.yaml:14:7` saves them the hunt. PyYAML's composer keeps a mark on every
node, so we construct plain Python values ourselves and keep a `path -> (line, column)` map.
Duplicate keys, which PyYAML silently accepts, are errors here.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

PathKey = tuple[Hashable, ...]


class YamlError(ValueError):
    """A YAML file that cannot be read; the message starts with file:line:column."""


@dataclass
class MarkedYaml:
    """Plain data plus the 1-based line and column of every value and mapping key."""

    data: Any
    filename: str
    marks: dict[PathKey, tuple[int, int]] = field(default_factory=dict)

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


def load_marked(text: str, filename: str = "<string>") -> MarkedYaml:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{filename}:{mark.line + 1}:{mark.column + 1}" if mark else filename
        problem = getattr(exc, "problem", None) or str(exc)
        raise YamlError(f"{where}: YAML syntax error: {problem}") from None
    result = MarkedYaml(None, filename)
    if node is not None:
        result.data = _construct(node, (), result)
    return result


def load_marked_file(path: str | Path) -> MarkedYaml:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise YamlError(f"{p}: file not found") from None
    except UnicodeDecodeError as exc:
        raise YamlError(f"{p}: not UTF-8 text (byte {exc.start}); save the file as UTF-8") from None
    return load_marked(text, str(p))


_scalar_loader = yaml.SafeLoader("")


def _construct(node: yaml.Node, path: PathKey, out: MarkedYaml) -> Any:
    out.marks[path] = (node.start_mark.line + 1, node.start_mark.column + 1)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                line = key_node.start_mark.line + 1
                raise YamlError(f"{out.filename}:{line}: '<<' merge keys are not supported; write the keys out")
            key = _construct(key_node, (*path, "<key>"), out)
            if not isinstance(key, Hashable):
                raise YamlError(f"{out.where((*path, '<key>'))}: a mapping key must be a plain value")
            if key in result:
                raise YamlError(
                    f"{out.filename}:{key_node.start_mark.line + 1}:{key_node.start_mark.column + 1}: "
                    f"duplicate key {key!r}; each key may appear once"
                )
            result[key] = _construct(value_node, (*path, key), out)
        out.marks.pop((*path, "<key>"), None)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_construct(item, (*path, i), out) for i, item in enumerate(node.value)]
    value = _scalar_loader.construct_object(node, deep=True)
    _scalar_loader.constructed_objects.clear()
    return value
