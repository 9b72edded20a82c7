"""The event publisher as a runnable component (`tablehall serve publisher`).

It tails the events table and publishes each event to NATS JetStream
(Postgres stays the source of truth). `tablehall up` runs it beside the
services; in a deployment run one per cluster (it keeps one checkpoint).
"""

from __future__ import annotations

import asyncio

from tablehall_eventstore import Publisher
from tablehall_platform.component import Component, RuntimeContext


async def component(ctx: RuntimeContext) -> Component:
    publisher = Publisher(ctx.store, ctx.nats_url, name="default")
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []

    async def start() -> None:
        tasks.append(asyncio.create_task(publisher.run(stop)))

    async def close() -> None:
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    return Component("publisher", [], start=start, close=close)
