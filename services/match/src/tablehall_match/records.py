"""What the match writes to a table's stream: a game's events with their metadata, and the end
(`match.Ended`, which reveals the seed)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
import structlog

from tablehall_eventstore import EventStore, NewEvent
from tablehall_match.live_table import LiveTable
from tablehall_rules import StructCodec
from tablehall_stream.names import ENDED, game_event_type

log = structlog.get_logger("match")


def with_meta(event: NewEvent, extra: Mapping[str, Any]) -> NewEvent:
    return NewEvent(event.type, event.schema_version, event.payload, {**event.metadata, **extra})


def game_events(
    game_id: str,
    codec: StructCodec[Any],
    events: Sequence[msgspec.Struct],
    command_id: str,
    first_meta: Mapping[str, Any],
) -> list[NewEvent]:
    """A command's events as stored; the first carries `first_meta` (the draws, the actor)."""
    out = []
    for i, event in enumerate(events):
        meta: dict[str, Any] = {"command_id": command_id}
        if i == 0:
            meta.update(first_meta)
        out.append(
            NewEvent(game_event_type(game_id, codec.name(event)), codec.version(event), codec.encode(event), meta)
        )
    return out


def evolve_all(game: Any, state: Any, events: Sequence[msgspec.Struct]) -> Any:
    for event in events:
        state = game.evolve(state, event)
    return state


def ended_event(live: LiveTable, outcome: Any, command_id: str, now_ms: int) -> NewEvent:
    ended = live.ended_payload(outcome, now_ms)
    return NewEvent(ENDED, 1, msgspec.json.encode(ended), {"command_id": command_id, "causation": command_id})


async def reveal(store: EventStore, live: LiveTable, command_id: str, now_ms: int) -> None:
    """Append the seed reveal of a match whose end was committed without it."""
    outcome = live.game.outcome(live.state)
    event = ended_event(live, outcome, command_id, now_ms)
    appended = await store.append(live.stream_id, live.version, [event])
    live.version = appended.last_version
    live.ended = True
    log.info("match ended", table=live.table_id, version=live.version)
