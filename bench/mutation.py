"""Mutation score per correctness-guarding module, with cosmic-ray (issue 20, item 1).

Why cosmic-ray [decided here]: its configuration is one module and one test command, so each
module is mutated against only the tests that are meant to guard it (the MODULES map below) and
a run stays minutes, not hours. mutmut 3 instead copies the whole tree into ``mutants/`` and picks
tests from its own coverage stats, which fits badly with our src-less layout, the Node fixtures
and the per-module test sets we want to measure. cosmic-ray 8 is maintained and stores every
result in a SQLite session, so an interrupted run resumes where it stopped.

cosmic-ray mutates the file in place while a mutant's tests run, so this script runs it in a copy
of the tree (``WORKDIR/tree``, refreshed each run): the worktree is never touched, and a mutant
can never be committed or leak into other tests run from the worktree [decided here, after a
first in-place run did exactly that]. Tests run with the copy as the working directory, and
``python -m pytest`` puts it first on ``sys.path``, ahead of the editable install.

    python bench/mutation.py                 # the small modules (chips, varint, palette, ...)
    python bench/mutation.py chips journal   # named modules
    python bench/mutation.py --all           # every module, games and pipeline too (hours)
    python bench/mutation.py --list          # the map, with mutant counts and no test run
    python bench/mutation.py --all --sample 80   # a seeded random 80 mutants per module
    python bench/mutation.py bribery.parse --sample 25   # a game's chat parser (<game>.parse)
    python bench/mutation.py table --workdir W --retry-survivors   # W's survivors, new tests

A full run of every module is about 10,000 mutants (20-25 hours on two cores). ``--sample N``
runs a seeded uniform random sample of N mutants per module instead and prints the score with
its 95% Wilson interval [decided here: a sample gives an unbiased estimate in minutes, where the
budget alone would measure only the first lines of each file].

``--retry-survivors`` (with ``--workdir``) forgets a finished session's survivors and runs only
them again against the tests as they are now: the check that a new test kills what it was
written for. It is only valid while the mutated module is unchanged since the session began
(cosmic-ray finds a mutant again by operator and occurrence); after a change, start a new session.
Survivors that no input can tell from the original are listed, with the reason, in
``bench/mutation_equivalents.md``, which also holds the last measured scores.

Output: per module ``killed / total`` (a timeout counts as killed; left out of the total are an
incompetent mutant, one that does not even import, and a mutant inside a type annotation) and
each survivor as ``file:line: operator`` with its diff's changed line.
"""

from __future__ import annotations

import argparse
import ast
import math
import os
import random
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
COSMIC = [PYTHON, "-m", "cosmic_ray.cli"]


@dataclass(frozen=True)
class Target:
    """One module under mutation and the test files that are meant to catch its bugs."""

    module: str
    tests: tuple[str, ...]
    small: bool = False


# Golden transcripts first: they replay every game in under two seconds and catch most rule
# changes, so with -x a killed mutant costs seconds; the slow random playthroughs come last.
GOLDEN = "tests/games/test_golden_transcripts.py"
BAD_INPUT = "tests/games/test_every_game_bad_input.py"
CONTRACT = "tests/games/test_every_game_contract.py"
# Each game's test files (their prefix) and any other modules of it that hold rules logic.
GAME_TESTS = {
    "wool_bluff": ("wool_bluff", ()),
    "dice_bluff": ("dice_bluff", ("ladder",)),
    "bribery": ("bribery", ()),
    "braff": ("braff", ("showdown",)),
    "briscola_bugiarda": ("briscola", ("scoring",)),
}


def _games() -> dict[str, Target]:
    """Each game's rules modules against that game's own tests, its golden transcript and its
    cases of the every-game bad-input and contract suites: ``-k`` keeps the tests whose file or
    parameter names the game [decided here: the every-game suites run all five games otherwise,
    and a surviving mutant pays for all of them]."""
    out = {}
    for game, (prefix, extra) in GAME_TESTS.items():
        own = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests/games").glob(f"test_{prefix}_*.py"))
        tests = ("-k", prefix, GOLDEN, *own, BAD_INPUT, CONTRACT)
        for stem in ("rules", *extra):
            out[f"{game}.{stem}"] = Target(f"mcbridge/games/{game}/{stem}.py", tests)
        out[f"{game}.parse"] = _parse(game, prefix)
    return out


