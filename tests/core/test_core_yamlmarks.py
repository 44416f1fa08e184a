"""YAML that remembers where values came from (mcbridge.core.yamlmarks)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.core.yamlmarks import YamlError, load_marked, load_marked_file


def test_values_load_as_plain_data_with_line_and_column_marks() -> None:
    marked = load_marked("a:\n  b: [1, 2]\n  c: {d: x}\n", "f.yaml")
    assert marked.data == {"a": {"b": [1, 2], "c": {"d": "x"}}}
    assert marked.where(("a", "b")) == "f.yaml:2:6"
    assert marked.where(("a", "b", 1)) == "f.yaml:2:10"
    assert marked.where(("a", "c", "d")) == "f.yaml:3:10"


def test_where_falls_back_to_the_nearest_marked_parent() -> None:
    marked = load_marked("a:\n  b: 1\n", "f.yaml")
    assert marked.where(("a", "missing", "deeper")) == "f.yaml:2:3"
    assert marked.where(("nothing",)) == "f.yaml:1:1"


def test_scalars_keep_their_yaml_types() -> None:
    data = load_marked("i: 3\nf: 1.5\nb: true\ns: '3'\nn: null\n").data
    assert data == {"i": 3, "f": 1.5, "b": True, "s": "3", "n": None}
    assert type(data["i"]) is int and type(data["b"]) is bool


def test_an_empty_document_is_none() -> None:
    assert load_marked("# only a comment\n").data is None


def test_duplicate_keys_are_errors_with_the_second_key_located() -> None:
    with pytest.raises(YamlError, match=r"^f\.yaml:4:3: duplicate key 'c'; each key may appear once"):
        load_marked("a: 1\nb:\n  c: 1\n  c: 2\n", "f.yaml")


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("a: [1, 2\nb: 3\n", "f.yaml:2:2"),
        ("a: 1\n  b: 2\n", "f.yaml:2:4"),
        ('a: "unterminated\n', "f.yaml:2:1"),
    ],
)
def test_syntax_errors_name_the_line_and_column(text: str, where: str) -> None:
    with pytest.raises(YamlError) as exc:
        load_marked(text, "f.yaml")
    assert str(exc.value).startswith(f"{where}: YAML syntax error: ")


def test_merge_keys_and_collection_keys_are_refused() -> None:
    with pytest.raises(YamlError, match=r"^f\.yaml:3:3: .<<. merge keys are not supported"):
        load_marked("x: &a {k: 1}\ny:\n  <<: *a\n", "f.yaml")
    with pytest.raises(YamlError, match="a mapping key must be a plain value"):
        load_marked("? [1, 2]\n: v\n", "f.yaml")


def test_files_that_are_missing_or_not_utf8_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(YamlError, match="file not found"):
        load_marked_file(tmp_path / "nope.yaml")
    latin = tmp_path / "latin.yaml"
    latin.write_bytes("name: caf\u00e9\n".encode("latin-1"))
    with pytest.raises(YamlError, match=r"not UTF-8 text.*save the file as UTF-8"):
        load_marked_file(latin)
    good = tmp_path / "good.yaml"
    good.write_text("名前: 羊毛\n", encoding="utf-8")
    marked = load_marked_file(good)
    assert marked.data == {"名前": "羊毛"}
    assert marked.where(("名前",)) == f"{good}:1:5"


# --- hostile files: every one is a YamlError at file:line:column, fast, never a traceback ----

LAUGHS = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{name}: &{name} [{', '.join([f'*{prev}'] * 9)}]\n" for prev, name in zip("abcdefgh", "bcdefghi", strict=True)
)


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        (LAUGHS, "f.yaml:5:", "alias *d expands the file past"),
        ("a: &a [1, *a]\n", "f.yaml:1:11", "alias *a is used inside its own anchor &a"),
        ("a: &a {b: *a}\n", "f.yaml:1:11", "(a loop)"),
        ("a: *nowhere\n", "f.yaml:1:4", "alias *nowhere has no anchor"),
        ("a: " + "[" * 5000 + "]" * 5000 + "\n", "f.yaml:1:67", "nested deeper than 64 levels"),
        ("a:\n" + "".join(" " * i + "- \n" for i in range(1, 200)), "f.yaml:", "nested deeper than 64 levels"),
        ("a: !foo 1\n", "f.yaml:1:4", "unknown tag '!foo'"),
        ("a: !!python/object/apply:os.system [ls]\n", "f.yaml:1:4", "unknown tag"),
        ("a: !!set {x, y}\n", "f.yaml:1:4", "unknown tag 'tag:yaml.org,2002:set'"),
        ("a: 1\nb: x\x00y\n", "f.yaml:2:5", "character U+0000 (NUL) is not allowed"),
        ("a: 1\nb: \x1b[31m\n", "f.yaml:2:4", "U+001B (ESCAPE)"),
        ("a:\n\tb: 1\n", "f.yaml:2:1", "indent with spaces"),
        ("a: !!int abc\n", "f.yaml:1:4", "'abc' is not a valid int"),
        ("a: 2024-13-45\n", "f.yaml:1:4", "is not a valid timestamp"),
        ("a: " + "9" * 5000 + "\n", "f.yaml:1:4", "is not a valid int"),
        ("a: 1\n---\nb: 2\n", "f.yaml:2:1", "holds one: remove the line"),
    ],
)
def test_hostile_yaml_is_refused_with_a_place_and_a_reason(text: str, where: str, words: str) -> None:
    with pytest.raises(YamlError) as exc:
        load_marked(text, "f.yaml")
    message = str(exc.value)
    assert message.startswith(where), message
    assert words in message
    assert "\n" not in message


def test_aliases_within_the_limit_expand_and_point_into_the_anchor() -> None:
    marked = load_marked("a: &p {x: 1, y: [1, 2]}\nb: *p\n", "f.yaml")
    assert marked.data == {"a": {"x": 1, "y": [1, 2]}, "b": {"x": 1, "y": [1, 2]}}
    assert marked.data["a"] is not marked.data["b"]  # a copy: editing one never edits the other
    assert marked.where(("b",)) == "f.yaml:2:4"  # the alias itself
    assert marked.where(("b", "y", 1)) == "f.yaml:1:21"  # the text it stands for


def test_the_value_limit_counts_what_aliases_expand_to() -> None:
    text = "a: &a [1, 2, 3]\nb: [*a, *a, *a]\n"
    assert load_marked(text, max_values=20).data["b"] == [[1, 2, 3]] * 3
    with pytest.raises(YamlError, match=r"^<string>:2:9: alias \*a expands the file past 12 values"):
        load_marked(text, max_values=12)


def test_a_bare_equals_sign_is_text() -> None:
    assert load_marked("a: =\n").data == {"a": "="}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        (b"a: 1\nname: caf\xe9\n", r"f\.yaml:2:10: byte 0xE9 is not UTF-8 text; save the file as UTF-8"),
        ("a: 1\n".encode("utf-16"), r"f\.yaml:1:1: the file is saved as UTF-16; save it as UTF-8"),
        (b"\xff\xfe\x00\x00a\x00\x00\x00", r"f\.yaml:1:1: the file is saved as UTF-32; save it as UTF-8"),
    ],
)
def test_bytes_that_are_not_utf8_are_located(tmp_path: Path, raw: bytes, message: str) -> None:
    path = tmp_path / "f.yaml"
    path.write_bytes(raw)
    with pytest.raises(YamlError, match=f"^{re.escape(str(tmp_path))}/{message}$"):
        load_marked_file(path)


def test_a_utf8_byte_order_mark_is_accepted_and_does_not_shift_columns(tmp_path: Path) -> None:
    path = tmp_path / "bom.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n")
    marked = load_marked_file(path)
    assert marked.data == {"a": 1}
    assert marked.where(("a",)) == f"{path}:1:4"


def test_files_are_size_bounded_and_unreadable_paths_explained(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: " + b"x" * 2000 + b"\n")
    with pytest.raises(YamlError, match=r"big\.yaml:1:1: the file is larger than 1000 bytes"):
        load_marked_file(big, max_bytes=1000)
    assert load_marked_file(big, max_bytes=3000).data == {"a": "x" * 2000}
    with pytest.raises(YamlError, match="is a directory"):
        load_marked_file(tmp_path)


@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
        max_leaves=20,
    )
)
@settings(max_examples=150, deadline=None)
def test_anything_pyyaml_writes_reads_back_as_pyyaml_reads_it(data: object) -> None:
    for text in (yaml.safe_dump(data, allow_unicode=True), yaml.safe_dump(data, default_flow_style=True)):
        assert load_marked(text).data == yaml.safe_load(text)


def test_seed_files_are_loaded_with_the_same_bounds(tmp_path: Path) -> None:
    from mcbridge.core.seeds import load_seed
    from mcbridge.games.wool_bluff.options import SCHEMA

    path = tmp_path / "wool_bluff.yaml"
    path.write_text("game: wool_bluff\n" + LAUGHS.replace("a: &a", "options: &a", 1), encoding="utf-8")
    with pytest.raises(YamlError, match=rf"^{re.escape(str(path))}:\d+:\d+: alias \*\w expands the file past"):
        load_seed("wool_bluff", SCHEMA, path)
