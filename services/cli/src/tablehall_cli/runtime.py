"""Running services in this process: `tablehall up` and `tablehall serve`."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import signal
import sys

import structlog

from tablehall_eventstore import EventStore, Publisher, migrate
from tablehall_match import service as match_service
from tablehall_platform import metrics
from tablehall_platform.auth import Authenticator, ServiceProvider, providers_from_settings
from tablehall_platform.config import Settings
from tablehall_platform.grpcserver import build_server
from tablehall_platform.infra import Servers, find_servers

log = structlog.get_logger("tablehall")

SERVICES = ("match",)


async def prepare(settings: Settings) -> Servers:
    """Find the servers and bring the database schema up to date."""
    servers = await find_servers(settings.data_dir, settings.db_name, settings.database_url, settings.nats_url)
    await migrate(servers.database_url, extra=[match_service.MIGRATIONS])
    return servers


def service_tokens(settings: Settings) -> ServiceProvider:
    return ServiceProvider.from_data_dir(settings.data_dir, settings.service_secret)


def authenticator(settings: Settings) -> Authenticator:
    users = providers_from_settings(
        settings.auth_providers,
        settings.data_dir,
        settings.token_secret,
        settings.oidc_issuer,
        settings.oidc_jwks_url,
        settings.oidc_audience,
    )
    return Authenticator([*users, service_tokens(settings)])


async def run(settings: Settings, services: tuple[str, ...], port: int, banner: bool = True) -> None:
    """Serve `services` on one port until SIGINT/SIGTERM, then stop cleanly."""
    unknown = set(services) - set(SERVICES)
    if unknown:
        raise SystemExit(f"unknown service(s) {sorted(unknown)}; known: {', '.join(SERVICES)}")
    servers = await prepare(settings)
    address = f"{settings.host}:{port}"
    advertise = settings.advertise_address or address
    if not settings.instance_id:
        settings = dataclasses.replace(settings, instance_id=advertise)
    store = await EventStore.connect(servers.database_url)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    match = match_service.build(store, settings, advertise)
    server, bound, health = build_server(authenticator(settings), [match.register()], address)
    publisher = Publisher(store, servers.nats_url, name="default")
    publisher_task = asyncio.create_task(publisher.run(stop))
    try:
        await server.start()
        match.start_background()
        metrics.serve_metrics(settings.metrics_port, settings.metrics_host)
        log.info("serving", address=f"{settings.host}:{bound}", services=list(services), **servers.how)
        if banner:
            print(
                f"Tablehall is up: gRPC at {settings.host}:{bound} (services: {', '.join(services)};"
                f" reflection on), metrics at http://127.0.0.1:{settings.metrics_port}/metrics.\n"
                f"PostgreSQL: {servers.how['postgres']}; NATS: {servers.how['nats']}.\n"
                "Get a token with `tablehall token NAME`. Ctrl-C stops everything.",
                file=sys.stderr,
                flush=True,
            )
        await stop.wait()
    finally:
        log.info("stopping")
        stop.set()
        await health.enter_graceful_shutdown()
        await server.stop(grace=5)
        await match.close()
        with contextlib.suppress(Exception):
            await publisher_task
        await store.close()
        servers.stop()
        log.info("stopped")
