"""YAML that remembers where values came from (mcbridge.core.yamlmarks)."""

from __future__ import annotations

from pathlib import Path

import pytest

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
    with pytest.raises(YamlError, match=r"^f\.yaml:3: '<<' merge keys are not supported"):
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
