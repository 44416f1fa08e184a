"""`mcbridge rules GAME`: play a match in the terminal, print its transcript, or list a game's
placeholders."""

from __future__ import annotations

import argparse
import json
import shlex
from collections.abc import Iterator, Mapping
from typing import Any

from mcbridge.core import CHANCE, Event, Game, Rng, play_out


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "rules",
        help="play a rules-only match in the terminal (no Minecraft)",
        description="Play a full match of GAME with bots in the terminal, printing every turn.",
    )
    p.add_argument("game", help="wool_bluff, dice_bluff, bribery, braff or briscola_bugiarda")
    p.add_argument("--seed", type=int, default=1, help="match seed (same seed, same match)")
    p.add_argument("--players", type=int, default=None, help="number of players (default: 4, or the nearest allowed)")
    p.add_argument("--bots", action="store_true", help="every seat is played by the game's bot")
    p.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the log")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=JSON",
        help="override an option, e.g. --option turns=3 --option 'weights={\"white\": 0}'",
    )
    p.add_argument("--placeholders", action="store_true", help="list numbers the seed leaves open, then exit")
    p.add_argument("--json", action="store_true", help="print the final result as JSON")
    p.add_argument(
        "--transcript",
        action="store_true",
        help="print a stable transcript instead of the log: every action (seat, JSON), its events, the result",
    )
    p.set_defaults(func=run)


def parse_option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise SystemExit(f"--option wants KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(raw)
    except json.JSONDecodeError:
        return key, raw


def option_arg(key: str, value: Any) -> str:
    """The `--option` argument that `parse_option` reads back as (key, value)."""
    if isinstance(value, str):
        try:
            json.loads(value)
        except json.JSONDecodeError:
            return f"{key}={value}"  # plain words stay readable: ruleset=perudo
    return f"{key}={json.dumps(value, ensure_ascii=False)}"


def default_players(game: Game) -> int:
    """Four players, or the nearest count the game allows (Briscola bugiarda needs five)."""
    lo, hi = game.player_range
    return max(lo, min(4, hi))


def run(args: argparse.Namespace) -> int:
    from mcbridge import games
    from mcbridge.core import OptionError
    from mcbridge.i18n import locale, text_context

    options = dict(parse_option(o) for o in args.option)
    try:
        game = games.load(args.game, options)
    except OptionError as exc:
        print(f"error: {exc}")
        return 2
    if args.placeholders:
        rows = game.placeholders
        print(f"{args.game}: {len(rows)} placeholder value(s) in {game.seed.file}")
        for ph in rows:
            print(f"  {ph.path} = {ph.value!r}  # {ph.note}")
        return 0
    if not args.bots:
        print("Only bot play is available in the terminal; add --bots. Humans play in the world: mcbridge demo / run.")
        return 2
    players = default_players(game) if args.players is None else args.players
    names = [f"Bot{i + 1}" for i in range(players)]
    try:
        state = game.new_match(names, args.seed)
    except OptionError as exc:
        print(f"error: {exc}")
        return 2
    if args.transcript:
        command = ["mcbridge", "rules", game.name, "--seed", str(args.seed), "--players", str(players), "--bots"]
        command += [arg for key, value in options.items() for arg in ("--option", option_arg(key, value))]
        for line in transcript(game, state, args.seed, [*command, "--transcript"]):
            print(line)
        return 0
    text = locale(args.lang)

    def show(events: list[Event]) -> None:
        for event in events:
            print(text.event(game.name, event, names, **text_context(state)))

    actions = len(play_out(state, game.bot(), Rng(args.seed), on_events=show))
    result = state.result()
    if args.json:
        print(json.dumps(result_json(result), ensure_ascii=False, indent=2))
    else:
        print()
        print(text.t(f"{game.name}.name"), f"- seed {args.seed}, {actions} actions")
        for row, score in standings(result):
            print(text.t("common.standings", **row, score=score))
    return 0


# -- the transcript ------------------------------------------------------------------------------
def _compact(data: Mapping[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def transcript(game: Game, state: Any, seed: int, command: list[str]) -> Iterator[str]:
    """A bot match as stable, plain lines: golden files compare it byte for byte.

    The match is the one `mcbridge rules` plays with the same seed (the same `play_out`).
    [decided here] No locale text: the transcript pins the rules (actions, events, result), so
    rewording a chat line does not change a golden file. It shows every chance outcome, hidden
    hands included: it is the journal of a finished match, for developers, not a player's view.
    """
    yield "$ " + shlex.join(command)
    yield f"game {game.name}, seed {seed}, players {', '.join(state.players)}"
    yield "options " + _compact(game.options)
    batches: list[list[Event]] = []
    log = play_out(state, game.bot(), Rng(seed), on_events=batches.append)
    for number, ((seat, action), events) in enumerate(zip(log, batches, strict=True), start=1):
        who = "chance" if seat == CHANCE else f"seat {seat} {state.players[seat]}"
        yield f"#{number} {who}: {_compact(action.to_json())}"
        for event in events:
            data = event.to_json()
            yield f"    {data.pop('type')} {_compact(data)}"
    result = state.result()
    yield f"over after {len(log)} actions"
    for row, score in standings(result):
        winner = ", winner" if row.get("winner") else ""
        yield f"rank {row['rank']}: seat {row['seat']} {row['name']}, {score}{winner}"
    yield "result " + _compact(result_json(result))


# -- scores ---------------------------------------------------------------------------------
def result_json(result: Any) -> dict[str, Any]:
    """The result as JSON data: the typed Result's own form, or today's dict."""
    return result.to_json() if hasattr(result, "to_json") else dict(result)


def standings(result: Any) -> list[tuple[dict[str, Any], str]]:
    """(row, score text) per seat, best first: the one place that knows how a score is named.

    With the core's typed Result, the score and its name come from it ("3 torches", "12 chips
    (out)"). A plain-dict result has no score name: the row's own numbers are shown under the
    names the game gives them, never guessed from a list of known keys."""
    if hasattr(result, "score_name"):
        return [
            (s.to_json(), f"{s.score} {result.score_name}{' (out)' if s.eliminated else ''}") for s in result.standings
        ]
    rows = result["standings"]
    skip = {"rank", "seat", "name", "winner"}
    return [(row, ", ".join(f"{v} {k}" for k, v in row.items() if k not in skip and type(v) is int)) for row in rows]
