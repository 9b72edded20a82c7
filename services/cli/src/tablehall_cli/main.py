"""`tablehall`: the one command-line entry point."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from tablehall_cli.runtime import SERVICES
from tablehall_platform.config import Settings
from tablehall_platform.logs import configure_logging


def _uvloop_run(coro: object) -> None:
    try:
        import uvloop

        uvloop.run(coro)  # type: ignore[arg-type]
    except ImportError:
        asyncio.run(coro)  # type: ignore[arg-type]


def cmd_up(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_cli.runtime import SERVICES, run

    _uvloop_run(run(settings, tuple(SERVICES), args.port or settings.port))
    return 0


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_cli.runtime import run

    _uvloop_run(run(settings, (args.service,), args.port or settings.service_port(args.service)))
    return 0


def cmd_migrate(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_cli.runtime import prepare

    async def go() -> None:
        servers = await prepare(settings)
        print(f"migrated {servers.database_url.split('@')[-1]}")
        servers.stop()

    asyncio.run(go())
    return 0


def cmd_token(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_platform.auth import DevProvider

    provider = DevProvider.from_data_dir(settings.data_dir, settings.token_secret)
    print(provider.issue(args.user, args.name, roles=args.roles.split(",")))
    return 0


def cmd_verify(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_cli.verify_cmd import verify_table

    return asyncio.run(verify_table(settings, args.table))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tablehall", description="Tablehall: event-sourced table games server.")
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("up", help="everything in one process, all gRPC services on one port")
    up.add_argument("--port", type=int, default=0, help="gRPC port (default TABLEHALL_PORT or 50051)")
    up.set_defaults(func=cmd_up)
    serve = sub.add_parser("serve", help="one service on its own port")
    serve.add_argument("service", choices=sorted(SERVICES))
    serve.add_argument("--port", type=int, default=0)
    serve.set_defaults(func=cmd_serve)
    mig = sub.add_parser("migrate", help="create or update the database schema")
    mig.set_defaults(func=cmd_migrate)
    token = sub.add_parser("token", help="issue a development token (dev identity provider)")
    token.add_argument("user")
    token.add_argument("--name", default=None)
    token.add_argument("--roles", default="player", help="comma list: player,bot,operator,service")
    token.set_defaults(func=cmd_token)
    verify = sub.add_parser("verify", help="recompute every random draw of a finished table")
    verify.add_argument("table", help="table id or tables/{id}")
    verify.set_defaults(func=cmd_verify)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = Settings()
    configure_logging(settings.log_level)
    result: int = args.func(args, settings)
    return result


if __name__ == "__main__":
    sys.exit(main())
