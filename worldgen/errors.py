"""Errors for people: which file, which format and version, which field, and what to do."""

from __future__ import annotations


class SchematicError(Exception):
    """A schematic file that cannot be read or written as asked.

    The message names the file, the format (with its version when known) and the field,
    e.g. ``arena.schem: Sponge .schem v3: Schematic.Blocks.Data: ...``.
    """

    def __init__(
        self, path: str, message: str, *, fmt: str | None = None, field: str | None = None
    ) -> None:
        self.path = path
        self.fmt = fmt
        self.field = field
        self.reason = message
        where = ": ".join(part for part in (path, fmt, field) if part)
        super().__init__(f"{where}: {message}")
