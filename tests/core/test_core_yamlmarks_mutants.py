"""YAML errors at their edges (core/yamlmarks.py): the documented size bound, places on the first
and later lines, quoted values cut to one readable line, named control characters.

Written for the survivors of the core sample (bench/mutation.py core.yamlmarks --sample 30 --seed 2).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mcbridge.core.yamlmarks import YamlError, describe_character, load_marked, load_marked_file, short_repr

MIB = 1 << 20


def test_a_file_of_one_mebibyte_loads_and_one_byte_more_is_refused(tmp_path: Path) -> None:
    """The default bound is the one the docs promise (1 MiB), at the exact byte."""
    head = b"a: 1\n#"
    path = tmp_path / "big.yaml"
    path.write_bytes(head + b"x" * (MIB - len(head)))
    assert load_marked_file(path).data == {"a": 1}
    path.write_bytes(head + b"x" * (MIB + 1 - len(head)))
    with pytest.raises(YamlError, match=rf"big\.yaml:1:1: the file is larger than {MIB} bytes"):
        load_marked_file(path)


def test_a_file_with_nothing_in_it_is_placed_at_its_first_line_and_column() -> None:
    for text in ("", "# only a comment\n"):
        marked = load_marked(text, "f.yaml")
        assert marked.data is None
        assert marked.where(()) == marked.where(("a", 0)) == "f.yaml:1:1"


def test_an_unreadable_path_of_another_kind_says_why_in_words(tmp_path: Path) -> None:
    path = tmp_path / ("x" * 300 + ".yaml")  # longer than any file system allows a name to be
    with pytest.raises(YamlError) as refused:
        load_marked_file(path)
    assert str(refused.value) == f"{path}: cannot be read (File name too long)"


def test_a_bad_character_after_a_leading_blank_line_is_placed_on_line_two() -> None:
    with pytest.raises(YamlError, match=r"^f\.yaml:2:4: character U\+0000 \(NUL\)"):
        load_marked("\nb: \x00\n", "f.yaml")


@pytest.mark.parametrize(
    ("char", "shown"),
    [
        ("\x00", "U+0000 (NUL)"),
        ("\x07", "U+0007 (BELL)"),
        ("\x08", "U+0008 (BACKSPACE)"),
        ("\t", "U+0009 (TAB)"),
        ("\n", "U+000A (LINE FEED)"),
        ("\r", "U+000D (CARRIAGE RETURN)"),
        ("\x1b", "U+001B (ESCAPE)"),
        ("\x7f", "U+007F (DELETE)"),
        ("\u202e", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("\x01", "U+0001 (a control character)"),
    ],
)
def test_invisible_characters_are_named(char: str, shown: str) -> None:
    assert describe_character(char) == shown


def test_a_long_invalid_value_is_quoted_cut_to_sixty_characters() -> None:
    value = "9" * 40 + "x" * 40
    with pytest.raises(YamlError) as refused:
        load_marked(f"a: !!int {value}\n", "f.yaml")
    quoted = repr(value)[:57] + "..."
    assert str(refused.value) == f"f.yaml:1:4: {quoted} is not a valid int"
    assert len(quoted) == 60
    assert short_repr("x" * 58) == repr("x" * 58)  # 60 characters with its quotes: kept whole
    assert short_repr("x" * 59) == repr("x" * 59)[:57] + "..."


@pytest.mark.parametrize("before", range(4))
def test_an_aliased_mapping_anywhere_in_the_file_points_into_its_anchor(before: int) -> None:
    """Whatever number of values comes before the anchor, the alias is marked where it is
    written and its contents where the anchor's text is."""
    lead = "".join(f"k{i}: {i}\n" for i in range(before))
    marked = load_marked(lead + "a: &p {x: 1, y: [1, 2]}\nb: *p\n", "f.yaml")
    line = before + 1
    assert marked.where(("b",)) == f"f.yaml:{line + 1}:4"
    assert marked.where(("b", "x")) == f"f.yaml:{line}:11"
    assert marked.where(("b", "y")) == f"f.yaml:{line}:17"
    assert marked.where(("b", "y", 1)) == f"f.yaml:{line}:21"
    assert marked.where(("a",)) == f"f.yaml:{line}:4"
    for i in range(before):
        assert marked.where((f"k{i}",)) == f"f.yaml:{i + 1}:5"


def test_an_alias_of_a_plain_value_reads_as_that_value_placed_where_it_is_written() -> None:
    marked = load_marked("a: &n 5\nb: [*n, *n]\nc: &s text\nd: *s\n", "f.yaml")
    assert marked.data == {"a": 5, "b": [5, 5], "c": "text", "d": "text"}
    assert marked.where(("b", 1)) == "f.yaml:2:9"
    assert marked.where(("d",)) == "f.yaml:4:4"
