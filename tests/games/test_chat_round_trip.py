"""Every legal move of random matches of every game can be typed: the move written as a
player would write it (English and Japanese) parses back to exactly that move."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from mcbridge import games
from mcbridge.core import CHANCE, Action, Rng, State
from mcbridge.core.legal import expand
from mcbridge.games import braff, bribery, briscola_bugiarda, dice_bluff, wool_bluff

JA_COLOURS = {"red": "赤", "blue": "青", "yellow": "黄", "green": "緑", "black": "黒", "white": "白"}
JA_SUITS = {"coppe": "カップ", "denari": "金貨", "spade": "剣", "bastoni": "棍棒"}


def wool_texts(a: Action) -> list[str]:
    if isinstance(a, wool_bluff.Bid):
        ja = JA_COLOURS[a.colour]
        return [f"!bid {a.colour} {a.count}", f"!{ja}が{a.count}個以上", f"!予想{ja}{a.count}"]
    if isinstance(a, wool_bluff.Discard):
        en = " ".join(f"{c} {n}" for c, n in a.wool)
        return [f"!discard {en}", "!" + "".join(f"{JA_COLOURS[c]}{n}" for c, n in a.wool) + " 捨て"]
    return {wool_bluff.Through(): ["!through", "!スルー"], wool_bluff.Bluff(): ["!bluff", "!ブラフ"]}[a]  # type: ignore[index]


def dice_texts(a: Action) -> list[str]:
    if isinstance(a, dice_bluff.Bid):
        return [f"!bid {a.count} {a.face}", f"!{a.face}が{a.count}個"]
    if isinstance(a, dice_bluff.SetAside):
        return ["!aside " + " ".join(map(str, a.dice)), "!" + " ".join(map(str, a.dice)) + " 出す"]
    return ["!challenge", "!チャレンジ"]


def bribery_texts(a: Action) -> list[str]:
    def cards(values: tuple[int, ...], informant: str) -> str:
        return " ".join(informant if v == bribery.INFORMANT else str(v) for v in values)

    if isinstance(a, bribery.Pass):
        return ["!pass informant", "!パス 密告"] if a.refill == "card_and_informant" else ["!pass", "!パス"]
    if isinstance(a, bribery.Raise | bribery.Call):
        en, ja = ("raise", "レイズ") if isinstance(a, bribery.Raise) else ("call", "コール")
        return [f"!{en} {cards(a.cards, 'informant')}", f"!{cards(a.cards, '密告')} {ja}"]
    return {bribery.Fold(): ["!fold", "!フォールド"], bribery.AllIn(): ["!all in", "!オールイン"]}[a]  # type: ignore[index]


def braff_texts(a: Action) -> list[str]:
    if isinstance(a, braff.Discard):
        if not a.cards:
            return ["!keep", "!キープ"]
        return ["!discard " + " ".join(a.cards), "!" + "と".join(JA_COLOURS[c] for c in a.cards) + "を交換"]
    if isinstance(a, braff.Raise):
        return [f"!raise {a.cup} {a.stake}", f"!ハイエスト {a.cup}カップ {a.stake}"]
    if isinstance(a, braff.Doubt):
        return ["!fake", "!にせ乳だ"] if a.kind == "fake" else ["!not enough", "!足りてない"]
    simple = {braff.Call(): ["!call", "!ふーん"], braff.AllIn(): ["!all in", "!オールイン"]}
    simple |= {braff.Drop(): ["!drop", "!そんなにありません"], braff.Stand(): ["!stand", "!そのまま"]}
    return simple[a]  # type: ignore[index]


def briscola_texts(a: Action) -> list[str]:
    if isinstance(a, briscola_bugiarda.Bid):
        return [f"!bid {a.rank}", f"!ビッド {a.rank}"]
    if isinstance(a, briscola_bugiarda.CallTrump):
        return [f"!trump {a.suit}", f"!切り札は{JA_SUITS[a.suit]}"]
    if isinstance(a, briscola_bugiarda.Play):
        rank, suit = a.card[:-1], {"c": "coppe", "d": "denari", "s": "spade", "b": "bastoni"}[a.card[-1]]
        return [f"!play {rank} {suit}", f"!{JA_SUITS[suit]}の{rank}を出す", f"!{a.card}"]
    return {briscola_bugiarda.Solo(): ["!solo", "!ソロ"], briscola_bugiarda.Pass(): ["!pass", "!パス"]}[a]  # type: ignore[index]


WRITERS: dict[str, Callable[[Action], list[str]]] = {
    "wool_bluff": wool_texts,
    "dice_bluff": dice_texts,
    "bribery": bribery_texts,
    "braff": braff_texts,
    "briscola_bugiarda": briscola_texts,
}


def decisions(name: str, seed: int) -> Iterator[tuple[State, int, list[Action]]]:
    """Every decision of a random match: the state, the seat, a sample of its legal moves."""
    game = games.load(name, {"ruleset": "perudo"} if name == "dice_bluff" and seed % 2 else {})
    lo, hi = game.player_range
    state = game.new_match([f"P{i}" for i in range(max(lo, min(hi, 4)))], seed)
    rng = Rng(seed)
    while not state.is_over:
        seat = min(state.to_act())
        if seat == CHANCE:
            state.apply(seat, state.sample_chance(rng))
            continue
        legal = list(expand(state.legal_actions(seat)))  # a range (deep stacks) stands for its actions
        sample = legal if len(legal) <= 12 else [legal[0], legal[-1], *(rng.choice(legal) for _ in range(10))]
        yield state, seat, sample
        state.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("name", WRITERS)
def test_every_legal_move_typed_in_english_or_japanese_parses_back(name: str, seed: int) -> None:
    checked = 0
    for state, seat, sample in decisions(name, seed):
        for action in sample:
            for text in WRITERS[name](action):
                assert state.game.parse_action(seat, text, state) == action, text
                checked += 1
    assert checked > 50
