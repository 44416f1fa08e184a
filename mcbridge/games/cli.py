"""`mcbridge rules GAME`: play a match in the terminal, or list a game's placeholders."""

from __future__ import annotations

import argparse
import json
from typing import Any

from mcbridge.core import Event, Rng, play_out


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "rules",
        help="play a rules-only match in the terminal (no Minecraft)",
        description="Play a full match of GAME with bots in the terminal, printing every turn.",
    )
    p.add_argument("game", help="wool_bluff, dice_bluff, bribery, braff or briscola_bugiarda")
    p.add_argument("--seed", type=int, default=1, help="match seed (same seed, same match)")
    p.add_argument("--players", type=int, default=4, help="number of players")
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
    p.set_defaults(func=run)


def parse_option(text: str) -> tuple[str, Any]:
    key, sep, raw = text.partition("=")
    if not sep or not key:
        raise SystemExit(f"--option wants KEY=VALUE, got {text!r}")
    try:
        return key, json.loads(raw)
    except json.JSONDecodeError:
        return key, raw


def run(args: argparse.Namespace) -> int:
    from mcbridge import games
    from mcbridge.core import OptionError
    from mcbridge.i18n import locale, text_context

    try:
        game = games.load(args.game, dict(parse_option(o) for o in args.option))
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
    names = [f"Bot{i + 1}" for i in range(args.players)]
    try:
        state = game.new_match(names, args.seed)
    except OptionError as exc:
        print(f"error: {exc}")
        return 2
    text = locale(args.lang)

    def show(events: list[Event]) -> None:
        for event in events:
            print(text.event(game.name, event, names, **text_context(state)))

    actions = len(play_out(state, game.bot(), Rng(args.seed), on_events=show))
    result = state.result()
    if args.json:
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        print()
        print(text.t(f"{game.name}.name"), f"- seed {args.seed}, {actions} actions")
        for row in result.standings:
            score = f"{row.score} {result.score_name}{' (out)' if row.eliminated else ''}"
            print(text.t("common.standings", **row.to_json(), score=score))
    return 0
