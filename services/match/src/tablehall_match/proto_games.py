"""Game commands <-> `GameCommand` protos, through each game's proto codec; open decisions."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

import msgspec

from tablehall.match.v1 import match_pb2
from tablehall_platform.errors import BadRequest
from tablehall_rules import PendingDecision
from tablehall_rules.registry import game_module

_codecs: dict[str, ModuleType] = {}


def _codec(game_id: str) -> ModuleType:
    module = _codecs.get(game_id)
    if module is None:
        module = importlib.import_module(f"{game_module(game_id)}.proto_codec")
        _codecs[game_id] = module
    return module


def command_from_proto(game_id: str, msg: match_pb2.GameCommand) -> msgspec.Struct:
    which = msg.WhichOneof("game")
    if which is None:
        raise BadRequest("EMPTY_COMMAND", "The command is empty.", ru="Команда пуста.")
    if which != game_id:
        raise BadRequest(
            "WRONG_GAME",
            f"This table plays {game_id}, not {which}.",
            ru=f"За этим столом играют в {game_id}.",
        )
    result: msgspec.Struct = _codec(game_id).command_from_proto(getattr(msg, which))
    return result


def command_to_proto(game_id: str, command: msgspec.Struct) -> match_pb2.GameCommand:
    inner: Any = _codec(game_id).command_to_proto(command)
    out = match_pb2.GameCommand()
    getattr(out, game_id).CopyFrom(inner)
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
    )
