"""A refusal that tells a hand, on a server without private messages, goes to the booth's info
sign (Table._note_part): whatever the length of the translated text, the sign shows its first
four lines and blanks below, and the table keeps running.

The shipped refusal ("You hold 0 white wool.", 「持っている白の羊毛は0個です。」) is two sign lines
in both languages, so these tests use a translator's own wording: one line, exactly four, and
more than fit. Written for a survivor of the mutation sample (bench/mutation.py table): the
fourth sign line read from the fifth entry, which crashed the scene on a one-line note and
blanked the last line of a four-line one.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from table_support import Rig, shipped_arena
from test_tables_private import ALL_RED, reach_discard, world_pos

from mcbridge import CONFIG_DIR, i18n
from mcbridge.world.embedded import EmbeddedHandle

SHIPPED = 'discard_not_held: "You hold {held} {colour_name} wool."'


@pytest.fixture
def translate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """`translate(template)`: the English discard_not_held text as a translator wrote it, in a
    copy of config/locales that every table made afterwards reads."""

    def install(template: str) -> None:
        config = tmp_path / "config"
        shutil.copytree(CONFIG_DIR / "locales", config / "locales")
        texts = config / "locales/en/wool_bluff.yaml"
        shipped = texts.read_text(encoding="utf-8")
        assert SHIPPED in shipped
        texts.write_text(shipped.replace(SHIPPED, f'discard_not_held: "{template}"'), encoding="utf-8")
        monkeypatch.setattr(i18n, "CONFIG_DIR", config)
        i18n.locale.cache_clear()

    yield install
    monkeypatch.undo()
    i18n.locale.cache_clear()  # later tests read the shipped texts again


@pytest.mark.parametrize(
    ("template", "shown"),
    [
        ("No {colour_name}.", ("No white.", "", "", "")),
        (
            "You hold {held} {colour_name} wool. Pick a colour you hold.",
            ("You hold 0", "white wool.", "Pick a colour", "you hold."),
        ),
        (
            "You hold {held} {colour_name} wool. Pick another colour to discard.",
            ("You hold 0", "white wool.", "Pick another", "colour to"),
        ),
    ],
    ids=["one line", "four lines", "more than four"],
)
def test_a_refusal_note_of_any_length_fills_the_info_sign_from_the_top(
    rig: Callable[..., Rig],
    world: EmbeddedHandle,
    translate: Callable[[str], None],
    template: str,
    shown: tuple[str, ...],
) -> None:
    translate(template)
    r = rig(shipped_arena(options={"turns": 2, "weights": ALL_RED}), tell=False)
    players, booth = reach_discard(r)
    due = r.table.state.discard_due[r.table.rules_seat(booth)]  # type: ignore[union-attr]
    seq = r.table.seq
    players[booth].chat(f"!discard white {due}")  # an all-red hand holds no white
    r.step()
    r.step()
    assert r.table.seq == seq  # refused, and the table still draws
    info = world.sign_lines(*world_pos(r, r.arena.seats[booth].signs["info"].at))
    assert info is not None and tuple(line.strip() for line in info) == shown
