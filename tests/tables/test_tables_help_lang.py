"""`!help` (any spelling) answers with the goal, what to do now and the commands, for the
asker's phase and in their language; `!lang` / `!言語` sets that language (issue 19, item 5)."""

from __future__ import annotations

from pathlib import Path

import pytest
from text_fit_support import GAMES, bare_table

from mcbridge.core import CHANCE
from mcbridge.i18n import Locale
from mcbridge.tables.table import Table

NAMES = ["Aki", "Ben", "Chie", "Dan", "Eri"]


def started(game: str, lang: str, tmp_path: Path, *, can_tell: bool = True) -> Table:
    table, clock = bare_table(game, lang, tmp_path / "journal.db", can_tell=can_tell)
    for booth, name in enumerate(NAMES[: len(table.arena.seats)]):
        table.join(booth, name)
    clock.now += 1
    table.tick()
    table.tick()
    assert table.state is not None and not table.state.is_over
    table.outbox.drain()
    return table


def said(table: Table, name: str, line: str) -> list[str]:
    table.on_chat(name, line)
    out = table.outbox.drain()
    return [text for who, text in out.private if who == name] + [c.removeprefix(f"@{name}: ") for c in out.chat]


def guide(lang: str, table: Table, phase: str) -> list[str]:
    """`Locale.help`: a private message a line (each well under the chat cap)."""
    return Locale(lang).help(table.game.name, phase, **table.kit.help_fields())


def acting(table: Table) -> tuple[str, str]:
    """(a player the rules wait for, one they do not), by name."""
    assert table.state is not None
    waiting = sorted(table.state.to_act() - {CHANCE})
    idle = [s for s in range(len(table.state.players)) if s not in waiting]
    return table.state.players[waiting[0]], table.state.players[idle[0]]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("word", ["!help", "!ヘルプ", "!？", "!ＨＥＬＰ", "!?"])
def test_help_is_the_guide_for_the_askers_phase(game: str, word: str, tmp_path: Path) -> None:
    table = started(game, "en", tmp_path)
    assert table.state is not None
    mover, idle = acting(table)
    assert len(Locale("en").help(game, table.state.phase)) in (2, 3)  # goal, now, commands
    expected = guide("en", table, table.state.phase)
    assert said(table, mover, word) == expected
    waiting = said(table, idle, word)
    assert waiting == guide("en", table, "other")
    assert waiting != expected or not Locale("en").has(f"{game}.guide.now.{table.state.phase}")


@pytest.mark.parametrize("game", GAMES)
def test_lang_changes_only_that_players_private_texts(game: str, tmp_path: Path) -> None:
    table = started(game, "ja", tmp_path)
    assert table.state is not None
    mover, idle = acting(table)
    assert said(table, mover, "!lang en") == [Locale("en").t("common.language_set")]
    assert said(table, mover, "!help") == guide("en", table, table.state.phase)
    assert said(table, idle, "!help") == guide("ja", table, "other")
    assert said(table, mover, "!言語 日本語") == [Locale("ja").t("common.language_set")]
    assert table.scene() is not None and table.text.lang == "ja"  # signs and public chat: the arena's


def test_refusals_follow_the_players_language(tmp_path: Path) -> None:
    table = started("wool_bluff", "ja", tmp_path)
    _, idle = acting(table)
    said(table, idle, "!LANG EN")
    [refusal] = said(table, idle, "!bluff")
    assert "not your turn" in refusal
    assert table.languages == {idle: "en"}


@pytest.mark.parametrize("line", ["!lang", "!lang fr", "!言語 en ja", "!language klingon"])
def test_a_bad_language_gets_the_usage_and_changes_nothing(line: str, tmp_path: Path) -> None:
    table = started("dice_bluff", "en", tmp_path)
    assert said(table, "Aki", line) == [Locale("en").t("common.language_usage", lang="en")]
    assert table.languages == {}


def test_without_private_messages_every_help_line_is_addressed(tmp_path: Path) -> None:
    table = started("wool_bluff", "en", tmp_path, can_tell=False)
    table.on_chat("Aki", "!help")
    lines = table.outbox.drain().chat
    assert len(lines) >= 2 and all(line.startswith("@Aki: ") for line in lines)
