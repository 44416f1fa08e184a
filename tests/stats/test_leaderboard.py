"""Leaderboard signs and `!stats` answers: fitted, safe for any name, in both languages."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mcbridge.i18n import locale
from mcbridge.stats.leaderboard import board_signs, is_stats_request, safe_name, stats_lines
from mcbridge.stats.store import BoardRow, PlayerGame
from mcbridge.textfit import SIGN_LINE_PX, text_px


def rows(names):
    return [BoardRow(i + 1, n, 10.0 - i, 25.0, 5.0, 3, 1) for i, n in enumerate(names)]


def test_a_board_fills_signs_top_to_bottom():
    signs = board_signs("Top Wool Bluff", rows(["Aki", "Ben", "Chie", "Dan", "Emi"]), signs=2)
    assert signs == [("Top Wool Bluff", "1 Aki 10.0", "2 Ben 9.0", "3 Chie 8.0"), ("4 Dan 7.0", "5 Emi 6.0", "", "")]


def test_a_board_never_has_more_signs_than_asked():
    assert len(board_signs("T", rows([f"p{i}" for i in range(40)]), signs=3)) == 3


@given(st.lists(st.text(min_size=1, max_size=40), min_size=1, max_size=8))
def test_any_name_renders_safely_and_fits(names):
    for sign in board_signs("Top", rows(names), signs=3):
        for line in sign:
            assert "§" not in line and "\n" not in line and "\r" not in line
            assert text_px(line) <= SIGN_LINE_PX


def test_formatting_codes_are_shown_harmless():
    assert safe_name("§4Admin\nop") == "4Admin op"


def test_stats_answer_in_english_and_japanese():
    games = [PlayerGame("wool_bluff", 2, 4.25, 5, 2)]
    assert stats_lines(locale("en"), "Aki", games) == ["Wool Bluff: rank 2, rating 4.2, 5 matches, 2 wins"]
    ja = stats_lines(locale("ja"), "Aki", games)[0]
    assert "2位" in ja and "5戦" in ja
    assert stats_lines(locale("en"), "§cNew", []) == ["cNew: no rated matches yet."]


def test_stats_requests_in_both_languages():
    assert all(is_stats_request(m) for m in ("!stats", " !STATS ", "!成績", "！成績", "! stats"))
    assert not any(is_stats_request(m) for m in ("stats", "!stat", "!stats please", "!bid 3"))
