"""`tablehall`: the one command-line entry point."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Coroutine, Sequence
from typing import Any

from tablehall_cli.runtime import SERVICES
from tablehall_platform.config import Settings
from tablehall_platform.logs import configure_logging
from tablehall_projection.models import NAMES as PROJECTION_NAMES


def _uvloop_run(coro: object) -> None:
    try:
        import uvloop

        uvloop.run(coro)  # type: ignore[arg-type]
    except ImportError:
        asyncio.run(coro)  # type: ignore[arg-type]


def cmd_up(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_cli.runtime import SERVICES, run

    os.environ.setdefault("TABLEHALL_BOT_DEMO", "0" if args.no_demo else "1")

    return _serving(run(settings, tuple(SERVICES), args.port or settings.port, web_port=settings.web_port))


def cmd_serve(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_cli.runtime import run

    port = args.port or settings.service_port(args.service)
    return _serving(run(settings, (args.service,), port, port_setting=f"TABLEHALL_{args.service.upper()}_PORT"))


def _serving(coro: Coroutine[Any, Any, None]) -> int:
    """Run a server until it stops; a taken port is one line on stderr and exit status 1."""
    from tablehall_cli.ports import PortInUse

    try:
        _uvloop_run(coro)
    except PortInUse as exc:
        print(f"tablehall: {exc}", file=sys.stderr)
        return 1
    return 0


def cmd_web(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_web.serve import serve_alone

    asyncio.run(serve_alone(args.upstream, args.host or settings.host, args.port or settings.web_port))
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

    provider = DevProvider.from_secrets_dir(settings.secrets_dir, settings.token_secret)
    print(provider.issue(args.user, args.name, roles=args.roles.split(",")))
    return 0


def cmd_signing_key(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_cli.verify_cmd import print_signing_key

    return print_signing_key(settings)


def cmd_verify(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import Path

    from tablehall_cli.verify_cmd import verify_file, verify_table

    if bool(args.file) == bool(args.table):
        print("name a TABLE or give --file FILE", file=sys.stderr)
        return 2
    if args.file:
        return verify_file(Path(args.file), Path(args.key) if args.key else None)
    return asyncio.run(verify_table(settings, args.table))


def cmd_trust_key(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import Path

    from tablehall_cli.verify_cmd import trust_key

    if bool(args.key) == bool(args.server):
        print("give the server's public key as --key KEY.pem or fetch it with --server ADDRESS", file=sys.stderr)
        return 2
    token = args.token or os.environ.get("TABLEHALL_TOKEN")
    return trust_key(Path(args.key) if args.key else None, args.server, token, args.replace)


def cmd_replay(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_cli.verify_cmd import replay_table

    return asyncio.run(replay_table(settings, args.table, args.seat, args.version))


def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    from pathlib import Path

    from tablehall_cli.verify_cmd import export_table

    return asyncio.run(export_table(settings, args.table, Path(args.out)))


def cmd_projections(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_cli import projections_cmd

    if args.action == "rebuild":
        return asyncio.run(projections_cmd.rebuild(settings, args.name))
    if args.action == "retry":
        return asyncio.run(projections_cmd.retry(settings, args.table))
    return asyncio.run(projections_cmd.status(settings))


def cmd_reasons(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_cli.reasons import main as reasons_main

    return reasons_main(args.check)


def cmd_protos(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_cli.protos import main as protos_main

    return protos_main(args.out)


def cmd_play(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_terminal.cli import play_main

    return play_main(args)


def cmd_watch(args: argparse.Namespace, settings: Settings) -> int:
    from tablehall_terminal.cli import watch_main

    return watch_main(args)


def settings_port() -> str:
    return os.environ.get("TABLEHALL_PORT", "50051")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="tablehall", description="Tablehall: event-sourced table games server.")
    sub = parser.add_subparsers(dest="command", required=True)
    up = sub.add_parser("up", help="everything in one process, all gRPC services on one port")
    up.add_argument("--port", type=int, default=0, help="gRPC port (default TABLEHALL_PORT or 50051)")
    up.add_argument("--no-demo", action="store_true", help="do not open the demo table of four bots")
    up.set_defaults(func=cmd_up)
    serve = sub.add_parser("serve", help="one service on its own port")
    serve.add_argument("service", choices=sorted(SERVICES))
    serve.add_argument("--port", type=int, default=0)
    serve.set_defaults(func=cmd_serve)
    web = sub.add_parser("web", help="the web page alone, in front of a gRPC address (a deployment's web pods)")
    web.add_argument("--upstream", default=f"127.0.0.1:{settings_port()}", help="the gRPC address it speaks to")
    web.add_argument("--host", default="", help="address to listen on (default TABLEHALL_HOST)")
    web.add_argument("--port", type=int, default=0, help="port (default TABLEHALL_WEB_PORT or 8080)")
    web.set_defaults(func=cmd_web)
    mig = sub.add_parser("migrate", help="create or update the database schema")
    mig.set_defaults(func=cmd_migrate)
    token = sub.add_parser("token", help="issue a development token (dev identity provider)")
    token.add_argument("user")
    token.add_argument("--name", default=None)
    token.add_argument("--roles", default="player", help="comma list: player,bot,operator,service")
    token.set_defaults(func=cmd_token)
    verify = sub.add_parser(
        "verify", help="check a finished table: hash chain, seed, every draw, every command re-decided"
    )
    verify.add_argument("table", nargs="?", help="table id or tables/{id}")
    verify.add_argument("--file", help="an export file (no database needed)")
    verify.add_argument(
        "--key",
        help="with --file: the server's public key (PEM) the file must be signed with (default: the pinned key)",
    )
    verify.set_defaults(func=cmd_verify)
    trust = sub.add_parser("trust-key", help="pin the server's export key once: verify --file then requires it")
    trust.add_argument("--key", help="the server's public key (PEM), as `tablehall signing-key` prints it")
    trust.add_argument("--server", help="fetch it from this server's GetSigningKey (host:port)")
    trust.add_argument("--token", help="with --server: a bearer token (default TABLEHALL_TOKEN)")
    trust.add_argument("--replace", action="store_true", help="trust this key instead of the one pinned")
    trust.set_defaults(func=cmd_trust_key)
    signing = sub.add_parser("signing-key", help="print the public key that signs this server's export files")
    signing.set_defaults(func=cmd_signing_key)
    replay = sub.add_parser("replay", help="a finished table's events with the state after each")
    replay.add_argument("table", help="table id or tables/{id}")
    replay.add_argument("--seat", type=int, default=None, help="print this seat's view at --version instead")
    replay.add_argument("--version", type=int, default=None)
    replay.set_defaults(func=cmd_replay)
    export = sub.add_parser("export", help="write a finished table to one self-contained file")
    export.add_argument("table", help="table id or tables/{id}")
    export.add_argument("--out", required=True, help="the file to write")
    export.set_defaults(func=cmd_export)
    proj = sub.add_parser("projections", help="the projection service's read models")
    proj_sub = proj.add_subparsers(dest="action", required=True)
    rebuild = proj_sub.add_parser("rebuild", help="drop a read model and rebuild it from position 0")
    rebuild.add_argument("name", choices=[*PROJECTION_NAMES, "all"])
    proj_sub.add_parser("status", help="each read model's checkpoint, lag and quarantined tables")
    retry = proj_sub.add_parser("retry", help="rebuild a quarantined table's rows in every read model")
    retry.add_argument("table", help="table id or tables/{id}")
    proj.set_defaults(func=cmd_projections)
    protos = sub.add_parser("protos", help="every .proto a client needs (ours and google/rpc) in one folder")
    protos.add_argument("--out", default="build/proto", help="the folder (default build/proto)")
    protos.set_defaults(func=cmd_protos)
    reasons = sub.add_parser("reasons", help="every refusal reason with its status and texts, from the code (markdown)")
    reasons.add_argument("--check", metavar="FILE", help="exit 1 when FILE differs from the output")
    reasons.set_defaults(func=cmd_reasons)
    from tablehall_terminal.cli import add_arguments as add_terminal_arguments

    play = sub.add_parser("play", help="play a game in the terminal against bots (development sign-in)")
    watch = sub.add_parser("watch", help="watch a table live in the terminal as a spectator")
    add_terminal_arguments(play, watch)
    play.set_defaults(func=cmd_play)
    watch.set_defaults(func=cmd_watch)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    settings = Settings()
    configure_logging(settings.log_level)
    try:
        result: int = args.func(args, settings)
    except KeyboardInterrupt:  # Ctrl-C before a command's own handler is in place
        return 130
    return result


if __name__ == "__main__":
    sys.exit(main())
