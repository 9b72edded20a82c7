"""Driving the event publisher in tests."""

from __future__ import annotations

import asyncio

from tablehall_eventstore import Publisher


async def publish_until(publisher: Publisher, count: int) -> int:
    """Publish until `count` events went out (reads stop at the cluster's oldest open transaction)."""
    sent = 0
    for _ in range(400):
        sent += await publisher.publish_pending()
        if sent >= count:
            break
        await asyncio.sleep(0.05)
    return sent
