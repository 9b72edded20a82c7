"""Protobuf messages to the SDK's models and back (with transport.py, the only modules
importing the generated `*_pb2` code)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import grpc
from google.protobuf import json_format
from google.rpc import error_details_pb2, status_pb2
from grpc_status import rpc_status

from tablehall.common.v1 import table_pb2
from tablehall.lobby.v1 import lobby_pb2
from tablehall.match.v1 import match_pb2
from tablehall.projection.v1 import projection_pb2
from tablehall_sdk.errors import TablehallError, error_for
from tablehall_sdk.models import (
    ChatMessage,
    Checked,
    Command,
    Decision,
    GameInfo,
    JournalLine,
    LegalMove,
    Parameter,
    Role,
    Seat,
    Table,
    TableView,
    Update,
)

MATCH_ROLES = {
    Role.DEFAULT: match_pb2.VIEWER_ROLE_UNSPECIFIED,
    Role.SEAT: match_pb2.VIEWER_ROLE_SEAT,
    Role.SPECTATOR: match_pb2.VIEWER_ROLE_SPECTATOR,
    Role.AUDITOR: match_pb2.VIEWER_ROLE_AUDITOR,
}
PROJECTION_ROLES = {
    Role.DEFAULT: match_pb2.VIEWER_ROLE_UNSPECIFIED,
    Role.SEAT: match_pb2.VIEWER_ROLE_SEAT,
    Role.SPECTATOR: match_pb2.VIEWER_ROLE_SPECTATOR,
    Role.AUDITOR: match_pb2.VIEWER_ROLE_AUDITOR,
}
_MATCH_ROLE_BACK = {v: k for k, v in MATCH_ROLES.items()}
# games with their own field in GameCommand; any other travels packed in `other`
_BUILT_IN = frozenset(f.name for f in match_pb2.GameCommand.DESCRIPTOR.oneofs_by_name["game"].fields) - {"other"}
_TYPE_URL = "type.googleapis.com/tablehall.{game}.v1.Command"
# the most commands a view's legal moves are spelled out to
LEGAL_LIMIT = 2000
_PROJECTION_ROLE_BACK = {v: k for k, v in PROJECTION_ROLES.items()}


def _json(text: str) -> Mapping[str, Any]:
    value = json.loads(text) if text else {}
    return value if isinstance(value, dict) else {}


def error_from_rpc(exc: grpc.RpcError) -> TablehallError:
    """The typed error of a failed call: status, ErrorInfo reason and metadata, LocalizedMessages."""
    is_call = isinstance(exc, grpc.Call | grpc.aio.AioRpcError)
    code = exc.code().name if is_call else "UNKNOWN"
    details = (exc.details() if is_call else str(exc)) or ""
    status = rpc_status.from_call(exc) if is_call else None
    return _typed(code, details, status)


def error_from_status(status: status_pb2.Status) -> TablehallError:
    """The typed error of a google.rpc.Status (a refusal answered on a stream)."""
    code = next((c.name for c in grpc.StatusCode if c.value[0] == status.code), "UNKNOWN")
    return _typed(code, status.message, status)


def _typed(code: str, details: str, status: status_pb2.Status | None) -> TablehallError:
    reason, messages, metadata = "", {}, {}
    for detail in status.details if status is not None else ():
        info = error_details_pb2.ErrorInfo()
        localized = error_details_pb2.LocalizedMessage()
        if detail.Unpack(info):
            reason, metadata = info.reason, dict(info.metadata)
        elif detail.Unpack(localized):
            messages[localized.locale.split("-")[0]] = localized.message
    return error_for(code, reason, details, messages=messages, metadata=metadata)


def command_to_proto(command: Command) -> match_pb2.GameCommand:
    message = match_pb2.GameCommand()
    body = {command.kind: dict(command.args)}
    if command.game in _BUILT_IN:
        data: dict[str, Any] = {command.game: body}
    else:
        data = {"other": {"@type": _TYPE_URL.format(game=command.game), **body}}
    try:
        json_format.ParseDict(data, message)
    except json_format.ParseError as exc:
        raise error_for("INVALID_ARGUMENT", "BAD_COMMAND", f"not a command of {command.game}: {exc}") from exc
    return message


def command_from_proto(message: match_pb2.GameCommand) -> Command:
    game = message.WhichOneof("game") or ""
    if game == "other":
        data = json_format.MessageToDict(message.other, preserving_proto_field_name=True)
        type_url = str(data.pop("@type", ""))
        game = type_url.removeprefix("type.googleapis.com/tablehall.").split(".")[0]
        packed_kind, packed_args = next(iter(data.items()), ("", {}))
        return Command(game, str(packed_kind), packed_args)
    inner = getattr(message, game) if game else None
    kind = inner.WhichOneof("kind") if inner is not None else None
    if inner is None or kind is None:
        return Command(game, "")
    args = json_format.MessageToDict(getattr(inner, kind), preserving_proto_field_name=True)
    return Command(game, kind, args)


def _parameter(p: match_pb2.MoveParameter) -> Parameter:
    which = p.WhichOneof("domain")
    if which == "range":
        return Parameter(p.field, lo=p.range.min, hi=p.range.max, step=p.range.step or 1)
    if which == "choice":
        if p.choice.integers:
            return Parameter(p.field, values=tuple(p.choice.integers))
        return Parameter(p.field, values=tuple(_plain(json_format.MessageToDict(v)) for v in p.choice.values))
    examples = tuple(_plain(json_format.MessageToDict(v)) for v in p.rule.examples)
    return Parameter(p.field, values=examples, rule=p.rule.name)


def _plain(value: Any) -> Any:
    """JSON numbers come back as floats: integral ones as ints."""
    return int(value) if isinstance(value, float) and value.is_integer() else value


def legal_move_from_proto(m: match_pb2.LegalMove) -> LegalMove:
    return LegalMove(command_from_proto(m.command), tuple(_parameter(p) for p in m.parameters))


def spelled_out(moves: Sequence[LegalMove], limit: int = LEGAL_LIMIT) -> Iterator[Command]:
    """The commands the moves admit, each parameter over its values, at most `limit`."""
    count = 0
    for move in moves:
        names = [p.field for p in move.parameters]
        for combo in itertools.product(*(p.options() for p in move.parameters)):
            if count >= limit:
                return
            count += 1
            yield move.build(**dict(zip(names, combo, strict=True)))


def seat_from_proto(s: lobby_pb2.SeatState) -> Seat:
    return Seat(s.seat, s.user_id, s.name, s.is_bot, s.present, s.played_by_bot)


def table_from_proto(t: lobby_pb2.Table) -> Table:
    return Table(
        name=t.name,
        game=t.game,
        status=table_pb2.TableStatus.Name(t.status).removeprefix("TABLE_STATUS_"),
        options=_json(t.options_json),
        host_user_id=t.host_user_id,
        seats=tuple(seat_from_proto(s) for s in t.seats),
        private=t.private,
        version=t.version,
    )


def game_from_proto(g: lobby_pb2.GameInfo) -> GameInfo:
    return GameInfo(
        id=g.id,
        rules_version=g.rules_version,
        title=dict(g.title),
        min_seats=g.min_seats,
        max_seats=g.max_seats,
        options_schema=_json(g.options_schema_json),
        supports_teams=g.supports_teams,
    )


def chat_from_proto(m: lobby_pb2.ChatMessage) -> ChatMessage:
    return ChatMessage(m.number, m.user_id, m.name, m.seat if m.seat >= 0 else None, m.text, m.at_unix_ms)


def checked_from_proto(reply: match_pb2.CheckCommandResponse) -> Checked:
    refusal = None if reply.accepted else error_from_status(reply.refusal)
    return Checked(reply.version, reply.accepted, refusal)


def decision_from_proto(d: match_pb2.Decision) -> Decision:
    return Decision(d.key, d.seat, d.kind, d.clock, d.opened_at_unix_ms, d.clock_ms, d.deadline_unix_ms, d.reaction)


def view_from_proto(v: match_pb2.TableView) -> TableView:
    moves = tuple(legal_move_from_proto(m) for m in v.legal_moves)
    return TableView(
        table=v.table,
        game=v.game,
        version=v.version,
        role=_MATCH_ROLE_BACK.get(v.role, Role.DEFAULT),
        seat=v.seat if v.seat >= 0 else None,
        state=_json(v.view_json),
        legal=tuple(spelled_out(moves)),
        decisions=tuple(decision_from_proto(d) for d in v.decisions),
        finished=v.finished,
        outcome=_json(v.outcome_json) if v.outcome_json else None,
        moves=moves,
        teams=tuple(tuple(t.seats) for t in v.teams),
    )


def journal_from_proto(line: projection_pb2.JournalLine) -> JournalLine:
    return JournalLine(line.version, line.code, _json(line.params_json), line.ru, line.en)


def update_from_proto(u: projection_pb2.WatchTableResponse) -> Update:
    return Update(
        table=u.table,
        snapshot=u.kind == projection_pb2.UPDATE_KIND_SNAPSHOT,
        version=u.version,
        role=_PROJECTION_ROLE_BACK.get(u.role, Role.DEFAULT),
        seat=u.seat if u.seat >= 0 else None,
        game=u.game,
        state=_json(u.view_json),
        journal=tuple(journal_from_proto(line) for line in u.journal),
        decisions=tuple(decision_from_proto(d) for d in u.decisions),
        finished=u.finished,
        outcome=_json(u.outcome_json) if u.outcome_json else None,
    )