#: the suites that type chat at every game (``-k`` keeps one game's cases)
CHAT_SUITES = (
    "tests/games/test_chat_natural.py",
    "tests/games/test_chat_round_trip.py",
    "tests/games/test_every_text_renders.py",
    f"{BAD_INPUT}::test_any_chat_line_parses_to_an_action_or_a_refusal",
)
#: a game's own test files that type at its parser, by the part of the name after its prefix
PARSE_FILES = ("parse_mutants", "text", "input", "play")
#: table tests where players type: seconds each, through the embedded world and the locale
TABLE_CHAT = {"wool_bluff": ("tests/tables/test_tables_chat.py",)}


def _parse(game: str, prefix: str) -> Target:
    """A game's chat parser against its own text tests first, then the chat suites' cases for
    that game, then the table tests where players type at it [decided here: the rules tests
    never type, and the golden transcripts and the contract suite apply actions, not text]."""
    own = [f"tests/games/test_{prefix}_{part}.py" for part in PARSE_FILES]
    table = TABLE_CHAT.get(game, ())
    keep = " or ".join((prefix, *(Path(t).stem for t in table)))
    tests = ("-k", keep, *(t for t in own if (ROOT / t).exists()), *CHAT_SUITES, *table)
    return Target(f"mcbridge/games/{game}/parse.py", tests)


def _core(stem: str) -> Target:
    """A core module against its own test files first (its `_mutants` file, written for a
    sample's survivors, leads, so a retry of those survivors dies in seconds), then every game
    through the golden transcripts, the rest of tests/core, the bad-input and the contract
    suites (the core's behaviour is what the games do with it)."""
    own = [ROOT / f"tests/core/test_core_{stem}{tail}.py" for tail in ("_mutants", "")]
    first = [p for p in own if p.exists()]
    # the rest of tests/core by name, not as the directory: pytest collects a file named beside
    # its own directory in the directory's order, which ran a module's own tests 540th
    rest = [p for p in sorted((ROOT / "tests/core").glob("test_*.py")) if p not in first]
    ordered = (str(p.relative_to(ROOT)) for p in (*first, ROOT / GOLDEN, *rest))
    return Target(f"mcbridge/core/{stem}.py", (*ordered, BAD_INPUT, CONTRACT))


MODULES: dict[str, Target] = {
    "chips": Target(
        "mcbridge/core/chips.py", ("tests/core/test_chips_mutants.py", "tests/core/test_core_chips.py"), small=True
    ),
    "varint": Target(
        "worldgen/varint.py",
        ("tests/worldgen/test_worldgen_varint.py", "tests/worldgen/test_worldgen_formats.py"),
        small=True,
    ),
    "palette": Target(
        "worldgen/formats/palette.py",
        ("tests/worldgen/test_palette_mutants.py", "tests/worldgen/test_worldgen_varint.py",
         "tests/worldgen/test_worldgen_formats.py", "tests/worldgen/test_worldgen_litematica.py",
         "tests/worldgen/test_worldgen_hostile.py"),
        small=True,
    ),
    "reconcile": Target(
        "mcbridge/tables/reconcile.py",
        # after the `_mutants` files the sans-world model-world diff test: every fast path of `write`
        ("tests/tables/test_reconcile_mutants.py", "tests/tables/test_reconcile_runs_mutants.py",
         "tests/tables/test_reconcile_rows_mutants.py", "tests/tables/test_reconcile_diff.py",
         "tests/tables/test_reconcile_runs.py", "tests/tables/test_tables_recovery.py",
         "tests/tables/test_tables_runtime.py"),
        small=True,
    ),
    "journal": Target(
        "mcbridge/tables/journal.py",
        ("tests/tables/test_journal_mutants.py", "tests/tables/test_journal_matches.py",
         "tests/tables/test_tables_resume.py", "tests/tables/test_journal_check.py",
         "tests/tables/test_journal_faults.py", "tests/tables/test_tables_recovery.py"),
        small=True,
    ),
    "table": Target(
        "mcbridge/tables/table.py",
        # the sans-world table tests and the fast seat, lobby and chat ones first: most mutants die there
        ("tests/tables/test_table_mutants.py", "tests/tables/test_tables_seats.py",
         "tests/tables/test_tables_lobby.py", "tests/tables/test_tables_chat.py",
         "tests/tables/test_refusal_notes.py", "tests/tables/test_operator_actions.py",
         "tests/tables/test_tables_resume.py", "tests/tables/test_tables_recovery.py",
         "tests/tables/test_tables_match.py"),
    ),
    "pipeline": Target(
        "mcbridge/world/pipeline.py",
        ("tests/world/test_pipeline_mutants.py", "tests/world/test_pipeline_script.py",
         "tests/world/test_connection.py", "tests/world/test_connection_faults.py",
         "tests/world/test_connection_async.py", "tests/world/test_conformance_wire.py"),
    ),
    **{
        f"core.{p.stem}": _core(p.stem)
        for p in sorted((ROOT / "mcbridge/core").glob("*.py"))
        if p.stem not in ("__init__", "chips")
    },
    **_games(),
}


