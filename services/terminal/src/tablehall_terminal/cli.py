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


# the common flags: the option each stands for, by the field the game's options schema has
# (the value's factor: the clock flag is in seconds, some games count their clock in ms)
FLAG_OPTIONS: dict[str, tuple[tuple[str, int], ...]] = {
    "rounds": (("round_limit", 1),),
    "clock": (("decision_clock_s", 1), ("clock_ms", 1000)),
}


class BadOptions(ValueError):
    """Options the game does not take: said before any table is made."""


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
    play.add_argument("--clock", type=int, default=None, help="decision clock in seconds (every game)")
    play.add_argument("--option", action="append", default=[], metavar="KEY=JSON", help="any option of the game")
    watch.add_argument("table", help="table id or tables/{id}")


def game_list(games: Sequence[GameInfo], lang: str) -> str:
    """The games as lines: id, name, seats."""
    return "\n".join(f"  {g.id:<14} {g.name(lang)} ({g.min_seats}–{g.max_seats})" for g in games)


def options_for(game: GameInfo, args: argparse.Namespace, lang: str = "en") -> dict[str, Any]:
    """The table's options from the common flags and `--option`s, checked against the game's
    options schema (ListGames carries it): `BadOptions` says what is wrong and what the game takes."""
    known: Mapping[str, Any] = game.options_schema.get("properties") or {}
    options: dict[str, Any] = {}
    for flag, fields in FLAG_OPTIONS.items():
        value = getattr(args, flag)
        if value is None:
            continue
        field = next(((f, factor) for f, factor in fields if f in known), None)
        if field is None:
            raise BadOptions(t(lang, "no_flag", flag=flag, game=game.id) + "\n" + option_list(game, lang))
        options[field[0]] = value * field[1]
    for item in args.option:
        key, _, raw = item.partition("=")
        try:
            options[key] = json.loads(raw)
        except json.JSONDecodeError:
            options[key] = raw
    problems = [p for key, value in options.items() if (p := _problem(known, key, value, lang))]
    if problems:
        raise BadOptions("\n".join([*problems, option_list(game, lang)]))
    return options


def _problem(known: Mapping[str, Any], key: str, value: Any, lang: str) -> str:
    """What is wrong with one option by the schema ("" when nothing is)."""
    spec = known.get(key)
    if spec is None:
        return t(lang, "unknown_option", option=key)
    kind = spec.get("type")
    if kind == "integer" and (isinstance(value, bool) or not isinstance(value, int)):
        return t(
            lang, "bad_option", option=key, value=json.dumps(value, ensure_ascii=False), allowed=_allowed(spec, lang)
        )
    if kind == "boolean" and not isinstance(value, bool):
        return t(
            lang, "bad_option", option=key, value=json.dumps(value, ensure_ascii=False), allowed=_allowed(spec, lang)
        )
    enum = spec.get("enum")
    low, high = spec.get("minimum"), spec.get("maximum")
    out_of_range = isinstance(value, int) and ((low is not None and value < low) or (high is not None and value > high))
    if (enum is not None and value not in enum) or out_of_range:
        return t(
            lang, "bad_option", option=key, value=json.dumps(value, ensure_ascii=False), allowed=_allowed(spec, lang)
        )
    return ""


def _allowed(spec: Mapping[str, Any], lang: str) -> str:
    if "enum" in spec:
        return ", ".join(json.dumps(v, ensure_ascii=False) for v in spec["enum"])
    if spec.get("type") == "boolean":
        return "true, false"
    low, high = spec.get("minimum"), spec.get("maximum")
    if low is not None and high is not None:
        return f"{low}–{high}"
    return t(lang, "any_integer") if spec.get("type") == "integer" else str(spec.get("type", ""))


def option_list(game: GameInfo, lang: str) -> str:
    """The game's options, one a line: key, what it takes, its default and description."""
    known: Mapping[str, Any] = game.options_schema.get("properties") or {}
    if not known:
        return t(lang, "no_options", game=game.id)
    lines = [t(lang, "options_of", game=game.id)]
    for key, spec in known.items():
        default = (
            f" ({t(lang, 'default')} {json.dumps(spec['default'], ensure_ascii=False)})" if "default" in spec else ""
        )
        about = f" — {spec['description']}" if spec.get("description") else ""
        lines.append(f"  --option {key}=…  {_allowed(spec, lang)}{default}{about}")
    return "\n".join(lines)


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
    try:
        options = options_for(game, args, lang)
    except BadOptions as exc:  # before any table is made: say what the game takes, exit non-zero
        raise SystemExit(str(exc)) from exc
    plan = PlayPlan(game.id, bots, name, options)
    asyncio.run(_run(args.server, plan, lang))
    return 0


def watch_main(args: argparse.Namespace) -> int:
    plan = WatchPlan(args.table, args.name or default_name())
    asyncio.run(_run(args.server, plan, pick_lang(args.lang, os.environ)))
    return 0
