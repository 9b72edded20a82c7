"""The protobuf adapter: `tablehall.dragons.v1.Command` <-> command structs.

The only module that imports generated `*_pb2` code.
"""

from __future__ import annotations

from typing import Any

from dragons import commands as c
from dragons.errors import invalid
from tablehall.dragons.v1 import dragons_pb2 as pb

_BY_FIELD: dict[str, type[c.Command]] = {
    "place_start": c.PlaceStart,
    "place_die": c.PlaceDie,
    "chess_move": c.ChessMove,
    "place_domino": c.PlaceDomino,
    "discard_die": c.DiscardDie,
    "place_black": c.PlaceBlack,
    "take_domino": c.TakeDomino,
    "set_presence": c.SetPresence,
    "set_controller": c.SetController,
    "remove_player": c.RemovePlayer,
    "close_table": c.CloseTable,
}
_BY_TYPE = {t: name for name, t in _BY_FIELD.items()}
# the message GameCommand carries for this game
COMMAND_MESSAGE = pb.Command
# fields copied as they are (same name, int or bool or a list of ints)
_PLAIN = ("cell", "face", "origin", "target", "promotion", "first", "second", "seat", "by_bot")
_LISTS = ("contour", "cells")
_CLOSE = {pb.CLOSE_REASON_OPERATOR: "operator", pb.CLOSE_REASON_IDLE: "idle"}


def _bad(field: str) -> Exception:
    return invalid("BAD_FIELD", f"Field {field} is missing or invalid.", f"Поле {field} отсутствует или неверно.")


def command_from_proto(msg: pb.Command) -> c.Command:
    """The command struct a message carries; `InvalidCommand` when it carries none or a bad field."""
    field = msg.WhichOneof("kind")
    if field is None:
        raise invalid("EMPTY_COMMAND", "The command carries no kind.", "В команде не указан её вид.")
    kind = _BY_FIELD[field]
    inner: Any = getattr(msg, field)
    if kind is c.TakeDomino:
        if inner.answer == pb.DOMINO_ANSWER_UNSPECIFIED:
            raise _bad("take_domino.answer")
        return c.TakeDomino(take=inner.answer == pb.DOMINO_ANSWER_TAKE)
    if kind is c.SetPresence:
        if inner.presence == pb.PRESENCE_UNSPECIFIED:
            raise _bad("set_presence.presence")
        return c.SetPresence(seat=inner.seat, present=inner.presence == pb.PRESENCE_PRESENT)
    if kind is c.CloseTable:
        if inner.reason not in _CLOSE:
            raise _bad("close_table.reason")
        return c.CloseTable(reason=_CLOSE[inner.reason])
    fields = kind.__struct_fields__
    args: dict[str, Any] = {name: getattr(inner, name) for name in _PLAIN if name in fields}
    args.update({name: list(getattr(inner, name)) for name in _LISTS if name in fields})
    return kind(**args)


def command_to_proto(cmd: c.Command) -> pb.Command:
    msg = pb.Command()
    field = _BY_TYPE.get(type(cmd))
    if field is None:
        raise invalid("UNKNOWN_COMMAND", f"Unknown command {type(cmd).__name__}.", "Неизвестная команда.")
    inner: Any = getattr(msg, field)
    inner.SetInParent()
    if isinstance(cmd, c.TakeDomino):
        inner.answer = pb.DOMINO_ANSWER_TAKE if cmd.take else pb.DOMINO_ANSWER_DECLINE
    elif isinstance(cmd, c.SetPresence):
        inner.seat = cmd.seat
        inner.presence = pb.PRESENCE_PRESENT if cmd.present else pb.PRESENCE_ABSENT
    elif isinstance(cmd, c.CloseTable):
        inner.reason = next(code for code, name in _CLOSE.items() if name == cmd.reason)
    else:
        fields = type(cmd).__struct_fields__
        for name in _PLAIN:
            if name in fields:
                setattr(inner, name, getattr(cmd, name))
        for name in _LISTS:
            if name in fields:
                getattr(inner, name).extend(getattr(cmd, name))
    return msg
