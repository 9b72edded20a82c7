"""The fresh-machine path: embedded PostgreSQL and NATS from pip wheels."""

from __future__ import annotations

from pathlib import Path

import asyncpg
import nats
import pytest

from tablehall_platform.infra import find_servers


async def test_embedded_servers_start_and_serve(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABLEHALL_EMBEDDED", "1")
    servers = await find_servers(tmp_path, "tablehall", allow_docker=True)
    try:
        assert servers.how == {
            "postgres": f"embedded in {tmp_path / 'postgres'}",
            "nats": f"embedded in {tmp_path / 'nats'}",
        }
        conn = await asyncpg.connect(servers.database_url)
        assert await conn.fetchval("SELECT current_database()") == "tablehall"
        await conn.close()
        client = await nats.connect(servers.nats_url)
        info = await client.jetstream().account_info()
        assert info.streams == 0
        await client.close()
    finally:
        servers.stop()


async def test_given_addresses_win(database_url: str, nats_url: str, tmp_path: Path) -> None:
    servers = await find_servers(tmp_path, "unused", database_url=database_url, nats_url=nats_url)
    assert servers.how == {"postgres": "given", "nats": "given"}
    assert servers.database_url == database_url and servers.nats_url == nats_url
