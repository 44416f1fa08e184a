"""`mcbridge demo --game G` for every game that has a table kit (new kits are picked up from
`KITS`): the bots seat themselves, play a whole match by sword clicks, the public chat and
the standings are printed, and the journal replays to the printed result."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcbridge import games
from mcbridge.cli import main
from mcbridge.i18n import locale
from mcbridge.tables.journal import Journal
from mcbridge.tables.kits import games_with_kits
from mcbridge.tables.rules_view import result_json


@pytest.mark.parametrize("game", games_with_kits())
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_demo_plays_a_whole_match_of_every_game_with_a_kit(
        game: str, lang: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    journal = tmp_path / "journal.sqlite"
    shorter = ["--turns", "1"] if game == "wool_bluff" else []
    assert main(["demo", "--game", game, "--seed", "5", "--tps", "0", "--lang", lang, *shorter,
                 "--journal", str(journal)]) == 0
    out = capsys.readouterr().out.splitlines()
    text = locale(lang)
    assert out[0].startswith("arena ") and out[-1].startswith("1 match(es) over")
    assert text.t(f"{game}.standings_title") in out
    (saved,) = Journal(journal).matches()
    assert saved.game == game and saved.finished is not None and saved.result is not None
    # every decision was the bots' own (clicked): none ran out of time
    timeout_words = text.t("common.timeout", name="@").split("@")[1].strip()
    assert not [line for line in out if timeout_words in line]
    # the printed standings are the rules' replay of the journal
    rules = games.load(game, {k: v for k, v in saved.options.items() if k != "booths"})
    state = rules.new_match(saved.players, saved.seed)
    for seat, data in saved.actions:
        state.apply(seat, rules.action_from_json(data))
    assert state.is_over and result_json(state) == saved.result
    rows = saved.result["standings"]
    assert all(any(row["name"] in line for line in out[out.index(text.t(f"{game}.standings_title")):]) for row in rows)
