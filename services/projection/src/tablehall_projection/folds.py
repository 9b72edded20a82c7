"""The folded state of each table a read model is working on.

A cache: on a miss, or when the cached fold is not exactly one version
behind the event at hand, the table is replayed from the store. It is
cleared whenever a batch fails, so a rolled-back transaction never leaves
state in memory that the database does not have.
"""

from __future__ import annotations

from tablehall_eventstore import EventStore, RecordedEvent
from tablehall_stream.fold import TableFold


class Folds:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._folds: dict[str, TableFold] = {}

    async def before(self, table_id: str, event: RecordedEvent) -> TableFold:
        """The table's fold at `event.version - 1`, ready to apply `event`."""
        fold = self._folds.get(table_id)
        if fold is None or fold.version != event.version - 1:
            fold = TableFold(table_id)
            if event.version > 1:
                for earlier in await self.store.read_stream(event.stream_id, 1, event.version - 1):
                    fold.apply(earlier)
            self._folds[table_id] = fold
        return fold

    def forget(self, table_id: str) -> None:
        self._folds.pop(table_id, None)

    def clear(self) -> None:
        self._folds.clear()

    def __len__(self) -> int:
        return len(self._folds)
