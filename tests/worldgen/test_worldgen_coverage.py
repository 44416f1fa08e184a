"""Every block state 1.12 has maps both ways, from the vendored minecraft-data source."""

from __future__ import annotations

import hashlib
import itertools
import json
from pathlib import Path

import pytest
import yaml

from worldgen.states import (
    TABLE_PATH,
    BlockState,
    ConversionReport,
    LegacyTable,
    format_key,
    key_of,
    parse_key,
)

ROOT = Path(__file__).resolve().parents[2]
VENDORED = TABLE_PATH.parent / "minecraft-data"
INSTALLED = ROOT / "server" / "node_modules" / "minecraft-data" / "minecraft-data" / "data" / "pc"
LEGACY = json.loads((VENDORED / "legacy.json").read_text("utf-8"))["blocks"]
NAMES_112 = {int(k): v for k, v in json.loads((VENDORED / "names-1.12.json").read_text()).items()}
DOCUMENT = yaml.safe_load(TABLE_PATH.read_text("utf-8"))
RENAMES = {f"minecraft:{k}": f"minecraft:{v}" for k, v in DOCUMENT["renames"].items()}


def test_the_vendored_files_are_the_ones_their_source_file_names() -> None:
    source = json.loads((VENDORED / "SOURCE.json").read_text("utf-8"))
    assert source["license"] == "MIT" and (VENDORED / "LICENSE").is_file()
    legacy = source["files"]["legacy.json"]["sha256"]
    assert hashlib.sha256((VENDORED / "legacy.json").read_bytes()).hexdigest() == legacy


def test_the_vendored_copy_equals_the_installed_package() -> None:
    """When server/ has its packages, the copy must be what `regenerate.py` would write."""
    if not INSTALLED.is_dir():
        pytest.skip("server/node_modules/minecraft-data is not installed (make node-deps)")
    assert (INSTALLED / "common" / "legacy.json").read_bytes() == (VENDORED / "legacy.json").read_bytes()
    blocks = json.loads((INSTALLED / "1.12" / "blocks.json").read_text("utf-8"))
    assert {b["id"]: b["name"] for b in blocks} == NAMES_112


def test_every_legacy_state_maps_to_its_exact_id_and_data(table: LegacyTable) -> None:
    """All 1,682 states, every facing and variant: legacy -> state -> the same legacy."""
    duplicates = 0
    for text_key, text_state in LEGACY.items():
        key = parse_key(text_key)
        theirs = BlockState.parse(text_state)
        theirs = BlockState(RENAMES.get(theirs.name, theirs.name), theirs.properties)
        assert table.state_of(key) == theirs, text_key
        back, exact = table.legacy_of(theirs)
        assert exact, text_state
        if back != key:  # several legacy spellings of one state (still/flowing water...)
            assert back is not None and table.state_of(back) == theirs, text_key
            duplicates += 1
    assert len(LEGACY) == 1682
    assert duplicates == 74  # the pairs to which legacy.json itself gives one state


def test_the_reverse_mapping_is_total_for_every_legacy_id_and_data(table: LegacyTable) -> None:
    """Every id 1.12 has, with all 16 data values: its state, else its id's base state."""
    keys = [key_of(block_id, data) for block_id in NAMES_112 for data in range(16)]
    report = ConversionReport()
    fallback = BlockState.parse("minecraft:stone")
    states = table.states_for_keys(keys, [1] * len(keys), fallback, report)
    assert not report.unknown
    exact = sum(1 for key in keys if table.state_of(key) is not None)
    assert exact + sum(report.base_state.values()) == len(keys) == 254 * 16
    assert exact == 1682 + 3  # legacy.json plus the three torch overrides
    for key, state in zip(keys, states, strict=True):
        if table.state_of(key) is None:
            base = table.base_key(key >> 4)
            assert base is not None and base >> 4 == key >> 4 and state == table.state_of(base)
    # The bugs of issue 16: chests 54:0/1, water 9:1, air 0:7 keep their own block.
    assert str(states[keys.index(key_of(54, 0))]).startswith("minecraft:chest[facing=north")
    assert states[keys.index(key_of(9, 1))] == BlockState.parse("minecraft:water[level=1]")
    assert states[keys.index(key_of(0, 7))] == BlockState.parse("minecraft:air")
    assert report.base_state[format_key(key_of(54, 0))] == 1


def test_an_unknown_id_takes_the_fallback_and_is_counted(table: LegacyTable) -> None:
    report = ConversionReport()
    fallback = BlockState.parse("minecraft:glass")
    states = table.states_for_keys([key_of(253, 3), key_of(54, 1)], [4, 2], fallback, report)
    assert states[0] == fallback and report.unknown == {"253:3": 4}
    assert report.base_state == {"54:1": 2}


def test_pre_flattening_names_are_1_12s_own(table: LegacyTable) -> None:
    names = table.pre_flattening.names()
    disputed = {v: k for k, v in DOCUMENT["pre_flattening"]["aliases"].items()}
    assert len(names) == len(NAMES_112) == 254
    for name, block_id in names.items():
        bare = name.removeprefix("minecraft:")
        assert NAMES_112[block_id] in (bare, disputed.get(bare)), (block_id, name)


