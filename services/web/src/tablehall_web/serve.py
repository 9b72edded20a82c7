"""Serving the web front: inside `tablehall up`, or alone (`tablehall web`) in front of a gRPC address."""

from __future__ import annotations

import asyncio
import signal

from aiohttp import web

from tablehall_web.app import make_app


async def start_web(grpc_address: str, host: str, port: int) -> tuple[web.AppRunner, int]:
    """The page on `host:port` (0: any free port), speaking to `grpc_address`; the runner and the bound port."""
    runner = web.AppRunner(make_app(grpc_address), handle_signals=False, access_log=None, shutdown_timeout=2.0)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    bound = runner.addresses[0][1] if runner.addresses else port
    return runner, int(bound)


async def serve_alone(grpc_address: str, host: str, port: int) -> None:
    """`tablehall web`: serve until SIGINT/SIGTERM (a deployment's own web pods)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    runner, bound = await start_web(grpc_address, host, port)
    print(f"Tablehall web at http://{host}:{bound}/ (gRPC at {grpc_address}).", flush=True)
    try:
        await stop.wait()
    finally:
        await runner.cleanup()