def _config(target: Target, timeout: float) -> str:
    tests = shlex.join(target.tests)  # a `-k` expression has spaces
    command = f"{PYTHON} -m pytest -x -q -p no:cacheprovider -o addopts= {tests}"
    return (
        "[cosmic-ray]\n"
        f'module-path = "{target.module}"\n'
        f"timeout = {timeout}\n"
        "excluded-modules = []\n"
        f'test-command = "{command}"\n'
        '[cosmic-ray.distributor]\nname = "local"\n'
    )


def _timeout(config: Path) -> float:
    """The per-mutant timeout a session was started with (its first baseline set it)."""
    for line in config.read_text().splitlines():
        if line.startswith("timeout = "):
            return float(line.split("=", 1)[1])
    raise SystemExit(f"{config}: no timeout line")


def _annotation_spans(source: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where type annotations are; with ``from __future__ import annotations`` (DESIGN §6) they are
    never evaluated, so a mutant there is equivalent by construction and is not run."""
    spans = []
    for node in ast.walk(ast.parse(source)):
        note: ast.expr | None = None
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            note = node.returns
        elif isinstance(node, (ast.arg, ast.AnnAssign)):
            note = node.annotation
        if note is not None and note.end_lineno is not None and note.end_col_offset is not None:
            spans.append(((note.lineno, note.col_offset), (note.end_lineno, note.end_col_offset)))
    return spans


def _skip_annotations(session: Path, source: Path) -> int:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    text = source.read_text()
    if "from __future__ import annotations" not in text:
        return 0
    spans = _annotation_spans(text)
    skipped = 0
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item in db.pending_work_items:
            start = tuple(item.mutations[0].start_pos)
            if any(lo <= start < hi for lo, hi in spans):
                db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
                skipped += 1
    return skipped


def _keep_sample(session: Path, size: int, seed: int) -> int:
    """Mark all but a seeded random `size` of the pending mutants as skipped; returns how many
    were pending before, so that the report can say what the sample stands for."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    with use_db(str(session), WorkDB.Mode.open) as db:
        pending = sorted(item.job_id for item in db.pending_work_items)
        keep = set(random.Random(seed).sample(pending, min(size, len(pending))))
        for job_id in pending:
            if job_id not in keep:
                db.set_result(job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED))
    return len(pending)


