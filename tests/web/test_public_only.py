"""Only public information reaches spectators.

Two matches that differ only in the hands dealt (hidden information) must produce the
very same websocket messages, byte for byte, until the rules reveal the hands (a BLUFF
starts the reveal: the hands go up on the wool walls, in the map as in the world); the page
is drawn from those messages alone (app.js holds no other input), so its text is the
same too (the browser test checks what the page shows). At the reveal they must differ,
which proves the comparison can fail.
"""

from __future__ import annotations

from pathlib import Path

from web_support import chance, seated_table

from mcbridge.games.wool_bluff import Bid, Bluff, Deal, FirstPredictor, Reveal, Through
from mcbridge.web.hub import WebHub

HANDS_A = [{"red": 5, "blue": 5}, {"green": 10}, {"black": 4, "white": 6}, {"yellow": 10}]
HANDS_B = [{"white": 10}, {"red": 1, "blue": 9}, {"yellow": 3, "green": 7}, {"black": 10}]


def play(tmp: Path, name: str, hands: list[dict[str, int]]) -> tuple[list[dict[str, str]], list[dict[str, str]]]:
    """Messages before the reveal, and the messages of the reveal."""
    table, clock = seated_table(tmp, name)
    hub = WebHub([table])
    sent: list[dict[str, str]] = []
    hub.sink = lambda _table, messages, _at: sent.append(messages)
    hub.cycle()
    chance(table, FirstPredictor(0))
    hub.cycle()
    size = table.state.hand_size  # type: ignore[union-attr]
    for seat, hand in enumerate(hands):
        scaled = dict(hand)
        total = sum(scaled.values())
        first = next(iter(scaled))
        scaled[first] += size - total  # every hand the size the rules deal
        chance(table, Deal(seat, scaled))
        hub.cycle()
    for seat, action in [(0, Bid("red", 3)), (1, Through()), (2, Through()), (3, Through()), (1, Bid("blue", 5))]:
        clock.now += 1.5
        assert table.submit(seat, action), action
        hub.cycle()
    before = list(sent)
    assert table.submit(2, Bluff())  # the rules' reveal phase: the hands go up on the wool walls
    hub.cycle()
    chance(table, Reveal())
    hub.cycle()
    return before, sent[len(before):]


def test_hidden_hands_change_no_message_until_the_reveal(tmp_path: Path) -> None:
    before_a, reveal_a = play(tmp_path, "a.sqlite", HANDS_A)
    before_b, reveal_b = play(tmp_path, "b.sqlite", HANDS_B)
    assert len(before_a) >= 10
    assert before_a == before_b  # both languages, every message, byte for byte
    assert reveal_a != reveal_b  # the reveal shows the hands: now they differ
