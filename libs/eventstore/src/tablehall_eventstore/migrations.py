"""Numbered SQL migrations (NNNN_name.sql), each applied once, safe to run concurrently."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import asyncpg

from ._db import Conn, Pool

PACKAGE_MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_NAME = re.compile(r"^\d{4}_[A-Za-z0-9_.-]+\.sql$")
# Any fixed key: every migrator of every component serialises on it.
_LOCK_KEY = 7310400


def migration_files(extra: Sequence[Path] = ()) -> list[Path]:
    """The package's files (sorted), then each extra folder's (sorted), in that order.

    Folders are components applied in dependency order; a file name is the
    migration's identity, so the same name in two folders is an error.
    """
    files: list[Path] = []
    seen: dict[str, Path] = {}
    for folder in (PACKAGE_MIGRATIONS, *extra):
        for path in sorted(Path(folder).iterdir()):
            if not _NAME.match(path.name):
                continue
            if path.name in seen:
                raise ValueError(f"migration {path.name} exists in both {seen[path.name]} and {path}")
            seen[path.name] = path
            files.append(path)
    return files


async def _migrate(conn: Conn, files: list[Path]) -> list[str]:
    applied: list[str] = []
    # Session lock, not a transaction lock: each file commits on its own (so a
    # file may hold statements that cannot share a transaction with others).
    await conn.execute("SELECT pg_advisory_lock($1)", _LOCK_KEY)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {r["name"] for r in await conn.fetch("SELECT name FROM schema_migrations")}
        for path in files:
            if path.name in done:
                continue
            async with conn.transaction():
                await conn.execute(path.read_text(encoding="utf-8"))
                await conn.execute("INSERT INTO schema_migrations (name) VALUES ($1)", path.name)
            applied.append(path.name)
    finally:
        await conn.execute("SELECT pg_advisory_unlock($1)", _LOCK_KEY)
    return applied


async def migrate(dsn_or_pool: str | Pool, extra: Sequence[Path] = ()) -> list[str]:
    """Apply pending migrations; returns the names applied (empty when up to date)."""
    files = migration_files(extra)
    if isinstance(dsn_or_pool, str):
        conn = await asyncpg.connect(dsn_or_pool)
        try:
            return await _migrate(conn, files)
        finally:
            await conn.close()
    async with dsn_or_pool.acquire() as pooled:
        return await _migrate(pooled, files)
