"""Application handlers: who may read what, then the read models, the live
hub or the audit. The gRPC port only converts messages."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import msgspec

from tablehall_audit.events import StreamCopy, load_stream
from tablehall_audit.export import ExportError, export_stream
from tablehall_audit.signing import Signer
from tablehall_audit.verify import Verdict, verify_stream
from tablehall_eventstore import EventStore
from tablehall_platform.auth import Principal
from tablehall_platform.errors import BadRequest, NotFound, PermissionDenied, Refused
from tablehall_platform.input_policy import INT64_MAX
from tablehall_platform.table_access import Exposure, listing_exposure
from tablehall_projection import access
from tablehall_projection.exposure import shown
from tablehall_projection.projector import Lag, Projector
from tablehall_projection.queries import PlayerGame, Queries, Standing, Summary, decode_token, encode_token, page_size
from tablehall_rules import SeatInfo
from tablehall_stream.events import MatchStarted
from tablehall_stream.journal_lines import JournalLine
from tablehall_stream.names import STARTED

STATUSES = ("", "open", "playing", "finished")


def _not_found(table_id: str) -> NotFound:
    return NotFound("TABLE_NOT_FOUND", f"No table tables/{table_id}.", ru="Такого стола нет.")


@dataclass(frozen=True)
class ProjectionState:
    name: str
    position: int
    lag: Lag


class ProjectionApp:
    def __init__(self, store: EventStore, projectors: dict[str, Projector], signer: Signer) -> None:
        self.store = store
        self.signer = signer  # signs export files
        self.queries = Queries(store.pool)
        self.projectors = projectors

    async def summary(self, table_id: str) -> Summary:
        found = await self.queries.summary(table_id)
        if found is None:
            raise _not_found(table_id)
        return found

    async def visible_summary(self, principal: Principal, table_id: str) -> Summary:
        """GetTable: the summary as much as the caller may see of it."""
        table = await self.summary(table_id)
        facts = await access.facts(self.store, table_id)
        exposure = facts.exposure(principal, (s.user_id for s in table.seats))
        return shown(table, exposure)

    async def list_tables(
        self, principal: Principal, status: str, game: str, size: int, token: str
    ) -> tuple[list[Summary], str]:
        if status not in STATUSES:
            raise BadRequest("INVALID_STATUS", f"Unknown status {status!r}.", ru="Неизвестный статус.")
        n = page_size(size)
        after = decode_token(token, 1, INT64_MAX)
        rows = await self.queries.tables(status, game, n, after[0] if after else None)
        listed = []
        for row in rows:
            members = [s.user_id for s in row.seats] + [str(row.lobby.get("host_user_id", ""))]
            exposure = listing_exposure(principal, bool(row.lobby.get("private")), members)
            if exposure > Exposure.HIDDEN:
                listed.append(shown(row, exposure))
        return listed, encode_token(rows[-1].first_position) if len(rows) == n else ""

    async def journal(
        self, principal: Principal, table_id: str, requested: str, size: int, token: str
    ) -> tuple[list[JournalLine], str]:
        after = decode_token(token, 2) or (0, -1)  # a malformed token is refused before any read
        table = await self.summary(table_id)
        facts = await access.facts(self.store, table_id)
        role = access.resolve(principal, table.seats, requested, table.finished, facts)
        upto = access.visible_version(role, table.version, table.spectator_delay, table.finished)
        n = page_size(size)
        lines = await self.queries.journal(table_id, upto, role.seat, role.name == "auditor", (after[0], after[1]), n)
        next_token = encode_token(lines[-1].version, lines[-1].idx) if len(lines) == n else ""
        return lines, next_token

    async def standings(self, principal: Principal, table_id: str) -> tuple[Summary, Standing | None]:
        table = await self.summary(table_id)
        facts = await access.facts(self.store, table_id)
        role = access.resolve(principal, table.seats, "", table.finished, facts)
        upto = access.visible_version(role, table.version, table.spectator_delay, table.finished)
        return table, await self.queries.standing(table_id, upto)

    async def player_games(
        self, principal: Principal, user_id: str, size: int, token: str
    ) -> tuple[list[PlayerGame], str]:
        n = page_size(size)
        before = decode_token(token, 1, INT64_MAX)
        games, last = await self.queries.player_games(user_id or principal.user_id, n, before[0] if before else None)
        return games, encode_token(last) if last is not None else ""

    async def _stream(self, table_id: str) -> StreamCopy:
        copy = await load_stream(self.store, table_id)
        if not copy.events:
            raise _not_found(table_id)
        return copy

    @staticmethod
    def _seats(copy: StreamCopy) -> list[SeatInfo]:
        started = next((e for e in copy.events if e.type == STARTED), None)
        if started is None:
            return []
        try:
            return list(msgspec.json.decode(started.payload, type=MatchStarted).seats)
        except msgspec.DecodeError:
            return []

    async def verify(self, principal: Principal, table_id: str) -> Verdict:
        copy = await self._stream(table_id)
        if not access.may_audit(principal, self._seats(copy)):
            raise PermissionDenied(
                "NOT_ALLOWED",
                "Tables are verified by their players and operators.",
                ru="Проверять стол могут его игроки и операторы.",
            )
        return await asyncio.to_thread(verify_stream, copy)

    async def export(self, principal: Principal, table_id: str) -> bytes:
        if not (principal.is_operator or principal.is_service):
            raise PermissionDenied("NOT_ALLOWED", "Exports are for operators.", ru="Выгрузка — для операторов.")
        copy = await self._stream(table_id)
        try:
            return export_stream(copy, self.signer)
        except ExportError as exc:
            raise Refused(
                "MATCH_NOT_FINISHED", "Only finished tables are exported.", ru="Выгружаются только оконченные столы."
            ) from exc

    async def projections(self, principal: Principal) -> list[ProjectionState]:
        if not (principal.is_operator or principal.is_service):
            raise PermissionDenied("NOT_ALLOWED", "For operators.", ru="Только для операторов.")
        out = []
        for name, projector in self.projectors.items():
            projector.position = await projector.checkpoint()
            out.append(ProjectionState(name, projector.position, await projector.report_lag()))
        return out
