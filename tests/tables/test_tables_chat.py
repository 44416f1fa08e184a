"""A match played only by chat, in English and Japanese; refusals say why and what is legal."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from table_support import ChatPlayers, Rig, seat_players, shipped_arena

from mcbridge.core import CHANCE
from mcbridge.world.embedded import EmbeddedHandle
from mcbridge.world.embedded.simulator import EmbeddedPlayer


def say(rig: Rig, player: EmbeddedPlayer, line: str) -> list[str]:
    """Type a line; return the private replies it earned (polled, then sent with the next write)."""
    before = len(player.private_messages())
    player.chat(line)
    rig.step()
    rig.step()
    return player.private_messages()[before:]


def test_refusals_name_the_reason_and_what_is_legal(rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    r = rig(shipped_arena(options={"turns": 1}))
    players = seat_players(r)
    spectator = world.players.join("Spectator")
    r.step()
    state = r.table.state
    assert state is not None and state.phase == "bid"
    [predictor] = state.to_act()
    other = players[(predictor + 1) % 4]
    actions = r.table.seq

    reply = " ".join(say(r, other, "!bid red 3"))  # long replies come split into chat lines
    assert "not your turn" in reply, reply
    reply = " ".join(say(r, players[predictor], "!dance"))
    assert reply.startswith('Unknown command "!dance"') and "You can now: !bid <colour> <count>." in reply
    reply = " ".join(say(r, players[predictor], "!bid red 0"))
    assert reply == f"Your count must be from 1 to {state.wool_in_play}."
    reply = " ".join(say(r, players[predictor], "!bid purple 3"))
    assert reply == "Write a bid as: !bid red 12"
    reply = " ".join(say(r, spectator, "!bluff"))
    assert "not seated" in reply and "join sign" in reply
    reply = " ".join(say(r, spectator, "!help"))  # the guide: goal, now, commands
    assert reply.startswith("Goal:") and "!bid red 12" in reply and "!through" in reply
    assert r.table.seq == actions and state.phase == "bid"  # nothing refused was journalled
    assert all(reply not in line for line in spectator.chat_heard())  # replies are private

    assert say(r, players[predictor], "!予想 赤 3") == []
    assert state.phase == "respond"  # the same state object, moved on
    [responder] = state.to_act()
    reply = " ".join(say(r, players[responder], "!予想 青 4"))
    assert reply.startswith("You cannot bid now. Now: answer the bid.")
    reply = " ".join(say(r, players[responder], "!dance"))
    assert "You can now: !through, !bluff." in reply


def test_a_whole_match_by_chat_in_both_languages(rig: Callable[..., Rig], world: EmbeddedHandle) -> None:
    r = rig(shipped_arena(options={"turns": 4}))
    players = seat_players(r)
    chatters = ChatPlayers(players, lambda: r.table.state)
    r.bots.append(chatters)
    r.finish()
    state = r.table.state
    assert state is not None and state.is_over

    saved = r.journal.match(r.table.match_id)  # type: ignore[arg-type]
    applied = [(seat, data) for seat, data in saved.actions if seat != CHANCE]
    typed = [(seat, action.to_json()) for seat, action, _ in chatters.sent]
    # every line typed became exactly its action (simultaneous discards may land in any order)
    assert Counter(map(repr, applied)) == Counter(map(repr, typed))

    lines = [line for _, _, line in chatters.sent]
    pairs = [("!bid ", "!予想 "), ("!through", "!スルー"), ("!bluff", "!ブラフ"), ("!discard ", "!捨て ")]
    for english, japanese in pairs:
        assert any(line.startswith(english) for line in lines), english
        assert any(line.startswith(japanese) for line in lines), japanese
    sword = r.table.text.t("common.sword_given")  # the one private message a seated player gets
    assert all(p.private_messages() == [sword] for p in players)  # and no refusals
