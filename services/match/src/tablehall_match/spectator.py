"""What spectators see: the table behind its head by the table's
`spectator_delay` (until the match ends), on every path they have (the
match's GetTableView, and the lobby's WatchTable, which asks it).

The delayed copy of each watched table is kept and moved forward from the
stream, so a watcher costs one read of the events that became visible."""

from __future__ import annotations

from tablehall_eventstore import EventStore
from tablehall_match.live_table import REBUILD_METADATA, LiveTable
from tablehall_platform.table_access import visible_version
from tablehall_stream.events import table_option

# before the start, the copy moves on through the start command's events
_WITH_COMMAND = {**REBUILD_METADATA, "command_id": ("command_id",)}


def spectator_version(live: LiveTable) -> int:
    delay = table_option(live.started, "spectator_delay") if live.started is not None else 0
    return visible_version(True, live.version, delay, live.ended)


class SpectatorCopies:
    def __init__(self, store: EventStore) -> None:
        self.store = store
        self._copies: dict[str, LiveTable] = {}

    async def at(self, live: LiveTable, version: int) -> LiveTable:
        """The table as it stood at `version` (`live` itself at its head)."""
        if version >= live.version:
            self._copies.pop(live.table_id, None)
            return live
        copy = self._copies.get(live.table_id)
        if copy is None or copy.version > version:
            copy = LiveTable(live.table_id, live.stream_id)
        if copy.version < version:
            for event in await self.store.read_facts(
                live.stream_id, copy.version + 1, version, metadata=REBUILD_METADATA
            ):
                copy.apply_recorded(event)
        if copy.state is None:  # never before the start (public): through the start command's events
            start_command = None
            for event in await self.store.read_facts(
                live.stream_id, copy.version + 1, live.version, metadata=_WITH_COMMAND
            ):
                command = event.metadata.get("command_id")
                if copy.state is not None and command != start_command:
                    break
                copy.apply_recorded(event)
                start_command = command
        self._copies[live.table_id] = copy
        return copy

    def forget(self, table_id: str) -> None:
        self._copies.pop(table_id, None)
