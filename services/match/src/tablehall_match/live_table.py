"""A table held in memory: its game state rebuilt from snapshot + events."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tablehall_eventstore import Fact, MetadataPaths
from tablehall_platform.table_access import TableAccess
from tablehall_rules import Game, PendingDecision, SeatInfo
from tablehall_rules.registry import get_game
from tablehall_stream.codecs import event_codec
from tablehall_stream.events import STARTED_DECODER, MatchEnded, MatchStarted
from tablehall_stream.names import ENDED, STARTED


class TableSnapshot(msgspec.Struct):
    """Everything needed to resume a table without replaying from version 1."""

    version: int
    started: MatchStarted
    draw_counter: int
    ended: bool
    state: msgspec.Raw
    # the platform's facts folded so far (lobby access, seats played by a bot)
    access: TableAccess = msgspec.field(default_factory=TableAccess)
    controllers: dict[int, bool] = msgspec.field(default_factory=dict)


# What a rebuild reads of each event's metadata (`EventStore.read_facts(metadata=...)`; the whole
# metadata, with the draws and the pending decisions, costs the store more than the rest of the row):
# who plays a seat, and the number of the last draw (the draw counter follows it), not the draws.
REBUILD_METADATA: MetadataPaths = {"controller": ("controller",), "last_draw": ("draws", "-1", "n")}


def last_draw(metadata: Mapping[str, Any]) -> int | None:
    """The number of an event's last draw, from its whole metadata or from `REBUILD_METADATA`'s."""
    picked = metadata.get("last_draw")
    if picked is not None:
        return int(picked)
    draws = metadata.get("draws")
    return int(draws[-1]["n"]) if draws else None


# snapshots of another layout are ignored (a snapshot is only a cache)
SNAPSHOT_TYPE = "table/3"  # 3: access facts with the host, seats and removed players


_SNAPSHOT_DECODER = msgspec.json.Decoder(TableSnapshot)


@dataclass
class LiveTable:
    table_id: str
    stream_id: str
    version: int = 0
    started: MatchStarted | None = None
    state: Any = None
    draw_counter: int = 0
    ended: bool = False
    seed: bytes | None = None
    last_snapshot_version: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # clear while a command's events are applied to `state` and not yet appended: `state` is
    # then ahead of `version`, and a view waits for it (a view never shows a state under the
    # wrong version)
    settled: asyncio.Event = field(default_factory=asyncio.Event)
    # who may watch as a spectator, from the lobby's facts in the same stream
    access: TableAccess = field(default_factory=TableAccess)
    # seats handed to a bot (True) or taken back (False) through ControlTable
    controllers: dict[int, bool] = field(default_factory=dict)
    # request ids answered recently: command id -> version after it
    recent: dict[str, tuple[int, str]] = field(default_factory=dict)  # command id: (version, digest)
    # the open decisions as the last command computed them, with the version they are of: the
    # answer's view reuses them instead of asking the game again (any other change moves the version)
    pending_at: tuple[int, list[PendingDecision]] | None = None
    # the game's id, event decoding and evolve, looked up once for a rebuild's many events
    _rules: tuple[str, Callable[[str, int, bytes], Any], Callable[[Any, Any], Any]] | None = field(
        default=None, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        self.settled.set()

    def pending(self) -> list[PendingDecision]:
        """The game's open decisions now."""
        if self.pending_at is not None and self.pending_at[0] == self.version:
            return self.pending_at[1]
        return self.game.pending(self.state)

    @property
    def game(self) -> Game[Any]:
        assert self.started is not None
        return get_game(self.started.game)

    @property
    def seats(self) -> list[SeatInfo]:
        return self.started.seats if self.started else []

    def restore(self, snapshot_payload: bytes) -> None:
        snap = _SNAPSHOT_DECODER.decode(snapshot_payload)
        self.started = snap.started
        self._rules = None
        game = get_game(snap.started.game)
        self.state = msgspec.json.decode(snap.state, type=game.state_type)
        self.version = snap.version
        self.draw_counter = snap.draw_counter
        self.ended = snap.ended
        self.access = snap.access
        self.controllers = dict(snap.controllers)
        self.last_snapshot_version = snap.version

    def snapshot(self) -> bytes:
        assert self.started is not None
        return msgspec.json.encode(
            TableSnapshot(
                version=self.version,
                started=self.started,
                draw_counter=self.draw_counter,
                ended=self.ended,
                state=msgspec.Raw(msgspec.json.encode(self.state)),
                access=self.access,
                controllers=self.controllers,
            )
        )

    def apply_recorded(self, event: Fact) -> None:
        """Replay one stored event (rebuild path)."""
        prefix, _, tag = event.type.partition(".")  # `split_type`, without a call an event
        rules = self._rules
        if rules is None and self.started is not None:
            game = self.game
            rules = self._rules = (game.id, event_codec(game.id).decode_stored, game.evolve)
        if rules is not None and prefix == rules[0]:
            self.state = rules[2](self.state, rules[1](tag, event.schema_version, event.payload))
        elif event.type == STARTED:
            self.started = STARTED_DECODER.decode(event.payload)
            self._rules = None
        elif event.type == ENDED:
            self.ended = True
        else:  # the lobby's facts: only who may watch matters to the match
            self.access.apply(event.type, event.payload)
        metadata = event.metadata
        if metadata:
            self.note_facts(metadata)
            drawn = last_draw(metadata)
            if drawn is not None:
                self.draw_counter = max(self.draw_counter, drawn + 1)
        self.version = event.version

    def note_facts(self, metadata: Mapping[str, Any] | None) -> None:
        """Platform facts carried in event metadata (who plays a seat)."""
        controller = metadata.get("controller") if metadata else None
        if controller:
            self.controllers[int(controller["seat"])] = bool(controller["by_bot"])

    def played_by_bot(self, seat: int) -> bool:
        """A bot seat no person took over, or a player's seat handed to a bot and not taken back."""
        if seat in self.controllers:
            return self.controllers[seat]
        return 0 <= seat < len(self.seats) and self.seats[seat].is_bot

    def ended_payload(self, outcome: Any, now_ms: int) -> MatchEnded:
        assert self.seed is not None
        return MatchEnded(outcome=msgspec.to_builtins(outcome), seed_hex=self.seed.hex(), ended_at_ms=now_ms)
