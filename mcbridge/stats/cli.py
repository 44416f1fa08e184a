"""`mcbridge stats top GAME [--json]` and `mcbridge stats player NAME [--json]`."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from typing import Any

DEFAULT_DB = "sqlite:///var/journal.sqlite.stats"


def add_db_arg(p: argparse.ArgumentParser, default: str | None) -> None:
    p.add_argument(
        "--db",
        default=default,
        metavar="URL",
        help="stats store: sqlite:///PATH or postgresql://USER:PASSWORD@HOST:PORT/DB"
        + (f" (default {default})" if default else " (default: none, no stats are kept)"),
    )


def register(subparsers: Any) -> None:
    p = subparsers.add_parser("stats", help="player ratings and leaderboards")
    sub = p.add_subparsers(dest="stats_command", metavar="ACTION")
    t = sub.add_parser("top", help="the leaderboard of a game")
    t.add_argument("game")
    t.add_argument("--limit", type=int, default=10)
    t.add_argument("--bots", action="store_true", help="the bots' board (bots are rated apart from people)")
    t.add_argument("--json", action="store_true")
    add_db_arg(t, DEFAULT_DB)
    t.set_defaults(func=cmd_top)
    q = sub.add_parser("player", help="one player's rank and rating in every game")
    q.add_argument("name")
    q.add_argument("--json", action="store_true")
    add_db_arg(q, DEFAULT_DB)
    q.set_defaults(func=cmd_player)


def _game(name: str) -> str:
    from mcbridge import games
    from mcbridge.stats.errors import StoreError

    known = sorted(games.available())
    if name not in known:
        raise StoreError(f"unknown game {name!r}: one of {', '.join(known)}")
    return name


def cmd_top(args: argparse.Namespace) -> int:
    from mcbridge.stats.leaderboard import safe_name
    from mcbridge.stats.store import open_store

    game = _game(args.game)
    store = open_store(args.db)
    try:
        rows = store.top(game, args.limit, bots=args.bots)
    finally:
        store.close()
    if args.json:
        print(json.dumps({"game": game, "bots": args.bots, "top": [asdict(r) for r in rows]}, ensure_ascii=False))
    elif not rows:
        print(f"no rated {game} matches yet")
    else:
        for r in rows:
            print(f"{r.rank:>3}  {safe_name(r.player):<16} {r.ordinal:7.2f}  {r.matches} matches, {r.wins} wins")
    return 0


def cmd_player(args: argparse.Namespace) -> int:
    from mcbridge.stats.leaderboard import safe_name
    from mcbridge.stats.store import open_store

    store = open_store(args.db)
    try:
        games = store.player(args.name)
        history = store.history(args.name)
    finally:
        store.close()
    if args.json:
        data = {
            "player": args.name,
            "games": [asdict(g) for g in games],
            "history": [{"game": g, "match": m, "before": b, "after": a} for g, m, b, a in history],
        }
        print(json.dumps(data, ensure_ascii=False))
    elif not games:
        print(f"{safe_name(args.name)}: no rated matches yet")
    else:
        for g in games:
            print(f"{g.game}: rank {g.rank}, rating {g.ordinal:.2f}, {g.matches} matches, {g.wins} wins")
    return 0
