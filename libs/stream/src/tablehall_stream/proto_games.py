"""Game commands, legal moves and open decisions <-> the match API's protos.

Each game package has a `proto_codec` module with `command_from_proto(msg)`,
`command_to_proto(command)` and `COMMAND_MESSAGE` (its generated `Command`
class). A game built into the API has a field named by its id in
`GameCommand`; any other game travels packed in `GameCommand.other`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

import msgspec
from google.protobuf import struct_pb2
from google.protobuf.message import DecodeError, Message

from tablehall.match.v1 import match_pb2
from tablehall_rules import InvalidCommand, PendingDecision
from tablehall_rules.legal import Choice, IntRange, LegalMove, Param, Rule, expand_all
from tablehall_rules.registry import game_module
from tablehall_stream.codecs import command_codec

_codecs: dict[str, ModuleType] = {}
_BUILT_IN = frozenset(f.name for f in match_pb2.GameCommand.DESCRIPTOR.oneofs_by_name["game"].fields) - {"other"}


def _codec(game_id: str) -> ModuleType:
    module = _codecs.get(game_id)
    if module is None:
        module = importlib.import_module(f"{game_module(game_id)}.proto_codec")
        _codecs[game_id] = module
    return module


def _message_of(game_id: str, msg: match_pb2.GameCommand, check: Callable[[Message], None] | None = None) -> Message:
    which = msg.WhichOneof("game")
    if which is None:
        raise InvalidCommand("EMPTY_COMMAND", "The command is empty.", "Команда пуста.")
    if which == "other":
        inner: Message = _codec(game_id).COMMAND_MESSAGE()
        if not msg.other.Is(inner.DESCRIPTOR):
            raise InvalidCommand(
                "WRONG_GAME",
                f"This table plays {game_id}, not {msg.other.TypeName()}.",
                f"За этим столом играют в {game_id}.",
            )
        try:
            msg.other.Unpack(inner)
        except DecodeError as exc:  # corrupt bytes, invalid UTF-8 in a string field
            raise InvalidCommand(
                "MALFORMED_REQUEST",
                f"GameCommand.other holds no valid {msg.other.TypeName()} ({exc}).",
                "GameCommand.other повреждён (неверный protobuf или UTF-8).",
            ) from exc
        if check is not None:  # the input policy, which the edge could not apply inside the Any
            check(inner)
        return inner
    if which != game_id:
        raise InvalidCommand(
            "WRONG_GAME", f"This table plays {game_id}, not {which}.", f"За этим столом играют в {game_id}."
        )
    field: Message = getattr(msg, which)
    return field


def command_from_proto(
    game_id: str, msg: match_pb2.GameCommand, check: Callable[[Message], None] | None = None
) -> msgspec.Struct:
    """The game's command; `check` (the input policy) is applied to a command packed in `other`."""
    result: msgspec.Struct = _codec(game_id).command_from_proto(_message_of(game_id, msg, check))
    return result


def command_to_proto(game_id: str, command: msgspec.Struct) -> match_pb2.GameCommand:
    inner: Any = _codec(game_id).command_to_proto(command)
    out = match_pb2.GameCommand()
    if game_id in _BUILT_IN:
        getattr(out, game_id).CopyFrom(inner)
    else:
        out.other.Pack(inner)
    return out


def decision_to_proto(d: PendingDecision) -> match_pb2.Decision:
    """An open decision with its clock, as every service shows it."""
    return match_pb2.Decision(
        key=d.key,
        seat=d.seat,
        kind=d.kind,
        clock=d.clock,
        opened_at_unix_ms=d.opened_at_ms,
        clock_ms=d.clock_ms,
        deadline_unix_ms=d.deadline_ms,
        reaction=d.reaction,
    )


def decision_from_proto(d: match_pb2.Decision) -> PendingDecision:
    return PendingDecision(
        d.key, d.seat, d.kind, d.clock, d.opened_at_unix_ms, d.clock_ms, reaction=d.reaction or False
    )


# ---- legal moves -----------------------------------------------------------


# The same values come again and again in descriptors (a domino's cells, a lot): each one's
# Value is built once and copied (in C) into every message that holds it; kept by its JSON.
VALUE_CACHE = 16384
_values: dict[bytes, struct_pb2.Value] = {}
_plains: dict[bytes, Any] = {}


def _value(data: Any) -> struct_pb2.Value:
    key = _encode(data)
    value = _values.get(key)
    if value is None:
        if len(_values) >= VALUE_CACHE:
            _values.clear()
        value = _values[key] = struct_pb2.Value()
        _fill_value(value, msgspec.to_builtins(data))
    return value


def _fill_value(value: struct_pb2.Value, data: Any) -> None:
    """`data` (plain JSON data) into `value`, as `json_format.ParseDict` writes it, without its
    per-field reflection (a tenth of the cost)."""
    if data is None:
        value.null_value = struct_pb2.NULL_VALUE
    elif isinstance(data, bool):
        value.bool_value = data
    elif isinstance(data, int | float):
        value.number_value = data
    elif isinstance(data, str):
        value.string_value = data
    elif isinstance(data, list):
        items = value.list_value
        items.SetInParent()
        for item in data:
            _fill_value(items.values.add(), item)
    elif isinstance(data, dict):
        fields = value.struct_value
        fields.SetInParent()
        for key, item in data.items():
            _fill_value(fields.fields[key], item)
    else:
        raise TypeError(f"not JSON data: {type(data).__name__}")


