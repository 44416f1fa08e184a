"""Every event and refusal of random matches of every game, rendered in both languages, reads
as text for people: no Python reprs (`[`, `{`, `'`), no class names, no locale keys, and no
English words in Japanese output. 16-character names, so long names are covered too."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from mcbridge import games
from mcbridge.core import CHANCE, Action, IllegalAction, Rng, State
from mcbridge.core.policies import RandomPolicy
from mcbridge.i18n import LANGUAGES, locale, text_context

NAMES = ["Alexander_Smith1", "yuki_tanaka_2026", "ZZZZZZZZZZZZZZZZ", "WWWWWWWWWWWWWWWW", "mmmmmmmmmmmmmmmm"]
GAMES = {
    "wool_bluff": [{}],
    "dice_bluff": [{"ruleset": "bluff"}, {"ruleset": "perudo"}],
    "bribery": [{}],
    "braff": [{}],
    "briscola_bugiarda": [{}],
}
#: texts players type that every parser must refuse in words
GARBAGE = ["hello", "bluf", "bid", "raise", "discard", "捨て", "予想 紫 3", "bid -1 3", "raise 100.0", "?!"]
#: ASCII a Japanese line may contain: names, numbers, card and cup letters, VP, !help
JA_ASCII_OK = re.compile(r"^(\d+|[A-Z]{1,3}|VP)$")


def class_names() -> set[str]:
    names: set[str] = set()
    for name in GAMES:
        game = games.load(name)
        names |= {cls.__name__ for cls in game._actions_by_name.values()}
        module = __import__(f"mcbridge.games.{name}.actions", fromlist=["EVENT_TYPES"])
        names |= {cls.__name__ for cls in module.EVENT_TYPES}
    return names


CLASS_NAMES = class_names()
KEY = re.compile(rf"\b(?:common|{'|'.join(GAMES)})\.\w+")


def lines(name: str, options: dict[str, object], seed: int, lang: str) -> Iterator[str]:
    """Every event of one match, then refusals met along the way, as the table would say them."""
    game = games.load(name, options)
    lo, hi = game.player_range
    players = NAMES[: min(hi, max(lo, 4))]
    state = game.new_match(players, seed)
    text = locale(lang)
    rng = Rng(seed)
    policy = game.bot() if seed % 2 else RandomPolicy()
    seen: list[Action] = []
    while not state.is_over:
        seat = min(state.to_act())
        if seat == CHANCE:
            action = state.sample_chance(rng)
        else:
            legal = state.legal_actions(seat)
            action = policy.choose(state.view(seat), legal, rng)
            yield from refusals(text, name, state, seat, seen[-40:] + list(legal[:3]), rng)
            seen.extend(legal[:5])
        for event in state.apply(seat, action):
            yield text.event(name, event, players, **text_context(state))
    yield from text.help(name, state.phase, multiplier=2)


def refusals(text: object, name: str, state: State, seat: int, candidates: list[Action], rng: Rng) -> Iterator[str]:
    others = [s for s in range(len(state.players)) if s != seat]
    tries: list[tuple[int, Action | str]] = [(seat, rng.choice(GARBAGE))]
    tries += [(rng.choice(others), rng.choice(candidates))] if others and candidates else []
    tries += [(seat, rng.choice(candidates))] if candidates else []
    for who, what in tries:
        try:
            action = state.game.parse_action(who, what, state) if isinstance(what, str) else what
            before = state.to_json()
            state.apply(who, action)
        except IllegalAction as exc:
            yield text.refusal(name, exc, state.players)  # type: ignore[attr-defined]
        else:  # a legal action slipped through: undo by restoring (the match goes on as planned)
            restored = state.game.from_json(before)
            state.__dict__.update(restored.__dict__)


def problems(line: str, lang: str) -> list[str]:
    found = [sign for sign in ("[", "]", "{", "}", "'", "None", "True", "False") if sign in line]
    found += [w for w in re.findall(r"(?<=[a-z] )[A-Z][A-Za-z]+|[A-Z][a-z]+[A-Z]\w*", line) if w in CLASS_NAMES]
    found += KEY.findall(line)  # a locale key shown as is
    if lang == "ja":
        echoed = {w for text in GARBAGE for w in text.split()}  # what the player typed, quoted back
        # a suggestion for an English word is named in English on purpose (as the player typed)
        unquoted = re.sub(r"もしかして ![a-z ]+ ？", "", line)
        words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", unquoted)
        found += [w for w in words if w not in NAMES and w not in echoed and not JA_ASCII_OK.match(w)]
    return found


CASES = [(n, o, s, lang) for n, opts in GAMES.items() for o in opts for s in (1, 2, 3) for lang in LANGUAGES]


@pytest.mark.parametrize(("name", "options", "seed", "lang"), CASES)
def test_every_line_of_a_random_match_reads_as_text(
    name: str, options: dict[str, object], seed: int, lang: str
) -> None:
    bad = {}
    count = 0
    for line in lines(name, options, seed, lang):
        count += 1
        if found := problems(line, lang):
            bad[line] = found
    assert count > 20
    assert not bad, "\n".join(f"{k}  <- {v}" for k, v in list(bad.items())[:15])
