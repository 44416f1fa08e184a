"""`mcbridge worldgen ...` end to end, through the real entry point and a real world."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcbridge.cli import main
from mcbridge.world.embedded import EmbeddedHandle
from worldgen import cli
from worldgen.grid import BlockGrid
from worldgen.schematic import WRITE_FORMATS, read_schematic, write_schematic


def room() -> BlockGrid:
    grid = BlockGrid.filled(6, 4, 5, 98)
    grid.fill((1, 1, 1), (4, 3, 3), 0)
    grid.set(2, 2, 1, 76, 3)
    grid.set_sign(3, 1, 1, 68, 3, ["Hello", "", "", ""])
    return grid


def server_args(server: EmbeddedHandle) -> list[str]:
    return ["--host", server.host, "--port", str(server.port), "--timeout", "10"]


def test_paste_export_diff_repair(server: EmbeddedHandle, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "room.schem"
    write_schematic(room(), source)
    at = "--at=-40,3,60"
    assert main(["worldgen", "paste", str(source), at, *server_args(server)]) == 0
    assert "pasted: 120 blocks" in capsys.readouterr().out

    out = tmp_path / "back.schematic"
    corners = ["--", "-40,3,60", "-35,6,64"]
    assert main(["worldgen", "export", "-o", str(out), *server_args(server), *corners]) == 0
    assert "exported 6x4x5 = 120 blocks" in capsys.readouterr().out
    assert read_schematic(out).grid.same_blocks(room())

    assert main(["worldgen", "diff", str(source), at, *server_args(server)]) == 0
    assert "the world matches" in capsys.readouterr().out

    server.set_block(-38, 5, 61, 0)  # knock the torch off
    server.set_block(-36, 6, 62, 35, 14)
    assert main(["worldgen", "diff", str(source), at, *server_args(server)]) == 1
    text = capsys.readouterr().out
    assert "2 of 120 blocks differ" in text
    assert "at -38,5,61: expected 76:3, found 0:0" in text
    assert "at -36,6,62: expected 0:0, found 35:?" in text  # data not read: id differs

    assert main(["worldgen", "repair", str(source), at, "--dry-run", *server_args(server)]) == 0
    text = capsys.readouterr().out
    assert "# 2 of 120 blocks differ" in text
    assert "world.setBlock(-38,5,61,76,3)" in text
    assert main(["worldgen", "repair", str(source), at, *server_args(server)]) == 0
    assert "repaired 2 of 120 blocks with 2 commands" in capsys.readouterr().out
    assert server.get_block(-38, 5, 61) == (76, 3)


def test_dry_run_needs_no_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "room.schematic"
    write_schematic(room(), source)
    code = main(["worldgen", "paste", str(source), "--at", "0,0,0", "--rotate", "180", "--dry-run", "--port", "1"])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("# 120 blocks, 4 commands (120 one per block, 30.0x fewer)")
    assert "# tick 1: 4 commands" in lines
    assert lines[-1] == "world.setSign(2,1,3,68,2,Hello, , , )"


def test_cli_offers_every_format_the_writer_has() -> None:
    assert cli.FORMATS == WRITE_FORMATS


def test_errors_are_one_line_for_people(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.schem"
    bad.write_bytes(b"nope")
    assert main(["worldgen", "paste", str(bad), "--at", "0,0,0", "--dry-run"]) == 2
    assert capsys.readouterr().err.startswith(
        f"error: {bad}: NBT (Sponge .schem?): (root): is not a readable NBT file"
    )
    with pytest.raises(SystemExit):
        main(["worldgen", "paste", str(bad), "--at", "0,0", "--dry-run"])
    assert "is not a position" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["worldgen", "paste", str(bad), "--at", "0,0,0", "--rotate", "45"])
    assert "turn by 0, 90, 180 or 270" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["worldgen", "paste", str(bad), "--at", "0,0,0", "--fallback", "deepslate"])
    assert "must be a block the legacy table knows" in capsys.readouterr().err
    good = tmp_path / "ok.schem"
    write_schematic(room(), good)
    code = main(["worldgen", "paste", str(good), "--at", "0,0,0", "--port", "1", "--timeout", "0.5"])
    assert code == 2
    assert "Cannot connect to the RaspberryJuice server at 127.0.0.1:1" in capsys.readouterr().err


def test_progress_bar_shows_count_and_eta() -> None:
    import io

    from worldgen.progress import Progress

    stream = io.StringIO()
    with Progress("paste", 10, stream=stream, enabled=True) as bar:
        bar.advance(10)
        bar.extend(10)
        bar.advance(5)
        line = bar.line(bar._start + 2.0)
    assert "15/20 commands" in line and "ETA 0:01" in line
    assert stream.getvalue().endswith("\n")
    quiet = io.StringIO()
    with Progress("paste", 3, stream=quiet) as bar:  # not a terminal: draws nothing
        bar.advance(3)
    assert quiet.getvalue() == ""


def test_a_stopped_paste_saves_its_state_and_resume_sends_only_the_rest(
    server: EmbeddedHandle, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import numpy as np

    from worldgen import resume
    from worldgen.planner import plan_paste

    source = tmp_path / "stripes.schematic"  # MCEdit keeps ids the 1.12 world lacks
    cells = (np.arange(10, dtype=np.uint16) + (35 << 4)).reshape(1, 1, 10)
    cells[0, 0, 6] = 254 << 4  # no such block: the server answers Fail
    write_schematic(BlockGrid(cells), source)
    args = ["worldgen", "paste", str(source), "--at=-300,3,300", *server_args(server)]
    assert main(args) == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert "world.setBlock(-294,3,300,254,0) failed" in err
    assert "not written: 1 commands (1 blocks)" in err and "--resume" in err
    state = resume.default_state_path(source)
    assert state.is_file()

    # --resume with another position is refused, naming the difference.
    moved = ["worldgen", "paste", str(source), "--at=-300,4,300", "--resume", *server_args(server)]
    assert main(moved) == cli.EXIT_ERROR
    assert "at=" in capsys.readouterr().err

    # The same plan resumes: only the unconfirmed command is sent (and fails again here).
    assert main([*args, "--resume"]) == cli.EXIT_ERROR
    assert "resuming: 1 of 10 commands left to send" in capsys.readouterr().out

    # Once the world accepts it, the paste finishes and forgets its state.
    plan = plan_paste(BlockGrid(cells), (-300, 3, 300))
    fingerprint = resume.Fingerprint(resume.file_digest(source), (-300, 3, 300), 0, "minecraft:stone", 4_194_304, 10)
    written = np.ones(plan.commands, dtype=bool)  # the bad block counts as written now...
    written[3] = False  # ...and one wool block was lost with the connection
    resume.save(state, fingerprint, written)
    server.set_block(-297, 3, 300, 0)
    assert main([*args, "--resume"]) == 0
    assert server.get_block(-297, 3, 300) == (35, 3)
    assert not state.exists()


FIXTURES = Path(__file__).with_name("fixtures")


def test_info_prints_the_facts_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    path = FIXTURES / "prismarine_smallhouse1.schem"
    assert main(["worldgen", "info", str(path), "--json"]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert {
        "format", "data_version", "size", "offset", "palette", "non_air_cells",
        "unknown_states", "unknown_cells",
    } <= set(facts)
    assert facts["format"] == "Sponge .schem v2" and facts["data_version"] == 2584
    assert facts["size"] == [21, 28, 20] and facts["offset"] == [-10, 0, -19]
    assert facts["palette"] == 173
    assert facts["unknown_states"] == 38 and facts["unknown_cells"] == 881  # 1.14+ blocks
    loaded = read_schematic(path)
    assert facts["non_air_cells"] == int((loaded.grid.cells >> 4 != 0).sum())


def test_info_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["worldgen", "info", str(FIXTURES / "prismarine_viking-house1.schematic")]) == 0
    out = capsys.readouterr().out
    assert "MCEdit .schematic, DataVersion none" in out
    assert "23x35x23 = 18515 blocks" in out and "paste offset  -11,-1,-3" in out


def test_convert_reports_what_it_approximated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = FIXTURES / "prismarine_legacy_super-market.schematic"
    out = tmp_path / "market.schem"
    assert main(["worldgen", "convert", str(source), str(out)]) == 0
    captured = capsys.readouterr()
    assert "to " + str(out) + " (sponge-v3): 0 unknown cells" in captured.out
    assert "legacy 54:0 has no state of its own" in captured.err  # a chest, not stone
    assert read_schematic(out).format == "Sponge .schem v3"


def test_convert_refuses_an_unknown_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = FIXTURES / "prismarine_spongeV3.schem"
    assert main(["worldgen", "convert", str(source), str(tmp_path / "x.zip")]) == cli.EXIT_ERROR
    assert "unknown file type '.zip'" in capsys.readouterr().err
