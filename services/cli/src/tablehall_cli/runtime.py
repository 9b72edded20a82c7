"""Running services in this process: `tablehall up` and `tablehall serve`."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import importlib
import os
import signal
import sys

import structlog

from tablehall_cli.ports import require_free
from tablehall_eventstore import AppendHints, EventStore, migrate
from tablehall_platform import metrics
from tablehall_platform.auth import Authenticator, ServiceProvider, providers_from_settings
from tablehall_platform.component import Component, RuntimeContext
from tablehall_platform.config import Settings
from tablehall_platform.grpcserver import build_server
from tablehall_platform.infra import Servers, find_servers

log = structlog.get_logger("tablehall")

# service name -> module exposing `async def component(ctx) -> Component`;
# `tablehall up` starts them all in this order.
SERVICES: dict[str, str] = {
    "match": "tablehall_match.service",
    "lobby": "tablehall_lobby.service",
    "publisher": "tablehall_cli.publisher",
    "projection": "tablehall_projection.service",
    "timer": "tablehall_timer.service",
    "bot": "tablehall_bot.service",
}


# the collector's thresholds of a server (gc.set_threshold): the young generation every 50,000
# allocations instead of 700, the middle one every 20 young collections, the full one every 20 middle
GC_THRESHOLDS = (50_000, 20, 20)


def gc_thresholds() -> tuple[int, int, int]:
    """`TABLEHALL_GC_THRESHOLDS` ("young,middle,full", as gc.set_threshold takes them), else GC_THRESHOLDS."""
    text = os.environ.get("TABLEHALL_GC_THRESHOLDS", "")
    if not text:
        return GC_THRESHOLDS
    parts = text.split(",")
    if len(parts) != 3 or not all(p.strip().isdigit() and int(p) > 0 for p in parts):
        raise ValueError(f"TABLEHALL_GC_THRESHOLDS must be three positive integers like 50000,20,20, got {text!r}")
    young, middle, full = (int(p) for p in parts)
    return young, middle, full


def tune_gc() -> None:
    """Fewer, later garbage collections for a long-running server.

    Everything loaded at start-up (modules, protos, game data) is frozen out
    of the collector, and the generations are collected at `gc_thresholds()`:
    collection pauses were the tail of the command latency.
    `TABLEHALL_GC_TUNING=0` leaves Python's defaults.
    """
    if os.environ.get("TABLEHALL_GC_TUNING", "1") == "1":
        thresholds = gc_thresholds()
        gc.collect()
        gc.freeze()
        gc.set_threshold(*thresholds)
    metrics.time_collections()


def migration_folders() -> list[object]:
    """Every service's own migrations (after the event store's)."""
    folders = []
    for module_name in SERVICES.values():
        module = importlib.import_module(module_name)
        if hasattr(module, "MIGRATIONS"):
            folders.append(module.MIGRATIONS)
    return folders


async def prepare(settings: Settings) -> Servers:
    """Find the servers and bring the database schema up to date."""
    servers = await find_servers(settings.data_dir, settings.db_name, settings.database_url, settings.nats_url)
    await migrate(servers.database_url, extra=migration_folders())  # type: ignore[arg-type]
    return servers


def service_tokens(settings: Settings) -> ServiceProvider:
    return ServiceProvider.from_secrets_dir(settings.secrets_dir, settings.service_secret)


def authenticator(settings: Settings) -> Authenticator:
    users = providers_from_settings(
        settings.auth_providers,
        settings.secrets_dir,
        settings.token_secret,
        settings.oidc_issuer,
        settings.oidc_jwks_url,
        settings.oidc_audience,
    )
    return Authenticator([*users, service_tokens(settings)], operators=settings.operators)


async def run(
    settings: Settings,
    services: tuple[str, ...],
    port: int,
    banner: bool = True,
    port_setting: str = "TABLEHALL_PORT",
    web_port: int = 0,
) -> None:
    """Serve `services` on one port until SIGINT/SIGTERM, then stop cleanly; with `web_port`,
    the web page too (`tablehall up`), a client of those services like any other.

    A taken port raises `PortInUse` (naming `port_setting`) before any server is started.
    """
    unknown = set(services) - set(SERVICES)
    if unknown:
        raise SystemExit(f"unknown service(s) {sorted(unknown)}; known: {', '.join(SERVICES)}")
    require_free(settings.host, port, "the gRPC", f"{port_setting} (or --port)")
    require_free(settings.metrics_host, settings.metrics_port, "the metrics", "TABLEHALL_METRICS_PORT (0: off)")
    require_free(settings.host, web_port, "the web", "TABLEHALL_WEB_PORT (0: off)")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    servers = await prepare(settings)
    try:
        await _serve(settings, services, port, banner, servers, stop, web_port)
    finally:
        servers.stop()
        log.info("stopped")


async def _serve(
    settings: Settings,
    services: tuple[str, ...],
    port: int,
    banner: bool,
    servers: Servers,
    stop: asyncio.Event,
    web_port: int = 0,
) -> None:
    address = f"{settings.host}:{port}"
    advertise = settings.advertise_address or address
    if not settings.instance_id:
        settings = dataclasses.replace(settings, instance_id=advertise)
    store = await EventStore.connect(servers.database_url)
    ctx = RuntimeContext(settings, servers.database_url, servers.nats_url, advertise, store, service_tokens(settings))
    components: list[Component] = []
    web_runner = None
    try:
        for name in services:
            module = importlib.import_module(SERVICES[name])
            components.append(await module.component(ctx))
        registrations = [fn for c in components for fn in c.register]
        tune_gc()
        open_methods = [m for c in components for m in c.extras.get("open_methods", ())]
        server, bound, health = build_server(authenticator(settings), registrations, address, open_methods)
    except BaseException:
        await _close(components, store)
        raise
    # a process of some services tells the others of its appends; the publisher and the projection
    # hear of theirs (what they follow reaches the watchers; the timer's clocks can wait a poll)
    hints = (
        AppendHints(store, servers.nats_url, listen=bool({"publisher", "projection"} & set(services)))
        if set(services) != set(SERVICES)
        else None
    )
    try:
        await server.start()
        if hints is not None:
            await hints.start()
        for component in components:
            if component.start is not None:
                await component.start()
        metrics.serve_metrics(settings.metrics_port, settings.metrics_host)
        if web_port:
            from tablehall_web.serve import start_web

            web_runner, web_bound = await start_web(f"{settings.host}:{bound}", settings.host, web_port)
        log.info("serving", address=f"{settings.host}:{bound}", services=list(services), **servers.how)
        if banner:
            metrics_line = (
                f"metrics at http://{settings.metrics_host}:{settings.metrics_port}/metrics"
                if settings.metrics_port
                else "metrics off"
            )
            print(
                f"Tablehall is up: gRPC at {settings.host}:{bound} (services: {', '.join(services)};"
                f" reflection on), {metrics_line}.\n"
                f"PostgreSQL: {servers.how['postgres']}; NATS: {servers.how['nats']}.\n"
                "Get a token with `tablehall token NAME`. Ctrl-C stops everything.",
                file=sys.stderr,
                flush=True,
            )
            if web_runner is not None:
                print(f"Web page: http://{settings.host}:{web_bound}/", file=sys.stderr, flush=True)
            for line in (c.extras["banner"]() for c in components if "banner" in c.extras):
                if line:
                    print(line, file=sys.stderr, flush=True)
        await stop.wait()
    finally:
        log.info("stopping")
        stop.set()
        if web_runner is not None:
            await web_runner.cleanup()
        await health.enter_graceful_shutdown()
        for component in components:
            if component.drain is not None:
                with contextlib.suppress(Exception):
                    await component.drain()
        await server.stop(grace=5)
        if hints is not None:
            await hints.close()
        await _close(components, store)


async def _close(components: list[Component], store: EventStore) -> None:
    for component in reversed(components):
        if component.close is not None:
            with contextlib.suppress(Exception):
                await component.close()
    await store.close()
