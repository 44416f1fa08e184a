"""Fuzz: mutants of every shipped arena through `mcbridge validate` and `mcbridge run`.

Whatever the bytes, the answer is exit 0 ("OK: ...") or exit 1 with every problem as
``file:line:column: message``, and never a traceback (a bug would surface as exit 70 or an
exception out of `main`). Seeds are fixed, so a failure names the seed that reproduces it;
MCBRIDGE_FUZZ_MUTANTS=5000 runs a longer campaign locally.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from yaml_mutants import mutant

from mcbridge import CONFIG_DIR
from mcbridge.cli import main
from mcbridge.world.embedded import EmbeddedHandle

ARENAS = sorted((CONFIG_DIR / "arenas").glob("*.yaml"))
#: Mutants per arena: 240 spread over the shipped arenas keep the suite's share near 20 s of CPU.
MUTANTS = int(os.environ.get("MCBRIDGE_FUZZ_MUTANTS", str(240 // max(len(ARENAS), 1))))
WHERE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): \S.*$")


def placed(lines: list[str], path: Path) -> bool:
    matches = [WHERE.match(line) for line in lines]
    return bool(lines) and all(m is not None and m["file"] == str(path) for m in matches)


def judge(path: Path, capsys: pytest.CaptureFixture[str], closed_port: int, world_port: int) -> tuple[int, str | None]:
    """(validate's exit code, what is wrong with how the CLI answered, or None when it answered well).

    A file `validate` accepts must also build; one it refuses must stop `run` with the
    same lines (on stderr) before any connection is tried.
    """
    code = main(["validate", str(path)])
    out, err = capsys.readouterr()
    lines = out.strip().splitlines()
    if code == 0:
        if not lines[0].startswith("OK: ") or err:
            return 0, f"validate said {out!r} {err!r}"
        built = main(["arena", "build", str(path), "--port", str(world_port), "--connect-attempts", "1", "--yes"])
        out, err = capsys.readouterr()
        last = out.strip().splitlines()[-1:]  # after the survey line: what it built
        ok = built == 0 and last and last[0].startswith("built ")
        return 0, None if ok else f"a valid file did not build: {out!r} {err!r}"
    if code != 1 or err or not lines or lines[-1] != f"{len(lines) - 1} problem(s) in {path}":
        return code, f"validate exit {code}: {out!r} {err!r}"
    if not placed(lines[:-1], path):
        return code, f"validate lines without file:line:column: {lines[:-1]!r}"
    ran = main(["run", str(path), "--port", str(closed_port), "--connect-attempts", "1",
                "--journal", str(path.with_suffix(".sqlite"))])  # fmt: skip
    out, err = capsys.readouterr()
    if ran != 1 or out or err.strip().splitlines() != lines[:-1]:
        return code, f"run exit {ran}: {out!r} {err!r} (validate said {lines[:-1]!r})"
    return code, None


@pytest.mark.parametrize("arena", ARENAS, ids=[a.stem for a in ARENAS])
def test_mutants_of_the_shipped_arenas_get_placed_answers_and_no_traceback(
    arena: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], closed_port: int, world: EmbeddedHandle
) -> None:
    text = arena.read_text(encoding="utf-8")
    failures, codes = [], []
    for seed in range(MUTANTS):
        data, applied = mutant(text, seed)
        path = tmp_path / f"m{seed}.yaml"
        path.write_bytes(data)
        try:
            code, problem = judge(path, capsys, closed_port, world.port)
        except BaseException as exc:  # a crash is exactly what we look for
            code, problem = -1, f"raised {type(exc).__name__}: {exc}"
        codes.append(code)
        if problem:
            failures.append(f"seed {seed} ({', '.join(applied)}): {problem[:400]}")
    assert not failures, "\n".join(failures[:20])
    assert codes.count(1) > MUTANTS // 2 and codes.count(0) > 0  # it bites, and some files stay valid (and build)


def test_a_real_process_answers_hostile_files_in_one_line_each(tmp_path: Path) -> None:
    text = (CONFIG_DIR / "arenas" / "wool_bluff.yaml").read_text(encoding="utf-8")
    hostile = {
        "laughs.yaml": "".join(f"l{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 9)),
        "deep.yaml": "a: " + "[" * 5000 + "]" * 5000 + "\n",
        "nul.yaml": text.replace("name: wool-bluff-1", "name: wool\x00"),
        "latin1.yaml": text.replace("name: wool-bluff-1", "name: caf\u00e9"),
    }
    hostile["laughs.yaml"] = "l0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + hostile["laughs.yaml"]
    for name, body in hostile.items():
        path = tmp_path / name
        path.write_bytes(body.encode("latin-1" if name == "latin1.yaml" else "utf-8"))
        for command in ("validate", "run"):
            done = subprocess.run([sys.executable, "-m", "mcbridge.cli", command, str(path)],
                                  capture_output=True, text=True, timeout=60)  # fmt: skip
            output = (done.stdout + done.stderr).strip().splitlines()
            assert done.returncode == 1, (name, command, output)
            assert "Traceback" not in done.stderr
            assert WHERE.match(output[0]) and output[0].startswith(f"{path}:"), output