def _wilson(killed: int, total: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a sampled kill rate, in percent."""
    if total == 0:
        return 100.0, 100.0
    p = killed / total
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return 100.0 * (centre - half), 100.0 * (centre + half)


def _baseline_seconds(target: Target, tree: Path) -> float:
    """The unmutated tests must pass; their time sets the per-mutant timeout."""
    start = time.monotonic()
    done = subprocess.run(
        [PYTHON, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *target.tests],
        cwd=tree, capture_output=True, text=True, timeout=900,
    )
    if done.returncode != 0:
        raise SystemExit(f"baseline tests fail for {target.module}:\n{done.stdout[-2000:]}")
    return time.monotonic() - start


def _changed_line(diff: str | None) -> str:
    for line in (diff or "").splitlines():
        if line.startswith("+") and not line.startswith("+++"):
            return line[1:].strip()
    return ""


def _report(name: str, session: Path, population: int = 0) -> tuple[int, int]:
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import TestOutcome

    killed = total = 0
    survivors = []
    with use_db(str(session), WorkDB.Mode.open) as db:
        for item, result in db.completed_work_items:
            if result.test_outcome == TestOutcome.INCOMPETENT or result.test_outcome is None:
                continue
            total += 1
            if result.is_killed:
                killed += 1
                continue
            spec = item.mutations[0]
            survivors.append(
                f"    {spec.module_path}:{spec.start_pos[0]}: {spec.operator_name.split('/')[-1]}"
                f"  ->  {_changed_line(result.diff)}"
            )
        pending = db.num_work_items - db.num_results
    score = 100.0 * killed / total if total else 100.0
    tail = f" ({pending} not run)" if pending else ""
    if population:
        low, high = _wilson(killed, total)
        tail += f"  sample of {population}: 95% CI {low:.0f}-{high:.0f}%"
    print(f"{name:24} {killed:4} / {total:<4} killed  {score:5.1f}%{tail}", flush=True)
    for line in sorted(survivors, key=lambda s: int(s.split(":")[1])):
        print(line)
    return killed, total


def _copy_tree(workdir: Path) -> Path:
    """A fresh copy of the sources and tests for cosmic-ray to mutate."""
    tree = workdir / "tree"
    shutil.rmtree(tree, ignore_errors=True)
    skip = shutil.ignore_patterns(".git", ".venv", "node_modules", "__pycache__", ".*_cache", ".hypothesis")
    shutil.copytree(ROOT, tree, symlinks=True, ignore=skip)
    return tree


def _retry_survivors(session: Path) -> int:
    """Forget the survivors' results so the next exec runs them again, against the tests as
    they are now (a fresh copy of the tree): the check that a new test kills what it was
    written for, without re-running the mutants that were already killed."""
    with sqlite3.connect(session) as db:
        return db.execute("DELETE FROM work_results WHERE test_outcome = 'SURVIVED'").rowcount


def run(
    name: str, target: Target, tree: Path, workdir: Path, budget: float, sample: int = 0, seed: int = 1,
    retry: bool = False,
) -> None:
    """Mutate one module in the copy; an existing session in `workdir` resumes."""
    session = workdir / f"{name}.sqlite"
    config = workdir / f"{name}.toml"
    population_file = workdir / f"{name}.population"
    if session.exists() and retry:
        config.write_text(_config(target, _timeout(config)))  # the map may have grown since
        print(f"{name}: running {_retry_survivors(session)} survivors again", file=sys.stderr)
    if not session.exists():
        timeout = max(30.0, 4 * _baseline_seconds(target, tree))
        config.write_text(_config(target, timeout))
        subprocess.run([*COSMIC, "init", str(config), str(session)], cwd=tree, check=True)
        _skip_annotations(session, tree / target.module)
        if sample:
            population_file.write_text(str(_keep_sample(session, sample, seed)))
    population = int(population_file.read_text()) if population_file.exists() else 0
    # its own process group, so that the budget (or Ctrl-C) also stops the mutant's pytest
    worker = subprocess.Popen([*COSMIC, "exec", str(config), str(session)], cwd=tree, start_new_session=True)
    try:
        worker.wait(timeout=budget)
    except subprocess.TimeoutExpired:
        print(f"{name}: budget of {budget:.0f} s spent; rerun with --workdir to resume", file=sys.stderr)
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=30)
        # a worker stopped mid-mutant leaves that mutant in the copy: put the module back
        shutil.copy2(ROOT / target.module, tree / target.module)
    _report(name, session, population)


def _count(target: Target, tree: Path, workdir: Path) -> int:
    from cosmic_ray.work_db import WorkDB, use_db

    config = workdir / "count.toml"
    session = workdir / "count.sqlite"
    session.unlink(missing_ok=True)
    config.write_text(_config(target, 1.0))
    subprocess.run([*COSMIC, "init", str(config), str(session)], cwd=tree, check=True)
    with use_db(str(session), WorkDB.Mode.open) as db:
        return int(db.num_work_items)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("modules", nargs="*", help=f"names from: {', '.join(MODULES)}")
    parser.add_argument("--all", action="store_true", help="every module (games and pipeline: hours)")
    parser.add_argument("--list", action="store_true", help="print the map and mutant counts only")
    parser.add_argument("--workdir", type=Path, help="keep sessions here to resume (default: a temp dir)")
    parser.add_argument("--budget", type=float, default=1800.0, help="seconds per module before stopping")
    parser.add_argument("--sample", type=int, default=0, help="run a seeded random N mutants per module")
    parser.add_argument("--seed", type=int, default=1, help="the sample's seed")
    parser.add_argument(
        "--retry-survivors", action="store_true",
        help="with --workdir: run a finished session's survivors again against the current tests",
    )
    args = parser.parse_args(argv)
    unknown = [m for m in args.modules if m not in MODULES]
    if unknown:
        parser.error(f"unknown module(s) {', '.join(unknown)}; choose from {', '.join(MODULES)}")
    names = args.modules or [n for n, t in MODULES.items() if args.all or t.small]
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        workdir = args.workdir or Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        tree = _copy_tree(workdir)
        for name in names:
            target = MODULES[name]
            if args.list:
                count = _count(target, tree, workdir)
                print(f"{name:24} {count:5} mutants  {target.module}  <- {' '.join(target.tests)}")
            else:
                run(name, target, tree, workdir, args.budget, args.sample, args.seed, args.retry_survivors)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
