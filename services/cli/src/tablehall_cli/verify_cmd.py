"""`tablehall verify TABLE`: recompute every random draw of a finished table."""

from __future__ import annotations

from tablehall_eventstore import EventStore
from tablehall_match.audit import verify_draws_in_stream
from tablehall_match.stream_events import stream_id
from tablehall_platform.config import Settings
from tablehall_platform.infra import find_servers


async def verify_table(settings: Settings, table: str) -> int:
    table_id = table.removeprefix("tables/")
    servers = await find_servers(settings.data_dir, settings.db_name, settings.database_url, settings.nats_url)
    store = await EventStore.connect(servers.database_url, min_size=1, max_size=2)
    try:
        events = await store.read_stream(stream_id(table_id))
    finally:
        await store.close()
        servers.stop()
    if not events:
        print(f"tables/{table_id}: no such table")
        return 2
    verdict = verify_draws_in_stream(events)
    where = f" at version {verdict.version}" if verdict.version is not None else ""
    print(f"tables/{table_id}: {verdict.message}{where} ({verdict.draws_checked} draws checked, {len(events)} events)")
    return 0 if verdict.ok else 1
