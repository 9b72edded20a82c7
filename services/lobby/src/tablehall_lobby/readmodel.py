"""The lobby's read model in PostgreSQL: one row per table.

The row holds the table's lobby state folded to a stream version. It is
written right after each lobby append and only moves forward (`WHERE
version < excluded.version`), so replays and races never set it back. The
listing reads it; commands load the state from it and replay only newer
events from the stream.
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

from tablehall_lobby import events as ev
from tablehall_lobby.state import LobbyTable, decode, encode
from tablehall_platform.errors import BadRequest
from tablehall_platform.input_policy import INT64_MAX, token_int
from tablehall_platform.names import TABLE_NAME

# a row this far behind its stream is brought up to it although nothing it shows changed
CATCH_UP_AFTER = 500

_UPSERT = """
INSERT INTO lobby_tables (table_id, game, status, private, spectators_allowed, seat_count, seats_taken,
                          host_user_id, created_at_ms, version, state)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::jsonb)
ON CONFLICT (table_id) DO UPDATE SET
    status = excluded.status, private = excluded.private, spectators_allowed = excluded.spectators_allowed,
    seat_count = excluded.seat_count, seats_taken = excluded.seats_taken, version = excluded.version,
    state = excluded.state, updated_at = now()
WHERE lobby_tables.version < excluded.version
"""


@dataclass(frozen=True)
class Page:
    tables: list[LobbyTable]
    next_token: str


def _token(created_at_ms: int, table_id: str) -> str:
    return base64.urlsafe_b64encode(f"{created_at_ms}:{table_id}".encode()).decode()


def _untoken(token: str) -> tuple[int, str]:
    try:
        created, table_id = base64.urlsafe_b64decode(token.encode()).decode().split(":", 1)
        if not TABLE_NAME.fullmatch(f"tables/{table_id}"):
            raise ValueError("not a table id")
        return token_int(created, high=INT64_MAX), table_id
    except (ValueError, UnicodeDecodeError) as exc:
        raise BadRequest("INVALID_PAGE_TOKEN", "page_token is not one we gave.", ru="Неверный page_token.") from exc


class ReadModel:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def save(self, table: LobbyTable) -> None:
        await self.pool.execute(
            _UPSERT,
            table.table_id,
            table.game,
            table.status,
            table.private,
            table.spectators_allowed,
            len(table.seats),
            table.seats_taken(),
            table.host_user_id,
            table.created_at_ms,
            table.version,
            encode(table).decode(),
        )

    async def get(self, table_id: str) -> LobbyTable | None:
        data = await self.pool.fetchval("SELECT state::text FROM lobby_tables WHERE table_id = $1", table_id)
        return None if data is None else decode(data)

    async def page(self, statuses: Sequence[str], game: str, size: int, token: str) -> Page:
        after_created, after_id = _untoken(token) if token else (2**62, "")
        rows = await self.pool.fetch(
            """SELECT state::text FROM lobby_tables
               WHERE status = ANY($1::text[]) AND ($2 = '' OR game = $2)
                 AND (created_at_ms, table_id) < ($3, $4)
               ORDER BY created_at_ms DESC, table_id DESC LIMIT $5""",
            list(statuses),
            game,
            after_created,
            after_id if token else "\uffff",
            size + 1,
        )
        tables = [decode(r[0]) for r in rows[:size]]
        more = len(rows) > size
        return Page(tables, _token(tables[-1].created_at_ms, tables[-1].table_id) if more else "")

    async def behind(self) -> list[str]:
        """Tables whose match runs and whose stream has moved past the row in a way the row
        shows: a starting table that moved (the match started), a table whose match has ended
        (`match.Ended` is a stream's last event from the match), a lobby event the row has not
        folded, or a row `CATCH_UP_AFTER` versions behind (so a later load reads a bounded
        stretch). Game events alone change nothing of the row but its version: a table that only
        played on is not loaded (at 5,000 tables every moving table was, three queries each).
        One query for all (the event store's `streams` and the streams' last events)."""
        rows = await self.pool.fetch(
            """SELECT t.table_id FROM lobby_tables t
                JOIN streams s ON s.stream_id = 'table-' || t.table_id
                JOIN events e ON e.stream_id = s.stream_id AND e.version = s.version
                WHERE t.status IN ('starting', 'playing') AND s.version > t.version
                  AND (t.status = 'starting' OR e.type = $1 OR e.type LIKE 'lobby.%' OR s.version - t.version >= $2)""",
            ev.MATCH_ENDED,
            CATCH_UP_AFTER,
        )
        return [r[0] for r in rows]
