"""The gRPC face of the projection service: protos in, app calls, protos out."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc
import msgspec

from tablehall.common.v1 import table_pb2
from tablehall.match.v1 import match_pb2
from tablehall.projection.v1 import projection_pb2 as pb
from tablehall.projection.v1 import projection_pb2_grpc as pb_grpc
from tablehall_audit.signing import ALGORITHM
from tablehall_platform.auth import Principal, current_principal
from tablehall_platform.errors import Unauthenticated
from tablehall_platform.names import parse_table
from tablehall_projection.app import ProjectionApp
from tablehall_projection.live.frames import Frame
from tablehall_projection.live.hub import Hub
from tablehall_projection.live.watch import watch
from tablehall_projection.queries import Summary
from tablehall_rules import SeatInfo, encode_view
from tablehall_stream.journal_lines import JournalLine
from tablehall_stream.proto_games import decision_to_proto

ROLE_NAMES = {
    match_pb2.VIEWER_ROLE_UNSPECIFIED: "",
    match_pb2.VIEWER_ROLE_SEAT: "seat",
    match_pb2.VIEWER_ROLE_SPECTATOR: "spectator",
    match_pb2.VIEWER_ROLE_AUDITOR: "auditor",
}
ROLE_VALUES = {v: k for k, v in ROLE_NAMES.items() if v}
# the shared tablehall.common.v1.TableStatus; the projection's own names of the states it knows
STATUS_NAMES = {
    table_pb2.TABLE_STATUS_UNSPECIFIED: "",
    table_pb2.TABLE_STATUS_WAITING: "open",
    table_pb2.TABLE_STATUS_PLAYING: "playing",
    table_pb2.TABLE_STATUS_FINISHED: "finished",
}
STATUS_VALUES = {v: k for k, v in STATUS_NAMES.items() if v}
KINDS = {"snapshot": pb.UPDATE_KIND_SNAPSHOT, "change": pb.UPDATE_KIND_CHANGE}

_json = msgspec.json.encode


def _principal() -> Principal:
    principal = current_principal.get()
    if principal is None:
        raise Unauthenticated("TOKEN_MISSING", "Not signed in.", ru="Вход не выполнен.")
    return principal


def _line(line: JournalLine) -> pb.JournalLine:
    e = line.entry
    return pb.JournalLine(version=line.version, code=e.code, params_json=_json(e.params).decode(), ru=e.ru, en=e.en)


def _seats(seats: list[SeatInfo]) -> list[pb.SeatSummary]:
    return [pb.SeatSummary(seat=s.seat, user_id=s.user_id, name=s.name, is_bot=s.is_bot) for s in seats]


def frame_to_proto(frame: Frame, kind: str) -> pb.WatchTableResponse:
    """Encoded once per frame and kind, then shared by every watcher of that role."""
    cached: pb.WatchTableResponse | None = frame.wire.get(kind)
    if cached is not None:
        return cached
    message = pb.WatchTableResponse(
        table=f"tables/{frame.table_id}",
        kind=KINDS[kind],
        version=frame.version,
        role=ROLE_VALUES[frame.role.name],
        seat=frame.role.seat if frame.role.seat is not None else -1,
        game=frame.game,
        view_json=encode_view(frame.view).decode(),
        journal=[_line(line) for line in frame.journal],
        decisions=[decision_to_proto(d) for d in frame.decisions],
        finished=frame.finished,
        outcome_json=_json(frame.outcome).decode() if frame.outcome is not None else "",
    )
    frame.wire[kind] = message
    return message


def summary_to_proto(s: Summary) -> pb.TableSummary:
    return pb.TableSummary(
        table=f"tables/{s.table_id}",
        status=STATUS_VALUES[s.status],
        game=s.game,
        rules_version=s.rules_version,
        seats=_seats(s.seats),
        options_json=_json(s.options).decode(),
        version=s.version,
        spectator_delay=s.spectator_delay,
        started_at_unix_ms=s.started_at_ms,
        ended_at_unix_ms=s.ended_at_ms,
        lobby_json=_json(s.lobby).decode(),
        last_event_type=s.last_event_type,
    )


class ProjectionServicer(pb_grpc.ProjectionServiceServicer):  # type: ignore[misc]
    def __init__(self, app: ProjectionApp, hub: Hub) -> None:
        self.app = app
        self.hub = hub

    async def WatchTable(
        self, request: pb.WatchTableRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[pb.WatchTableResponse]:
        table_id = parse_table(request.table)
        role = ROLE_NAMES.get(request.role, "")
        per_command = request.grain == pb.UPDATE_GRAIN_COMMAND
        async for update in watch(self.hub, _principal(), table_id, role, request.from_version, per_command):
            yield frame_to_proto(update.frame, update.kind)

    async def ListJournal(
        self, request: pb.ListJournalRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListJournalResponse:
        table_id = parse_table(request.table)
        lines, token = await self.app.journal(
            _principal(), table_id, ROLE_NAMES.get(request.role, ""), request.page_size, request.page_token
        )
        return pb.ListJournalResponse(lines=[_line(x) for x in lines], next_page_token=token)

    async def ListTables(
        self, request: pb.ListTablesRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListTablesResponse:
        rows, token = await self.app.list_tables(
            _principal(), STATUS_NAMES.get(request.status, "?"), request.game, request.page_size, request.page_token
        )
        return pb.ListTablesResponse(tables=[summary_to_proto(s) for s in rows], next_page_token=token)

    async def GetTable(self, request: pb.GetTableRequest, context: grpc.aio.ServicerContext) -> pb.GetTableResponse:
        summary = await self.app.visible_summary(_principal(), parse_table(request.table))
        return pb.GetTableResponse(table=summary_to_proto(summary))

    async def GetStandings(
        self, request: pb.GetStandingsRequest, context: grpc.aio.ServicerContext
    ) -> pb.GetStandingsResponse:
        table, standing = await self.app.standings(_principal(), parse_table(request.table))
        reply = pb.GetStandingsResponse(table=request.table, seats=_seats(table.seats))
        if standing is not None:
            reply.version = standing.version
            reply.final = standing.final
            reply.places.extend(pb.Place(place=i + 1, seats=group) for i, group in enumerate(standing.places))
            reply.scores_json = _json(standing.scores).decode() if standing.final else ""
        return reply

    async def ListPlayerGames(
        self, request: pb.ListPlayerGamesRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListPlayerGamesResponse:
        games, token = await self.app.player_games(_principal(), request.user_id, request.page_size, request.page_token)
        return pb.ListPlayerGamesResponse(
            games=[
                pb.PlayerGame(
                    table=f"tables/{g.table_id}",
                    game=g.game,
                    seat=g.seat,
                    place=g.place,
                    players=g.players,
                    reason=g.reason,
                    ended_at_unix_ms=g.ended_at_ms,
                )
                for g in games
            ],
            next_page_token=token,
        )

    async def VerifyTable(
        self, request: pb.VerifyTableRequest, context: grpc.aio.ServicerContext
    ) -> pb.VerifyTableResponse:
        verdict = await self.app.verify(_principal(), parse_table(request.table))
        return pb.VerifyTableResponse(
            table=request.table,
            verified=verdict.ok,
            message=verdict.message,
            version=verdict.version,
            events_checked=verdict.events_checked,
            commands_checked=verdict.commands_checked,
            draws_checked=verdict.draws_checked,
        )

    async def ExportTable(
        self, request: pb.ExportTableRequest, context: grpc.aio.ServicerContext
    ) -> pb.ExportTableResponse:
        content = await self.app.export(_principal(), parse_table(request.table))
        return pb.ExportTableResponse(table=request.table, content=content)

    async def ListProjections(
        self, request: pb.ListProjectionsRequest, context: grpc.aio.ServicerContext
    ) -> pb.ListProjectionsResponse:
        states = await self.app.projections(_principal())
        return pb.ListProjectionsResponse(
            projections=[
                pb.ProjectionStatus(
                    name=s.name,
                    position=s.position,
                    head_position=s.position + s.lag.events,
                    lag_events=s.lag.events,
                    lag_seconds=s.lag.seconds,
                )
                for s in states
            ]
        )

    async def GetSigningKey(
        self, request: pb.GetSigningKeyRequest, context: grpc.aio.ServicerContext
    ) -> pb.GetSigningKeyResponse:
        _principal()
        signer = self.app.signer
        return pb.GetSigningKeyResponse(algorithm=ALGORITHM, key_id=signer.key_id, public_key_pem=signer.public_pem)


def register(servicer: ProjectionServicer) -> Any:
    def add(server: grpc.aio.Server) -> str:
        pb_grpc.add_ProjectionServiceServicer_to_server(servicer, server)
        return str(pb.DESCRIPTOR.services_by_name["ProjectionService"].full_name)

    return add