def _param_to_proto(p: Param) -> match_pb2.MoveParameter:
    d = p.domain
    if isinstance(d, IntRange):
        return match_pb2.MoveParameter(field=p.field, range=match_pb2.IntegerRange(min=d.lo, max=d.hi, step=d.step))
    if isinstance(d, Choice):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in d.values):
            return match_pb2.MoveParameter(field=p.field, choice=match_pb2.ValueChoice(integers=d.values))
        return match_pb2.MoveParameter(
            field=p.field, choice=match_pb2.ValueChoice(values=[_value(v) for v in d.values])
        )
    return match_pb2.MoveParameter(
        field=p.field, rule=match_pb2.EngineRule(name=d.name, examples=[_value(v) for v in d.examples])
    )


def legal_move_to_proto(game_id: str, lm: LegalMove) -> match_pb2.LegalMove:
    return match_pb2.LegalMove(
        command=command_to_proto(game_id, lm.command), parameters=[_param_to_proto(p) for p in lm.params]
    )


# Legal moves repeat from one answer to the next (a player's turn offers the same few): their
# protos are kept, keyed by the game, the command's type and the descriptor's JSON (commands and
# domains are tagged, so equal JSON is an equal descriptor). Callers copy them into their view
# (a repeated field's items are copied), so a kept proto is never changed.
LEGAL_PROTO_CACHE = 4096
_legal_protos: dict[tuple[str, type, bytes], match_pb2.LegalMove] = {}
_encode = msgspec.json.encode


def legal_moves_to_proto(game_id: str, moves: Sequence[LegalMove]) -> list[match_pb2.LegalMove]:
    """`legal_move_to_proto` of each move, from the kept protos when the same move was shown before."""
    out = []
    for lm in moves:
        key = (game_id, type(lm.command), _encode(lm))
        proto = _legal_protos.get(key)
        if proto is None:
            if len(_legal_protos) >= LEGAL_PROTO_CACHE:
                _legal_protos.clear()
            proto = _legal_protos[key] = legal_move_to_proto(game_id, lm)
        out.append(proto)
    return out


def _plain(value: struct_pb2.Value) -> Any:
    """A Value as plain data; JSON numbers come back as floats, integral ones become ints
    (a struct's float field takes an int as well). Kept by the Value's bytes, as `_value` keeps
    Values: callers only read what it returns."""
    kind = value.WhichOneof("kind")
    if kind == "list_value" or kind == "struct_value":
        key = value.SerializeToString(deterministic=True)
        data = _plains.get(key)
        if data is None:
            if len(_plains) >= VALUE_CACHE:
                _plains.clear()
            data = _plains[key] = _plain_of(value, kind)
        return data
    return _plain_of(value, kind)


def _plain_of(value: struct_pb2.Value, kind: str | None) -> Any:
    if kind == "list_value":
        return [_plain_of(v, v.WhichOneof("kind")) for v in value.list_value.values]
    if kind == "struct_value":
        return {k: _plain_of(v, v.WhichOneof("kind")) for k, v in value.struct_value.fields.items()}
    if kind == "number_value":
        number = value.number_value
        return int(number) if number.is_integer() else number
    if kind == "string_value":
        return value.string_value
    if kind == "bool_value":
        return value.bool_value
    return None  # null_value, or no kind set


def _param_from_proto(p: match_pb2.MoveParameter) -> Param:
    which = p.WhichOneof("domain")
    if which == "range":
        return Param(p.field, IntRange(p.range.min, p.range.max, p.range.step or 1))
    if which == "choice":
        return Param(p.field, Choice(list(p.choice.integers) or [_plain(v) for v in p.choice.values]))
    return Param(p.field, Rule(p.rule.name, [_plain(v) for v in p.rule.examples]))


def legal_move_from_proto(game_id: str, msg: match_pb2.LegalMove) -> LegalMove:
    """A descriptor as a client with the game's engine (the bot service) reads it back."""
    return LegalMove(command_from_proto(game_id, msg.command), [_param_from_proto(p) for p in msg.parameters])


# What a client with the game's engine reads from a descriptor it was shown before: the same
# few come in answer after answer, so each one's commands are spelled out once, keyed by its
# bytes (descriptors and commands are immutable, so a kept list is shared safely).
# A descriptor spelling out more than this (a wide bid range) is spelled out each time, only as
# far as the caller's limit. The kept commands are bounded in number, not the descriptors: a
# board's domino placements are hundreds of commands a descriptor, and 8,192 descriptors of them
# held a bot process at half a gigabyte.
SPELLED_COMMANDS = 32_768
SPELLED_MAX = 512
_spelled: dict[tuple[str, bytes], tuple[msgspec.Struct, ...]] = {}
_spelled_count = [0]  # commands kept in _spelled


def _spelled_out(game_id: str, msg: match_pb2.LegalMove, limit: int | None) -> Sequence[msgspec.Struct]:
    key = (game_id, msg.SerializeToString(deterministic=True))
    commands = _spelled.get(key)
    if commands is None:
        lm = legal_move_from_proto(game_id, msg)
        if lm.size() > SPELLED_MAX:
            return expand_all([lm], command_codec(game_id), limit=limit)
        commands = tuple(expand_all([lm], command_codec(game_id)))
        if _spelled_count[0] + len(commands) > SPELLED_COMMANDS:
            _spelled.clear()
            _spelled_count[0] = 0
        _spelled[key] = commands
        _spelled_count[0] += len(commands)
    return commands


def legal_commands_of(view: match_pb2.TableView, limit: int | None = None) -> list[msgspec.Struct]:
    """The commands a TableView's legal moves spell out (rule parameters: their examples), at
    most `limit`."""
    out: list[msgspec.Struct] = []
    for m in view.legal_moves:
        out.extend(_spelled_out(view.game, m, None if limit is None else limit - len(out)))
        if limit is not None and len(out) >= limit:
            return out[:limit]
    return out
