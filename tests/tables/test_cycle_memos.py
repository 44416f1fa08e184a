"""The text the tables remember between cycles is the text they would format afresh.

* Chat lines (`split_chat`) are remembered by message and width: every drained outbox, public
  and private, is exactly `split_chat` of what was queued, also past the memo's size.
* Event texts are remembered per table by (game, event, players, seat numbers): the same
  event at another table or with other players is never told with the wrong names.
* Bot names are formatted once per language of the table's texts.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from table_support import StepClock, shipped_arena

from mcbridge.core import CHANCE, Rng
from mcbridge.games.wool_bluff.actions import FirstPredictorChosen, WoolDealt
from mcbridge.i18n import locale
from mcbridge.tables import table as table_module
from mcbridge.tables.journal import Journal
from mcbridge.tables.table import PRIVATE_LINE_PX, Outbox, Table
from mcbridge.tables.updates import TableUpdate
from mcbridge.textfit import CHAT_CAP, CHAT_LINE_PX, WIDE_PX, char_px, split_chat

WORDS = st.sampled_from(["Aki", "bid", "red", "12;", "/", "Reveal:", "wool", "for", "seat", "x" * 30, "赤", "\n"])
MESSAGES = st.lists(WORDS, min_size=1, max_size=40).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(chat=st.lists(MESSAGES, max_size=6), private=st.lists(MESSAGES, max_size=4), small=st.booleans())
def test_drained_lines_are_split_chat_of_what_was_queued(chat: list[str], private: list[str], small: bool) -> None:
    if small:  # a full memo is cleared: what comes after is still right
        table_module._SPLIT.clear()
        table_module._SPLIT.update({(m, 1, 1): ("stale",) for m in chat})  # another width: never used here
    for _ in range(2):  # the second drain answers from the memo
        box = Outbox(chat=list(chat), private=[("Aki", m) for m in private])
        out = box.drain()
        assert out.chat == [line for m in chat for line in split_chat(m)]
        assert out.private == [("Aki", line) for m in private for line in split_chat(m, PRIVATE_LINE_PX)]
        assert not box.pending()


@settings(max_examples=300, deadline=None)
@given(st.text(st.characters(codec="utf-8"), max_size=60))
def test_a_short_message_is_split_as_split_chat_splits_it(message: str) -> None:
    """The no-measuring path: `WIDE_PX` bounds every character's width."""
    assert all(char_px(c) <= WIDE_PX for c in message)
    for line_px, cap in ((CHAT_LINE_PX, CHAT_CAP), (PRIVATE_LINE_PX, CHAT_CAP), (100, 20)):
        assert list(table_module._split(message, line_px, cap)) == split_chat(message, line_px, cap)


def test_the_split_memo_is_bounded(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(table_module, "_SPLIT_LIMIT", 8)
    table_module._SPLIT.clear()
    for k in range(50):
        assert table_module._split(f"a longer line that must be measured, number {k}") == (
            f"a longer line that must be measured, number {k}",)
        assert len(table_module._SPLIT) <= 8


def _table(tmp_path: Path, name: str, lang: str = "en") -> Table:
    return Table(shipped_arena(name=name, locale=lang), Journal(tmp_path / f"{name}.sqlite"), StepClock(), seed=2,
                 start_delay=0.0)


def test_an_event_is_told_with_the_players_of_its_own_match(tmp_path: Path) -> None:
    table = _table(tmp_path, "t")
    text = table.text
    event = FirstPredictorChosen(seat=1)
    for players, numbers in [(("Aki", "Ben"), (1, 2)), (("Chie", "Dan"), (1, 2)), (("Chie", "Dan"), (3, 4))]:
        told = table._event_text(event, players, numbers)
        assert told == text.event("wool_bluff", event, players, numbers)
        assert table._event_text(event, players, numbers) == told  # remembered: the same
    assert "Ben" in table._event_text(event, ("Aki", "Ben"), (1, 2))
    assert "Dan" in table._event_text(event, ("Chie", "Dan"), (1, 2))
    table.journal.close()


def test_every_chat_line_of_a_played_match_is_what_the_locale_formats(tmp_path: Path) -> None:
    """Two matches, other names in the second: each update's lines, formatted afresh."""
    table = _table(tmp_path, "t")
    expected: list[str] = []

    def direct(update: TableUpdate) -> None:
        assert table.state is not None
        numbers = [b + 1 for b in table.booths]
        for event in update.events:
            if not isinstance(event, table.kit.quiet_events):
                expected.append(table.text.event("wool_bluff", event, table.state.players, numbers))

    table.updates.subscribe_inline(direct)
    for names in (["Aki", "Ben", "Chie"], ["Dan", "Eri", "Fumi"]):
        for booth, name in enumerate(names):
            table.occupants[booth] = None
            table.join(booth, name)
        table.tick()
        state = table.state
        assert state is not None
        bot = table.game.bot()
        for k in range(400):
            if state.is_over:
                break
            seat = min(state.to_act())
            action = (state.sample_chance(table.chance_rng()) if seat == CHANCE
                      else bot.choose(state.view(seat), state.legal_actions(seat), Rng.derived(2, k)))
            table.submit(seat, action)
        said = table.outbox.chat
        assert expected and all(line in said for line in expected)
        table.outbox.chat.clear()
        expected.clear()
        table.reset_match("test")
    table.journal.close()


def test_an_unhashable_event_is_formatted_not_remembered(tmp_path: Path) -> None:
    table = _table(tmp_path, "t")
    event = WoolDealt(seat=0, count=10)
    players: tuple = (["Aki"], "Ben")  # type: ignore[assignment]  # a list inside the key: unhashable
    assert table._event_text(event, players, (1, 2)) == table.text.event("wool_bluff", event, players, (1, 2))
    assert not table._event_texts
    table.journal.close()


def test_bot_names_follow_the_tables_language(tmp_path: Path) -> None:
    table = _table(tmp_path, "t")
    english = table.bots.name(1)
    assert table.bots.is_bot_name(english) and not table.bots.is_bot_name("Aki")
    table.text = locale("ja")
    japanese = table.bots.name(1)
    assert japanese != english
    assert table.bots.is_bot_name(japanese) and not table.bots.is_bot_name(english)
    table.journal.close()
