"""`verify`, `replay`, `export` (from the database) and `watch` (from the lobby's listing) take
the start of a table id when exactly one table's id begins so; the screen shows ids whole."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tablehall_cli.verify_cmd import resolve_table
from tablehall_eventstore import EventStore, NewEvent, migrate
from tablehall_sdk import Page, Table
from tablehall_terminal.plans import resolve_table as resolve_listed


async def test_the_unique_start_of_a_table_id_names_the_table(fresh_database_url: Callable[[], Awaitable[str]]) -> None:
    url = await fresh_database_url()
    await migrate(url)
    store = await EventStore.connect(url, min_size=1, max_size=2)
    try:
        for table in ("t1a2b3c4d5e6f708", "t1a2ffffffffffff", "t9e8d7c6b5a49382"):
            await store.append(f"table-{table}", 0, [NewEvent("lobby.TableCreated", 1, b"{}", {})])
        assert await resolve_table(store, "t9e8d7") == "t9e8d7c6b5a49382"
        assert await resolve_table(store, "tables/t1a2b3") == "t1a2b3c4d5e6f708"
        assert await resolve_table(store, "t1a2ffffffffffff") == "t1a2ffffffffffff"
        assert await resolve_table(store, "t0000") == "t0000"  # nothing starts so: "no such table" follows
        with pytest.raises(SystemExit, match="more than one table starts so"):
            await resolve_table(store, "t1a2")
    finally:
        await store.close()


class _Listing:
    def __init__(self, names: list[str]) -> None:
        self.names = names

    async def list_tables(self, game: str = "", **_: object) -> Page:
        tables = tuple(Table(n, "puzzipolia", "PLAYING", {}, "h", (), False, 1) for n in self.names)
        return Page(tables, "")


async def test_watch_takes_the_unique_start_of_a_listed_table() -> None:
    listing = _Listing(["tables/t1a2b3c4d5e6f708", "tables/t1a2ffffffffffff", "tables/t9e8d7c6b5a49382"])
    assert await resolve_listed(listing, "t9e8") == "tables/t9e8d7c6b5a49382"  # type: ignore[arg-type]
    assert await resolve_listed(listing, "t1a2") == "tables/t1a2"  # type: ignore[arg-type]  # two: as given
    assert await resolve_listed(listing, "tables/t1a2b") == "tables/t1a2b3c4d5e6f708"  # type: ignore[arg-type]
