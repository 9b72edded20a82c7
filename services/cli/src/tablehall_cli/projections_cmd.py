"""`tablehall projections rebuild NAME`, `retry TABLE` and `status`."""

from __future__ import annotations

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from tablehall_eventstore import EventStore
from tablehall_platform.config import Settings
from tablehall_projection.models import NAMES
from tablehall_projection.service import projectors


async def rebuild(settings: Settings, name: str) -> int:
    from tablehall_cli.runtime import prepare

    servers = await prepare(settings)
    store = await EventStore.connect(servers.database_url, min_size=2, max_size=4)
    try:
        chosen = list(NAMES) if name == "all" else [name]
        found = projectors(store)
        total = int(await store.pool.fetchval("SELECT count(*) FROM events"))
        with Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("events"),
            TimeElapsedColumn(),
        ) as progress:
            for model in chosen:
                task = progress.add_task(f"rebuild {model}", total=total)

                def advance(n: int, task: TaskID = task) -> None:
                    progress.advance(task, n)

                applied = await found[model].rebuild(advance)
                progress.update(task, completed=applied, total=max(applied, 1))
        return 0
    finally:
        await store.close()
        servers.stop()


async def status(settings: Settings) -> int:
    from tablehall_cli.runtime import prepare

    servers = await prepare(settings)
    store = await EventStore.connect(servers.database_url, min_size=1, max_size=2)
    try:
        for name, projector in projectors(store).items():
            projector.position = await projector.checkpoint()
            lag = await projector.lag()
            print(f"{name}: position {projector.position}, {lag.events} events behind ({lag.seconds:.1f} s)")
            async with store.pool.acquire() as conn:
                for stream in sorted(await projector.quarantine.streams(conn)):
                    print(f"  quarantined: {stream} ({await projector.quarantine.reason(conn, stream)})")
        return 0
    finally:
        await store.close()
        servers.stop()


async def retry(settings: Settings, table: str) -> int:
    """Take a table out of quarantine in every read model: 0 when all applied it."""
    from tablehall_cli.runtime import prepare

    stream = "table-" + table.removeprefix("tables/")
    servers = await prepare(settings)
    store = await EventStore.connect(servers.database_url, min_size=1, max_size=2)
    failed = 0
    try:
        for name, projector in projectors(store).items():
            still = await projector.retry(stream)
            print(f"{name}: {stream} {'applied' if still is None else 'still in quarantine: ' + still}")
            failed += still is not None
        return 1 if failed else 0
    finally:
        await store.close()
        servers.stop()
