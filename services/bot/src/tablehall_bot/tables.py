"""Tables as the bot sees them, read from PostgreSQL (the source of truth).

Each table's `TableSeats` is folded from its stream and brought up to date
from the last version read whenever the table is looked at, so who plays
which seat always follows the stream, never memory alone.
"""

from __future__ import annotations

import asyncpg

from tablehall_bot.seats import TableSeats
from tablehall_eventstore import EventStore
from tablehall_stream.names import ENDED, STARTED, stream_id, table_of

_UNFINISHED_SQL = f"""
SELECT stream_id FROM events WHERE type = '{STARTED}'
EXCEPT
SELECT stream_id FROM events WHERE type = '{ENDED}'
"""


table_id = table_of


class Tables:
    def __init__(self, store: EventStore, handed_difficulty: str) -> None:
        self.store = store
        self.handed_difficulty = handed_difficulty
        self._seats: dict[str, TableSeats] = {}

    async def seats(self, table: str) -> TableSeats:
        """The table's seats, read up to its latest event."""
        seats = self._seats.get(table)
        if seats is None:
            seats = TableSeats(handed_difficulty=self.handed_difficulty)
        for event in await self.store.read_stream(stream_id(table), seats.version + 1):
            seats.apply(event.version, event.type, event.payload, event.metadata)
        if seats.ended:
            self._seats.pop(table, None)
        elif seats.version:
            self._seats[table] = seats
        return seats

    def seats_played(self) -> int:
        return sum(len(s.bot_seats()) for s in self._seats.values())

    async def unfinished(self) -> list[str]:
        """Tables whose match started and has not ended (for the catch-up at start)."""
        pool: asyncpg.Pool = self.store.pool
        rows = await pool.fetch(_UNFINISHED_SQL)
        return sorted(t for (s,) in rows if (t := table_id(s)) is not None)
