"""Read model "tables": the lobby list and each table's summary.

Built from `match.*` and `lobby.*` events. Lobby events are read generically
(their schema belongs to the lobby): any of them opens the table's summary,
and a few well-known fields of their payload, when present, are kept as the
table's lobby facts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from tablehall_eventstore import RecordedEvent
from tablehall_projection.projector import Conn
from tablehall_stream.events import MatchEnded, MatchStarted, table_option
from tablehall_stream.names import ENDED, STARTED, table_of

# lobby payload fields copied into the summary (anything else is the lobby's business)
# (`private` decides who sees the table listed: docs/security.md)
LOBBY_FIELDS = ("name", "title", "host", "host_user_id", "game", "visibility", "max_seats", "status", "private")

_COLUMNS = (
    "table_id, first_position, status, game, rules_version, seats, options, version,"
    " spectator_delay, started_at_ms, ended_at_ms, lobby, last_event_type"
)
_started = msgspec.json.Decoder(MatchStarted)
_ended = msgspec.json.Decoder(MatchEnded)


def _lobby_facts(payload: bytes) -> dict[str, Any]:
    try:
        data = msgspec.json.decode(payload)
    except msgspec.DecodeError:
        return {}
    if not isinstance(data, dict):
        return {}
    return {k: data[k] for k in LOBBY_FIELDS if isinstance(data.get(k), str | int | bool)}


class TablesModel:
    name: str = "tables"
    tables: tuple[str, ...] = ("proj_tables",)

    def reset(self) -> None:
        """No in-memory state."""

    async def apply(self, conn: Conn, events: Sequence[RecordedEvent]) -> None:
        ids = sorted({t for e in events if (t := table_of(e.stream_id)) is not None})
        if not ids:
            return
        rows: dict[str, dict[str, Any]] = {}
        for r in await conn.fetch(f"SELECT {_COLUMNS} FROM proj_tables WHERE table_id = ANY($1::text[])", ids):
            existing = dict(r)
            for key in ("seats", "options", "lobby"):
                existing[key] = msgspec.json.decode(existing[key])
            rows[existing["table_id"]] = existing
        for event in events:
            table_id = table_of(event.stream_id)
            if table_id is None:
                continue
            row = rows.get(table_id)
            if row is None:
                row = rows[table_id] = {
                    "table_id": table_id,
                    "first_position": event.position,
                    "status": "open",
                    "game": "",
                    "rules_version": "",
                    "seats": [],
                    "options": {},
                    "version": 0,
                    "spectator_delay": 0,
                    "started_at_ms": 0,
                    "ended_at_ms": 0,
                    "lobby": {},
                    "last_event_type": "",
                }
            self._fold(row, event)
        await conn.executemany(
            f"INSERT INTO proj_tables ({_COLUMNS}) VALUES"
            " ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10, $11, $12::jsonb, $13)"
            " ON CONFLICT (table_id) DO UPDATE SET status = excluded.status, game = excluded.game,"
            " rules_version = excluded.rules_version, seats = excluded.seats, options = excluded.options,"
            " version = excluded.version, spectator_delay = excluded.spectator_delay,"
            " started_at_ms = excluded.started_at_ms, ended_at_ms = excluded.ended_at_ms,"
            " lobby = excluded.lobby, last_event_type = excluded.last_event_type",
            [
                (
                    r["table_id"],
                    r["first_position"],
                    r["status"],
                    r["game"],
                    r["rules_version"],
                    msgspec.json.encode(r["seats"]).decode(),
                    msgspec.json.encode(r["options"]).decode(),
                    r["version"],
                    r["spectator_delay"],
                    r["started_at_ms"],
                    r["ended_at_ms"],
                    msgspec.json.encode(r["lobby"]).decode(),
                    r["last_event_type"],
                )
                for r in rows.values()
            ],
        )

    @staticmethod
    def _fold(row: dict[str, Any], event: RecordedEvent) -> None:
        row["version"] = event.version
        row["last_event_type"] = event.type
        if event.type == STARTED:
            started = _started.decode(event.payload)
            row.update(
                status="playing",
                game=started.game,
                rules_version=started.rules_version,
                seats=msgspec.to_builtins(started.seats),
                options=started.options,
                spectator_delay=table_option(started, "spectator_delay"),
                started_at_ms=started.started_at_ms,
            )
        elif event.type == ENDED:
            row.update(status="finished", ended_at_ms=_ended.decode(event.payload).ended_at_ms)
        elif event.type.startswith("lobby."):
            facts = _lobby_facts(event.payload)
            row["lobby"] = {**row["lobby"], **facts}
            if not row["game"] and isinstance(facts.get("game"), str):
                row["game"] = facts["game"]
