"""`tablehall play` and `tablehall watch`: argument handling and running the app."""

from __future__ import annotations

import argparse
import asyncio
import os
from collections.abc import Mapping

from tablehall_sdk import Client
from tablehall_terminal.app import TableApp
from tablehall_terminal.i18n import pick_lang
from tablehall_terminal.plans import PlayPlan, WatchPlan, default_name

DEFAULT_PORT = "50051"


def default_server(env: Mapping[str, str]) -> str:
    """TABLEHALL_SERVER, else this machine at the port `tablehall up` serves on (TABLEHALL_PORT)."""
    return env.get("TABLEHALL_SERVER") or f"127.0.0.1:{env.get('TABLEHALL_PORT') or DEFAULT_PORT}"


def add_arguments(play: argparse.ArgumentParser, watch: argparse.ArgumentParser) -> None:
    for parser in (play, watch):
        parser.add_argument(
            "--server", default=default_server(os.environ), help="default: TABLEHALL_SERVER or 127.0.0.1:TABLEHALL_PORT"
        )
        parser.add_argument("--lang", choices=["ru", "en"], default=None, help="default: from the locale")
        parser.add_argument("--name", default=None, help="development sign-in name (default: yours + a suffix)")
    play.add_argument("game", choices=["puzzipolia"])
    play.add_argument("--bots", type=int, default=3, help="bot seats beside yours (1-7)")
    play.add_argument("--rounds", type=int, default=0, help="round limit (0: none)")
    play.add_argument("--clock", type=int, default=30, help="decision clock, s (20, 30, 45, 60, 90)")
    watch.add_argument("table", help="table id or tables/{id}")


async def _run(server: str, plan: PlayPlan | WatchPlan, lang: str) -> None:
    async with Client(server) as client:
        await TableApp(client, plan, lang).run_async()


def play_main(args: argparse.Namespace) -> int:
    if not 1 <= args.bots <= 7:
        raise SystemExit("--bots must be 1-7")
    options = {"round_limit": args.rounds, "decision_clock_s": args.clock}
    plan = PlayPlan(args.game, args.bots, args.name or default_name(), options)
    asyncio.run(_run(args.server, plan, pick_lang(args.lang, os.environ)))
    return 0


def watch_main(args: argparse.Namespace) -> int:
    plan = WatchPlan(args.table, args.name or default_name())
    asyncio.run(_run(args.server, plan, pick_lang(args.lang, os.environ)))
    return 0
