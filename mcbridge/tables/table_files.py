"""Several tables under one supervisor: arena files that hold a `tables:` list, several
files at once, and the checks that only make sense across tables.

An arena file is either one arena (the keys `name`, `game`, `origin`, ...) or a mapping
with a single key `tables:`, a list of such arenas, of any games. `mcbridge validate`,
`arena build` and `run` take one or more files, so `mcbridge run A.yaml B.yaml` and a file
listing A and B are the same thing.

Across tables: names are unique (the journal keeps and resumes matches by arena name, so two
tables sharing one would take over each other's matches) and arenas do not overlap in the
world (a block of one would be drawn by two tables, and a click on it would be ambiguous).
Every problem of every file is reported in one pass, as file:line:column.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from mcbridge.core.yamlmarks import MarkedYaml, YamlError, load_marked_file
from mcbridge.tables.arena import Arena, ArenaError
from mcbridge.tables.config import check_arena

TABLES = "tables"


def load_tables(paths: Iterable[str | Path]) -> list[Arena]:
    """Every table of every file, in order; ArenaError listing every problem found."""
    found: list[tuple[Arena, MarkedYaml]] = []
    problems: list[str] = []
    for path in paths:
        found += _tables_of(path, problems)
    _check_across(found, problems)
    if problems:
        raise ArenaError(problems)
    return [arena for arena, _ in found]


def _tables_of(path: str | Path, problems: list[str]) -> list[tuple[Arena, MarkedYaml]]:
    try:
        marked = load_marked_file(path)
    except YamlError as exc:
        problems.append(str(exc))
        return []
    raw = marked.data
    if not isinstance(raw, dict) or TABLES not in raw:
        return _checked(marked, problems)
    for key in raw:
        if key != TABLES:
            problems.append(
                f"{marked.where((key,))}: '{key}': a file with a '{TABLES}:' list holds only that list; "
                f"move '{key}' into the tables it is for"
            )
    items = raw[TABLES]
    if not isinstance(items, list) or not items:
        problems.append(f"{marked.where((TABLES,))}: {TABLES}: expected a list of arenas (name, game, origin, ...)")
        return []
    found = []
    for i, item in enumerate(items):
        prefix = (TABLES, i)
        marks = {key[2:]: mark for key, mark in marked.marks.items() if key[:2] == prefix}
        # the one table's marks, so its problems point at the right line; a table with no
        # marks of its own (an empty item) points at the list entry
        marks.setdefault((), marked.marks.get(prefix, (1, 1)))
        found += _checked(MarkedYaml(item, marked.filename, marks), problems)
    return found


def _checked(marked: MarkedYaml, problems: list[str]) -> list[tuple[Arena, MarkedYaml]]:
    try:
        return [(check_arena(marked), marked)]
    except ArenaError as exc:
        problems += exc.problems
        return []


def _check_across(found: list[tuple[Arena, MarkedYaml]], problems: list[str]) -> None:
    for i, (arena, marked) in enumerate(found):
        area = arena.frame.cuboid_to_world(arena.bounds)
        for other, other_marked in found[:i]:
            if other.name == arena.name:
                problems.append(
                    f"{marked.where(('name',))}: name: '{arena.name}' is already the name of the table at "
                    f"{other_marked.where(('name',))}; every table needs its own (the journal keeps matches by it)"
                )
            other_area = other.frame.cuboid_to_world(other.bounds)
            if area.intersects(other_area):
                problems.append(
                    f"{marked.where(('origin',))}: table '{arena.name}' ({area.lo}..{area.hi} in the world) overlaps "
                    f"table '{other.name}' ({other_area.lo}..{other_area.hi}, {other_marked.where(('origin',))}); "
                    "move its 'origin'"
                )
