"""`tablehall play` and `tablehall watch`: argument handling and running the app."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from tablehall_sdk import Client, GameInfo, TablehallError
from tablehall_terminal.app import TableApp
from tablehall_terminal.i18n import pick_lang, t
from tablehall_terminal.plans import PlayPlan, WatchPlan, default_name
from tablehall_terminal.plugin import NoPlugin, load_plugin

DEFAULT_PORT = "50051"


def default_server(env: Mapping[str, str]) -> str:
    """TABLEHALL_SERVER, else this machine at the port `tablehall up` serves on (TABLEHALL_PORT)."""
    return env.get("TABLEHALL_SERVER") or f"127.0.0.1:{env.get('TABLEHALL_PORT') or DEFAULT_PORT}"


# the common flags, for the games whose options schema has these fields
FLAG_OPTIONS = {"rounds": "round_limit", "clock": "decision_clock_s"}


def add_arguments(play: argparse.ArgumentParser, watch: argparse.ArgumentParser) -> None:
    for parser in (play, watch):
        parser.add_argument(
            "--server", default=default_server(os.environ), help="default: TABLEHALL_SERVER or 127.0.0.1:TABLEHALL_PORT"
        )
        parser.add_argument("--lang", choices=["ru", "en"], default=None, help="default: from the locale")
        parser.add_argument("--name", default=None, help="development sign-in name (default: yours + a suffix)")
    play.add_argument("game", nargs="?", default=None, help="a game id the server offers (none: list them)")
    play.add_argument(
        "--bots", type=int, default=None, help="bot seats beside yours (default: the fewest the game needs, at least 1)"
    )
    play.add_argument("--rounds", type=int, default=None, help="round limit, for games that have one (0: none)")
    play.add_argument("--clock", type=int, default=None, help="decision clock in seconds, for games that have one")
    play.add_argument("--option", action="append", default=[], metavar="KEY=JSON", help="any option of the game")
    watch.add_argument("table", help="table id or tables/{id}")


def game_list(games: Sequence[GameInfo], lang: str) -> str:
    """The games as lines: id, name, seats."""
    return "\n".join(f"  {g.id:<14} {g.name(lang)} ({g.min_seats}–{g.max_seats})" for g in games)


def options_for(game: GameInfo, args: argparse.Namespace) -> dict[str, Any]:
    """The table's options from the flags the game's options schema knows, and `--option`s."""
    known: Mapping[str, Any] = game.options_schema.get("properties") or {}
    options: dict[str, Any] = {}
    for flag, field in FLAG_OPTIONS.items():
        value = getattr(args, flag)
        if value is not None:
            if field not in known:
                raise SystemExit(f"--{flag}: the game {game.id} has no option {field!r}")
            options[field] = value
    for item in args.option:
        key, _, raw = item.partition("=")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    return options


async def _games(server: str, name: str) -> tuple[GameInfo, ...]:
    async with Client(server) as client:
        await client.sign_in_dev(name)
        return await client.list_games()


async def _run(server: str, plan: PlayPlan | WatchPlan, lang: str) -> None:
    async with Client(server) as client:
        await TableApp(client, plan, lang).run_async()


def play_main(args: argparse.Namespace) -> int:
    lang = pick_lang(args.lang, os.environ)
    name = args.name or default_name()
    try:
        games = asyncio.run(_games(args.server, name))
    except TablehallError as exc:
        raise SystemExit(t(lang, "connection", text=exc.text(lang))) from exc
    offered = {g.id: g for g in games}
    if args.game is None:
        print(t(lang, "games", server=args.server) + "\n" + game_list(games, lang))
        return 0
    game = offered.get(args.game)
    if game is None:
        raise SystemExit(t(lang, "unknown_game", game=args.game, games="\n" + game_list(games, lang)))
    try:
        load_plugin(game.id)
    except NoPlugin as exc:
        raise SystemExit(t(lang, "no_plugin", game=game.id)) from exc
    bots = args.bots if args.bots is not None else max(1, game.min_seats - 1)
    if not game.min_seats <= bots + 1 <= game.max_seats:
        raise SystemExit(t(lang, "bad_bots", game=game.id, lo=game.min_seats - 1, hi=game.max_seats - 1))
    plan = PlayPlan(game.id, bots, name, options_for(game, args))
    asyncio.run(_run(args.server, plan, lang))
    return 0


def watch_main(args: argparse.Namespace) -> int:
    plan = WatchPlan(args.table, args.name or default_name())
    asyncio.run(_run(args.server, plan, pick_lang(args.lang, os.environ)))
    return 0
