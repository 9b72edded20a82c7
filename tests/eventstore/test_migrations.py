"""migrate: each file once, idempotent, safe under concurrent migrators, extra folders."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg
import pytest

from tablehall_eventstore import migrate
from tablehall_eventstore.migrations import migration_files


async def test_migrate_twice_is_a_noop(fresh_database_url: Callable[[], Awaitable[str]]) -> None:
    url = await fresh_database_url()
    assert await migrate(url) == [
        "0001_eventstore.sql",
        "0002_hash_scheme_2.sql",
        "0003_read_horizon_per_database.sql",
        "0004_read_horizon_fast_path.sql",
    ]
    assert await migrate(url) == []


async def test_concurrent_migrators_apply_each_file_once(
    fresh_database_url: Callable[[], Awaitable[str]], tmp_path: Path
) -> None:
    url = await fresh_database_url()
    (tmp_path / "0001_matches.sql").write_text("CREATE TABLE matches (id text PRIMARY KEY);")
    (tmp_path / "0002_seats.sql").write_text("ALTER TABLE matches ADD COLUMN seats int;")
    (tmp_path / "notes.txt").write_text("ignored")
    results = await asyncio.gather(*(migrate(url, [tmp_path]) for _ in range(4)))
    applied = [name for r in results for name in r]
    assert sorted(applied) == [
        "0001_eventstore.sql",
        "0001_matches.sql",
        "0002_hash_scheme_2.sql",
        "0002_seats.sql",
        "0003_read_horizon_per_database.sql",
        "0004_read_horizon_fast_path.sql",
    ]
    pool = await asyncpg.create_pool(url, min_size=1, max_size=2)
    try:
        assert await migrate(pool, [tmp_path]) == []
        rows = await pool.fetch("SELECT name FROM schema_migrations ORDER BY applied_at, name")
        assert sorted(r["name"] for r in rows) == [
            "0001_eventstore.sql",
            "0001_matches.sql",
            "0002_hash_scheme_2.sql",
            "0002_seats.sql",
            "0003_read_horizon_per_database.sql",
            "0004_read_horizon_fast_path.sql",
        ]
        await pool.execute("INSERT INTO matches (id, seats) VALUES ('m', 4)")
    finally:
        await pool.close()


async def test_failed_migration_is_not_recorded(
    fresh_database_url: Callable[[], Awaitable[str]], tmp_path: Path
) -> None:
    url = await fresh_database_url()
    (tmp_path / "0001_bad.sql").write_text("CREATE TABLE ok (id int); SELECT no_such_function();")
    with pytest.raises(asyncpg.PostgresError):
        await migrate(url, [tmp_path])
    (tmp_path / "0001_bad.sql").write_text("CREATE TABLE ok (id int);")
    assert await migrate(url, [tmp_path]) == ["0001_bad.sql"]


def test_same_name_in_two_folders_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "0001_eventstore.sql").write_text("SELECT 1;")
    with pytest.raises(ValueError, match="both"):
        migration_files([tmp_path])
