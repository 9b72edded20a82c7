"""Tables as the bot sees them, folded from their streams.

Each table's `TableSeats` is folded from its stream: the events the publisher
relays are folded as they come when they follow the last one folded (no read
at all on a bot's move), and whatever is missing (a gap: another instance got
those notifications, or the table is new here) is read from PostgreSQL, the
source of truth. So who plays which seat always follows the stream, never
memory alone.
"""

from __future__ import annotations

from typing import Any

import asyncpg

from tablehall_bot.seats import TableSeats
from tablehall_eventstore import EventStore
from tablehall_stream.names import ENDED, STARTED, stream_id, table_of

CREATED = "lobby.TableCreated"
CLOSED = "lobby.TableClosed"

_UNFINISHED_SQL = f"""
SELECT stream_id FROM events WHERE type = '{STARTED}'
EXCEPT
SELECT stream_id FROM events WHERE type = '{ENDED}'
"""

# tables created by `host` whose match started and neither ended nor was closed, oldest first
_UNFINISHED_HOSTED_SQL = f"""
SELECT stream_id FROM events
WHERE type = '{CREATED}' AND payload->>'host_user_id' = $1
  AND stream_id IN (SELECT stream_id FROM events WHERE type = '{STARTED}')
  AND stream_id NOT IN (SELECT stream_id FROM events WHERE type IN ('{ENDED}', '{CLOSED}'))
ORDER BY position
"""


table_id = table_of


class Tables:
    def __init__(self, store: EventStore, handed_difficulty: str) -> None:
        self.store = store
        self.handed_difficulty = handed_difficulty
        self._seats: dict[str, TableSeats] = {}

    def observe(
        self,
        table: str,
        version: int,
        event_type: str,
        payload: bytes,
        metadata: dict[str, Any],
        schema_version: int = 1,
    ) -> None:
        """Fold a relayed event of `table` when it is the next one of a table folded here."""
        seats = self._seats.get(table)
        if seats is None or version != seats.version + 1:
            return  # not followed here yet, a repeat, or after a gap: `seats` reads what is missing
        seats.apply(version, event_type, payload, metadata, schema_version)
        if seats.ended:
            self._seats.pop(table, None)

    async def seats(self, table: str, at_least: int | None = None) -> TableSeats:
        """The table's seats: as folded when that reaches version `at_least`, else read up to
        the stream's latest event."""
        seats = self._seats.get(table)
        if seats is not None and at_least is not None and seats.version >= at_least:
            return seats
        if seats is None:
            seats = TableSeats(handed_difficulty=self.handed_difficulty)
        for event in await self.store.read_stream(stream_id(table), seats.version + 1):
            seats.apply(event.version, event.type, event.payload, event.metadata, event.schema_version)
        if seats.ended:
            self._seats.pop(table, None)
        elif seats.version:
            self._seats[table] = seats
        return seats

    def folded(self, table: str) -> TableSeats | None:
        """The table as folded here so far (no read), if it is followed here."""
        return self._seats.get(table)

    def seats_played(self) -> int:
        return sum(len(s.bot_seats()) for s in self._seats.values())

    async def unfinished(self) -> list[str]:
        """Tables whose match started and has not ended (for the catch-up at start)."""
        pool: asyncpg.Pool = self.store.pool
        rows = await pool.fetch(_UNFINISHED_SQL)
        return sorted(t for (s,) in rows if (t := table_id(s)) is not None)

    async def unfinished_hosted_by(self, host: str) -> list[str]:
        """Tables `host` created whose match is running (started, not ended, not closed), oldest first."""
        pool: asyncpg.Pool = self.store.pool
        rows = await pool.fetch(_UNFINISHED_HOSTED_SQL, host)
        return [t for (s,) in rows if (t := table_id(s)) is not None]
