"""A bad locale file (or legacy state table) is refused with file:line:column and the fix,
through the same bounded loader as the arena files: never a traceback, never a hang."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcbridge import CONFIG_DIR
from mcbridge.core.yamlmarks import YamlError
from mcbridge.i18n import Locale
from worldgen.states import TABLE_PATH, load_table

BOMB = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
    f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
    for i in range(8)
)


def locales_with(tmp: Path, name: str, content: bytes) -> Path:
    """A copy of the shipped locales where English has one more file."""
    base = tmp / "locales"
    shutil.copytree(CONFIG_DIR / "locales", base)
    (base / "en" / name).write_bytes(content)
    return base


@pytest.mark.parametrize(("content", "where", "says"), [
    (b"title: \"ok\"\ngreeting: hello: there\n", ":2:16:", "YAML syntax error"),
    (b"a: \"one\"\nb: \"two\"\na: \"three\"\n", ":3:1:", "duplicate key"),
    (b"title: \"ok\"\nempty:\n", ":2:", "extra.empty has no text"),
    (b"- one\n- two\n", ":1:1:", "a locale file maps keys to texts"),
    (b"title: \"caf\xe9\"\n", ":1:12:", "is not UTF-8"),
    (BOMB.encode(), ":", "values"),
])
def test_a_bad_locale_file_is_named_with_line_and_column(tmp_path: Path, content: bytes, where: str,
                                                         says: str) -> None:
    base = locales_with(tmp_path, "extra.yaml", content)
    with pytest.raises(YamlError) as refused:
        Locale("en", base)
    message = str(refused.value)
    assert message.startswith(str(base / "en" / "extra.yaml") + where), message
    assert says in message and "\n" not in message
    with pytest.raises(YamlError):  # Japanese falls back to English: it reads the file too
        Locale("ja", base)


def test_an_oversized_locale_file_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    base = locales_with(tmp_path, "huge.yaml", b"k: \"" + b"x" * (2 << 20) + b"\"\n")
    with pytest.raises(YamlError, match=r"huge\.yaml:1:1: the file is larger than"):
        Locale("en", base)


def test_good_and_empty_locale_files_load(tmp_path: Path) -> None:
    base = locales_with(tmp_path, "extra.yaml", b"# nothing yet\n")
    (base / "en" / "more.yaml").write_text('sign: ["a", "b"]\ncount: 3\n', encoding="utf-8")
    text = Locale("en", base)
    assert text.t("more.sign.1") == "b" and text.t("more.count") == "3"
    assert text.t("common.joined", name="Aki", seat=1) == "Aki takes seat 1."


def test_a_bad_legacy_state_table_is_named_with_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "legacy_states.yaml"
    bad.write_text(TABLE_PATH.read_text(encoding="utf-8") + "source: again\n", encoding="utf-8")
    with pytest.raises(YamlError, match=r"legacy_states\.yaml:\d+:1: .*duplicate key"):
        load_table(bad)
    bad.write_text("- a list\n", encoding="utf-8")
    with pytest.raises(YamlError, match=r"legacy_states\.yaml:1:1: a legacy state table is a mapping"):
        load_table(bad)
