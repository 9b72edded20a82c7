"""One viewer's live watch of a table: a snapshot (or the versions missed
since `from_version`) and then every change, frame by frame: a change per
version, or (`per_command`) per command, at the version of its last event with
the journal lines of all of them."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from tablehall_platform.auth import Principal
from tablehall_platform.errors import BadRequest
from tablehall_projection import access, metrics
from tablehall_projection.live.feed import Cursor, Feed, Reader
from tablehall_projection.live.frames import Frame
from tablehall_projection.live.hub import Hub
from tablehall_stream.events import table_option


@dataclass(frozen=True)
class Update:
    kind: str  # "snapshot" | "change"
    frame: Frame


def _target(feed: Feed, role: access.Role) -> int:
    head = feed.head
    delay = table_option(head.started, "spectator_delay") if head.started is not None else 0
    return access.visible_version(role, head.version, delay, head.ended is not None)


async def watch(
    hub: Hub, principal: Principal, table_id: str, requested: str, from_version: int, per_command: bool = False
) -> AsyncIterator[Update]:
    if from_version < 0:
        raise BadRequest(
            "INVALID_FROM_VERSION", "from_version must be 0 or more.", ru="from_version не может быть < 0."
        )
    feed = await hub.acquire(table_id)
    try:
        head = feed.head
        seats = head.started.seats if head.started is not None else []
        facts = await access.facts(hub.store, table_id)
        role = access.resolve(principal, seats, requested, head.ended is not None, facts)
        if from_version > feed.version:
            raise BadRequest(
                "FROM_VERSION_AHEAD",
                f"The table is at version {feed.version}, before {from_version}.",
                ru=f"Стол на версии {feed.version}, раньше {from_version}.",
            )
        reader = feed.register(role, per_command)
        metrics.WATCHERS.inc()
        try:
            async for update in _follow(feed, reader, from_version):
                yield update
        finally:
            metrics.WATCHERS.dec()
            feed.unregister(reader)
    finally:
        hub.release(feed)


async def _follow(feed: Feed, reader: Reader, from_version: int) -> AsyncIterator[Update]:
    role = reader.role
    joined = reader.joined  # versions up to here were folded before we registered
    cursor = Cursor(feed, role)
    sent = from_version
    if from_version == 0:
        target = _target(feed, role)
        frame = feed.snapshot(role) if target == feed.version else cursor.frame_at(target, journal=False)
        yield Update("snapshot", frame)
        sent = target
    while True:
        seen = feed.version
        while (version := _next_change(feed, reader, sent, _target(feed, role))) is not None:
            shared = feed.take(reader, version) if version > joined else None
            if shared is None or shared.since != sent:  # not kept, or it starts before what we sent
                shared = cursor.frame_at(version, since=sent)
            elif shared.decided_at is not None:
                metrics.FRAME_HANDED.observe(max(0.0, time.time() - shared.decided_at))
            yield Update("change", shared)
            sent = version
            seen = feed.version
        await feed.wait_beyond(seen)


def _next_change(feed: Feed, reader: Reader, sent: int, target: int) -> int | None:
    """The version of the reader's next change after `sent`, up to `target`; None when it has
    not come yet (a whole-command reader waits out a command whose last event is still to come)."""
    if sent >= target:
        return None
    if not reader.per_command:
        return sent + 1
    for version in range(sent + 1, target + 1):
        if feed.closes_change(version):
            return version
    return None
