"""Errors for people: which file, which format and version, which field, and what to do."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from worldgen.planner import Plan

#: One flag per plan step: confirmed written.
Written = npt.NDArray[np.bool_]


class SchematicError(Exception):
    """A schematic file that cannot be read or written as asked.

    The message names the file, the format (with its version when known) and the field,
    e.g. ``arena.schem: Sponge .schem v3: Schematic.Blocks.Data: ...``.
    """

    def __init__(self, path: str, message: str, *, fmt: str | None = None, field: str | None = None) -> None:
        self.path = path
        self.fmt = fmt
        self.field = field
        self.reason = message
        where = ": ".join(part for part in (path, fmt, field) if part)
        super().__init__(f"{where}: {message}")


class PasteIncomplete(Exception):
    """A paste or repair stopped part way: what is confirmed written, what is not, and why.

    ``written`` has one flag per step of ``plan``; ``cause`` is the world error that
    stopped it (the failing command is named there). Steps not confirmed may or may not
    be in the world; sending them again is harmless (a box of the same block is a no-op).
    """

    def __init__(self, plan: Plan, written: Written, cause: Exception) -> None:
        self.plan = plan
        self.written = written
        self.cause = cause
        super().__init__(self.describe())

    def counts(self) -> dict[str, Any]:
        blocks = np.fromiter((step.blocks for step in self.plan.steps), dtype=np.int64)
        return {
            "written_commands": int(self.written.sum()),
            "written_blocks": int(blocks[self.written].sum()),
            "missing_commands": int((~self.written).sum()),
            "missing_blocks": int(blocks[~self.written].sum()),
        }

    def describe(self) -> str:
        c = self.counts()
        return (
            f"stopped: {self.cause}; written: {c['written_commands']} of"
            f" {self.plan.commands} commands ({c['written_blocks']} blocks); not written:"
            f" {c['missing_commands']} commands ({c['missing_blocks']} blocks)"
        )
