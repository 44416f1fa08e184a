"""Where an interrupted paste stopped, kept on disk so `worldgen paste --resume` goes on.

A plan is a pure function of the schematic's bytes, the position, the rotation, the
fallback block and the box cap, so the state file holds those (the *fingerprint*) and one
bit per step: confirmed written. Resuming re-plans, checks the fingerprint and the step
count, and sends only the steps not confirmed. Anything else (a changed file, another
position, another `--max-box`) is refused with the difference named: `worldgen repair`
then finishes the job by reading the world.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from worldgen.errors import Written

STATE_VERSION = 1
SUFFIX = ".paste-state.json"


@dataclass(frozen=True)
class Fingerprint:
    sha256: str
    at: tuple[int, int, int]
    rotate: int
    fallback: str
    max_box: int
    commands: int


def file_digest(path: str | os.PathLike[str]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def default_state_path(schematic: str | os.PathLike[str]) -> Path:
    return Path(f"{schematic}{SUFFIX}")


def save(path: Path, fingerprint: Fingerprint, written: Written) -> None:
    """Write atomically: a crash while saving keeps the previous state."""
    document = {
        "version": STATE_VERSION,
        **asdict(fingerprint),
        "written": base64.b64encode(np.packbits(written).tobytes()).decode("ascii"),
    }
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


class ResumeError(ValueError):
    """The saved state cannot continue this paste; the message says why."""


def load(path: Path, expected: Fingerprint) -> Written:
    """The steps already written, if the saved state belongs to this very plan."""
    try:
        document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResumeError(f"{path}: no saved paste to resume (it finished, or never ran)") from None
    except (OSError, ValueError) as exc:
        raise ResumeError(f"{path}: not a paste state file ({exc})") from None
    if not isinstance(document, dict) or document.get("version") != STATE_VERSION:
        raise ResumeError(f"{path}: not a version {STATE_VERSION} paste state file")
    for name, want in asdict(expected).items():
        have = document.get(name)
        if isinstance(want, tuple):
            have = tuple(have) if isinstance(have, list) else have
        if have != want:
            raise ResumeError(
                f"{path}: the saved paste had {name}={have!r}, this one has {want!r};"
                " the plans differ, so run `mcbridge worldgen repair` to finish instead"
            )
    try:
        packed = np.frombuffer(base64.b64decode(document["written"], validate=True), np.uint8)
    except (KeyError, TypeError, ValueError) as exc:
        raise ResumeError(f"{path}: the written flags are unreadable ({exc})") from None
    bits = np.unpackbits(packed)[: expected.commands].astype(bool)
    if bits.size != expected.commands:
        raise ResumeError(f"{path}: the written flags are cut short")
    return bits
