"""A comma in sign text is shown as its look-alike (`sanitize.SIGN_COMMA`), on every path a
sign line takes (the cached `Batch.set_sign`, the general `make`, private signs), and never
reaches the server as a comma, which would split the arguments."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mcbridge.textfit import text_px
from mcbridge.world import sanitize
from mcbridge.world.blocks import Block
from mcbridge.world.commands import Batch, make
from mcbridge.world.geometry import Pos
from mcbridge.world.sanitize import SIGN_COMMA, sign_line

PLAIN = st.text(st.sampled_from("abc XYZ019,.;:!?"), max_size=sanitize.MAX_SIGN_LINE)


@settings(max_examples=200, deadline=None)
@given(PLAIN)
def test_each_comma_becomes_the_look_alike_and_nothing_else_changes(text: str) -> None:
    assert sign_line(text) == text.replace(",", SIGN_COMMA)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=40), min_size=1, max_size=4))
def test_no_path_sends_a_comma_in_a_sign_line(lines: list[str]) -> None:
    batch = Batch()
    batch.set_sign(Pos(1, 2, 3), Block(68, 2), lines)
    batch.private_set_sign("Aki", Pos(1, 2, 3), Block(68, 2), lines)
    general = make("world.setSign", [Pos(1, 2, 3), Block(68, 2), lines])
    cached, private = (item.command for item in batch.items)
    assert cached == general
    assert str(cached).count(",") == 5 + len(lines) - 1  # the separators only
    assert private.args[6:] == cached.args[5:]


def test_a_score_reads_with_its_comma() -> None:
    assert sign_line("3, 4") == "3\u201a 4"
    assert text_px(sign_line("3, 4")) == text_px("3, 4")  # fitted as wide as the comma it stands for
