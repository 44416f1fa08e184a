"""Regenerate the vendored minecraft-data files the legacy table is built from.

    .venv/bin/python worldgen/data/regenerate.py [--from server/node_modules/minecraft-data]

minecraft-data (MIT, PrismarineJS) is already a dependency of the real server in
``server/`` (``make node-deps`` installs the version ``server/package-lock.json`` pins).
Its ``pc/common/legacy.json`` is WorldEdit's legacy mapping: every 1.12 id:data to its
1.13 block state. The package must not need Node at run time, so the two files it reads
are copied into ``worldgen/data/minecraft-data/`` with ``SOURCE.json`` naming the package
version and each file's SHA-256; ``tests/worldgen/test_worldgen_coverage.py`` checks
the copy against the installed package whenever one is there.

* ``legacy.json``: copied unchanged (blocks and items).
* ``names-1.12.json``: ``{id: registry name}`` from ``pc/1.12/blocks.json`` (the rest of
  that file, drops and hardness, is not needed): the pre-flattening names 1.12
  structure files use, to check ``legacy_states.yaml``'s ``pre_flattening`` section.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
OUT = HERE / "minecraft-data"
DEFAULT_PACKAGE = ROOT / "server" / "node_modules" / "minecraft-data"


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def regenerate(package: Path, out: Path = OUT) -> dict[str, object]:
    data = package / "minecraft-data" / "data" / "pc"
    legacy = data / "common" / "legacy.json"
    blocks_112 = data / "1.12" / "blocks.json"
    for needed in (legacy, blocks_112):
        if not needed.is_file():
            raise SystemExit(f"{needed}: missing; run `make node-deps` first")
    out.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(legacy, out / "legacy.json")
    names = {str(b["id"]): b["name"] for b in json.loads(blocks_112.read_text("utf-8"))}
    (out / "names-1.12.json").write_text(json.dumps(names, indent=1) + "\n", "utf-8")
    version = json.loads((package / "package.json").read_text("utf-8"))["version"]
    source = {
        "package": "minecraft-data",
        "version": version,
        "license": "MIT",
        "files": {
            "legacy.json": {"from": "data/pc/common/legacy.json", "sha256": sha256(legacy)},
            "names-1.12.json": {
                "from": "data/pc/1.12/blocks.json (id and name only)",
                "sha256": sha256(out / "names-1.12.json"),
            },
        },
    }
    (out / "SOURCE.json").write_text(json.dumps(source, indent=1) + "\n", "utf-8")
    return source


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="package", type=Path, default=DEFAULT_PACKAGE)
    args = parser.parse_args(argv)
    source = regenerate(args.package)
    print(f"vendored minecraft-data {source['version']} into {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
