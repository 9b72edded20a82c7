"""Starting a match: check the lobby's request, commit to a fresh seed, and append
`match.Started` with the game's first events (once per table, whatever the retries)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import msgspec
import structlog

from tablehall_eventstore import ConcurrencyConflict, EventStore, Fact, NewEvent, StoredFact
from tablehall_match.records import evolve_all, game_events, with_meta
from tablehall_match.seeds import SeedVault
from tablehall_platform import metrics
from tablehall_platform.auth import Principal
from tablehall_platform.errors import AlreadyExists, BadRequest, PermissionDenied
from tablehall_platform.table_options import split as table_options_split
from tablehall_rules import DecideContext, DrawSource, SeatInfo, commitment, new_seed
from tablehall_rules.errors import InvalidOptions
from tablehall_rules.registry import get_game
from tablehall_stream.codecs import event_codec
from tablehall_stream.events import MatchStarted
from tablehall_stream.names import STARTED, stream_id

log = structlog.get_logger("match")

# What the starter hands the instance's tables once a match is written: the table's id, its
# events (the lobby's and the start's) and its seed (`TableHost.adopt`)
Adopt = Callable[[str, Sequence[Fact], bytes], Awaitable[bool]]


class Starter:
    def __init__(
        self, store: EventStore, vault: SeedVault, now_ms: Callable[[], int], adopt: Adopt | None = None
    ) -> None:
        self.store = store
        self.vault = vault
        self.now_ms = now_ms
        self.adopt = adopt

    async def start_match(
        self,
        principal: Principal,
        table_id: str,
        game_id: str,
        raw_options: Mapping[str, Any],
        seats: Sequence[SeatInfo],
        request_id: str,
    ) -> tuple[int, str]:
        """Start the table's match; (version, the seed's commitment)."""
        if not (principal.is_service or principal.is_operator):
            raise PermissionDenied(
                "NOT_ALLOWED",
                "Matches are started by the lobby or an operator.",
                ru="Матч запускает лобби или оператор.",
            )
        if not request_id:
            raise BadRequest("REQUEST_ID_REQUIRED", "request_id is required.", ru="Нужен request_id.")
        game = get_game(game_id)
        table_options, game_raw = table_options_split(raw_options)
        options = dict(game.parse_options(game_raw))
        if sorted(s.seat for s in seats) != list(range(len(seats))):
            raise BadRequest("INVALID_SEATS", "Seats must be numbered 0..n-1.", ru="Места нумеруются с 0.")
        if not game.min_seats <= len(seats) <= game.max_seats:
            raise InvalidOptions(
                "SEAT_COUNT",
                f"{game_id} takes {game.min_seats}-{game.max_seats} seats.",
                f"В игре {game.min_seats}-{game.max_seats} мест.",
            )
        sid = stream_id(table_id)
        command_id = f"start:{table_id}:{request_id}"
        earlier = await self.store.command_result(command_id)
        if earlier is not None:
            seed = await self.vault.get(sid)
            assert seed is not None
            return earlier.last_version, commitment(seed)
        version = await self.store.stream_version(sid)
        before = await self.store.read_facts(sid, to_version=version)
        for event in before:
            if event.type == STARTED:
                raise AlreadyExists(
                    "MATCH_ALREADY_STARTED",
                    "This table's match has started.",
                    ru="Матч этого стола уже идёт.",
                )
        seed = await self.vault.put(sid, new_seed())
        now = self.now_ms()
        rng = DrawSource(seed, 0)
        ctx = DecideContext(seat=None, now_ms=now, rng=rng)
        first_events = game.start(options, list(seats), ctx)
        started = MatchStarted(
            game_id,
            game.rules_version,
            options,
            list(seats),
            commitment(seed),
            now,
            table_options=table_options,
            teams=game.teams(options, len(seats)),
        )
        first = NewEvent(
            STARTED,
            1,
            msgspec.json.encode(started),
            {"command_id": command_id, "actor": principal.user_id, "now_ms": now},
        )
        rest = game_events(
            game_id,
            event_codec(game_id),
            first_events,
            command_id,
            {"draws": msgspec.to_builtins(rng.draws), "draw_start": 0},
        )
        state = evolve_all(game, None, first_events)
        batch = [first, *rest]
        batch[-1] = with_meta(batch[-1], {"pending": msgspec.to_builtins(game.pending(state))})
        try:
            result = await self.store.append(sid, version, batch, command_id=command_id)
        except ConcurrencyConflict as exc:
            raise AlreadyExists(
                "MATCH_ALREADY_STARTED",
                "The table changed while starting; retry.",
                ru="Стол изменился; повторите.",
            ) from exc
        metrics.events_appended(game_id).inc(1 + len(rest))
        log.info("match started", table=table_id, game=game_id, seats=len(seats), version=result.last_version)
        if self.adopt is not None:
            written = [
                StoredFact(version + i, e.type, e.schema_version, e.payload, dict(e.metadata))
                for i, e in enumerate(batch, start=1)
            ]
            try:
                await self.adopt(table_id, [*before, *written], seed)
            except Exception:  # the match is written: its first use loads it instead
                log.exception("holding a started table failed", table=table_id)
        return result.last_version, commitment(seed)
