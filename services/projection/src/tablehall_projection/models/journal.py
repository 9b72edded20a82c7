"""Read model "journal": every table's journal lines with their audience."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from tablehall_eventstore import EventStore, RecordedEvent
from tablehall_projection.folds import Folds
from tablehall_projection.projector import Conn
from tablehall_stream.names import table_of

_COLUMNS = ["table_id", "version", "idx", "code", "params", "ru", "en", "audience"]


class JournalModel:
    name: str = "journal"
    tables: tuple[str, ...] = ("proj_journal",)

    def __init__(self, store: EventStore) -> None:
        self.folds = Folds(store)

    def reset(self) -> None:
        self.folds.clear()

    async def apply(self, conn: Conn, events: Sequence[RecordedEvent]) -> None:
        records = []
        for event in events:
            table_id = table_of(event.stream_id)
            if table_id is None:
                continue
            fold = await self.folds.before(table_id, event)
            for line in fold.apply(event, journal=True):
                e = line.entry
                records.append(
                    (
                        table_id,
                        line.version,
                        line.idx,
                        e.code,
                        msgspec.json.encode(e.params).decode(),
                        e.ru,
                        e.en,
                        e.audience,
                    )
                )
            if fold.ended is not None:
                self.folds.forget(table_id)
        if records:
            await conn.copy_records_to_table("proj_journal", records=records, columns=_COLUMNS)