def _combinations(spec: dict[str, object], layouts: dict[str, dict[str, object]]):
    props: dict[str, list[str]] = {}
    for layout in spec.get("use", []):  # type: ignore[attr-defined]
        for prop, shares in layouts[layout].items():
            props[prop] = _values(shares)
    for prop, shares in spec.items():
        if prop not in ("id", "use"):
            props[prop] = _values(shares)
    names = sorted(props)
    for values in itertools.product(*(props[n] for n in names)):
        yield dict(zip(names, values, strict=True))


def _values(shares: object) -> list[str]:
    if shares == "number":
        return [str(n) for n in range(16)]
    if isinstance(shares, int):
        return ["false", "true"]
    assert isinstance(shares, dict)
    return [str(v) for v in shares]


def test_every_1_12_state_lands_on_an_id_and_data_that_exists(table: LegacyTable) -> None:
    """Every combination of listed 1.12 property values gives a legacy block 1.12 has."""
    section = DOCUMENT["pre_flattening"]
    checked = 0
    for name, spec in section["blocks"].items():
        for props in _combinations(spec, section["layouts"]):
            text = f"minecraft:{name}[{','.join(f'{k}={v}' for k, v in sorted(props.items()))}]"
            key, exact = table.pre_flattening.legacy_of(BlockState.parse(text))
            assert key is not None and exact, text
            if table.state_of(key) is None:  # only stray data 1.12 reads as the base state
                assert name in _STRAY_OK, (text, format_key(key))
            checked += 1
    assert checked > 2000


#: 1.12 states whose packed data legacy.json does not list (1.12 itself never saves them:
#: a hopper cannot face up, a 16-level block holds 0-15, cake has 7 bites at most...).
_STRAY_OK = {
    "flowing_water",
    "water",
    "flowing_lava",
    "lava",
    "fire",
    "redstone_wire",
    "wheat",
    "farmland",
    "standing_sign",
    "cactus",
    "reeds",
    "cake",
    "pumpkin_stem",
    "melon_stem",
    "nether_wart",
    "cauldron",
    "carrots",
    "potatoes",
    "light_weighted_pressure_plate",
    "heavy_weighted_pressure_plate",
    "daylight_detector",
    "daylight_detector_inverted",
    "standing_banner",
    "beetroots",
    "chorus_flower",
    "frosted_ice",
    "flower_pot",
}


@pytest.mark.parametrize(
    ("state", "expected"),
    [  # the silently wrong blocks of issue 16, and the names it found read as stone
        ("minecraft:stone[variant=smooth_andesite]", "1:6"),
        ("minecraft:torch[facing=south]", "50:3"),
        ("minecraft:stone_slab[half=bottom,variant=cobblestone]", "44:3"),
        ("minecraft:purpur_slab[half=top,variant=default]", "205:8"),
        ("minecraft:stonebrick[variant=cracked_stonebrick]", "98:2"),
        ("minecraft:planks[variant=spruce]", "5:1"),
        ("minecraft:log2[axis=z,variant=dark_oak]", "162:9"),
        ("minecraft:carpet[color=silver]", "171:8"),
        ("minecraft:wooden_door[facing=north,half=lower,hinge=left,open=true,powered=false]", "64:7"),
        ("minecraft:wooden_door[facing=north,half=upper,hinge=right,open=false,powered=true]", "64:11"),
        ("minecraft:unpowered_repeater[delay=2,facing=west,locked=false]", "93:5"),
        ("minecraft:double_plant[facing=east,half=upper,variant=sunflower]", "175:11"),
        ("minecraft:light_gray_shulker_box[facing=up]", "227:1"),
    ],
)
def test_1_12_states_read_as_1_12_wrote_them(table: LegacyTable, state: str, expected: str) -> None:
    key, exact = table.pre_flattening.legacy_of(BlockState.parse(state))
    assert exact and key is not None and format_key(key) == expected


def test_a_1_12_value_1_12_does_not_have_is_approximated(table: LegacyTable) -> None:
    report = ConversionReport()
    keys = table.keys_for_states(
        ["stone[variant=marble]", "minecraft:deepslate"],
        [3, 1],
        key_of(1),
        report,
        pre_flattening=True,
    )
    assert keys == [key_of(1), key_of(1)]
    assert report.approximated == {"stone[variant=marble]": 3}
    assert report.unknown == {"minecraft:deepslate": 1}


def test_the_regeneration_script_rebuilds_the_vendored_files(tmp_path: Path) -> None:
    if not INSTALLED.is_dir():
        pytest.skip("server/node_modules/minecraft-data is not installed (make node-deps)")
    import importlib.util

    spec = importlib.util.spec_from_file_location("regenerate", TABLE_PATH.parent / "regenerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.regenerate(INSTALLED.parents[2], tmp_path)
    for name in ("legacy.json", "names-1.12.json", "SOURCE.json"):
        assert (tmp_path / name).read_bytes() == (VENDORED / name).read_bytes(), name
