"""The protobuf adapter: `tablehall.magnates.v1.Command` <-> command structs.

The only module that imports generated `*_pb2` code.
"""

from __future__ import annotations

from typing import Any

import msgspec

from magnates import commands as c
from magnates.errors import invalid
from tablehall.magnates.v1 import magnates_pb2 as pb

# oneof field name -> command type
_BY_FIELD: dict[str, type[msgspec.Struct]] = {
    "roll": c.Roll,
    "buy_company": c.BuyCompany,
    "upgrade": c.Upgrade,
    "arbitrage_buy": c.ArbitrageBuy,
    "buy_piece": c.BuyPiece,
    "attack_king": c.AttackKing,
    "end_stop": c.EndStop,
    "move_piece": c.MovePiece,
    "pass_move": c.PassMove,
    "pay_fine": c.PayFine,
    "raid": c.Raid,
    "set_presence": c.SetPresence,
    "set_controller": c.SetController,
    "remove_player": c.RemovePlayer,
    "close_table": c.CloseTable,
}
_BY_TYPE = {t: name for name, t in _BY_FIELD.items()}
_PIECE_TO_PB: dict[str, int] = {
    "queen": pb.PIECE_QUEEN,
    "rook": pb.PIECE_ROOK,
    "bishop": pb.PIECE_BISHOP,
    "knight": pb.PIECE_KNIGHT,
}
_PIECE_FROM_PB = {v: k for k, v in _PIECE_TO_PB.items()}
# the message GameCommand carries for this game
COMMAND_MESSAGE = pb.Command


def command_from_proto(msg: pb.Command) -> msgspec.Struct:
    """The command struct a message carries; `InvalidCommand` when it carries none or a bad field."""
    field = msg.WhichOneof("kind")
    if field is None:
        raise invalid("EMPTY_COMMAND", "The command carries no kind.", "В команде не указан её вид.")
    kind = _BY_FIELD[field]
    inner = getattr(msg, field)
    args: dict[str, Any] = {}
    for name in kind.__struct_fields__:
        value = getattr(inner, name)
        if name == "piece":
            if value not in _PIECE_FROM_PB:
                raise invalid(
                    "BAD_FIELD", f"Field {field}.piece is missing or invalid.", f"Поле {field}.piece неверно."
                )
            value = _PIECE_FROM_PB[value]
        args[name] = value
    return kind(**args)


def command_to_proto(cmd: msgspec.Struct) -> pb.Command:
    field = _BY_TYPE.get(type(cmd))
    if field is None:
        raise invalid("UNKNOWN_COMMAND", f"Unknown command {type(cmd).__name__}.", "Неизвестная команда.")
    msg = pb.Command()
    inner = getattr(msg, field)
    inner.SetInParent()
    for name in type(cmd).__struct_fields__:
        value = getattr(cmd, name)
        if name == "piece":
            if value not in _PIECE_TO_PB:
                raise invalid("NO_SUCH_PIECE", "No such piece.", "Нет такой фигуры.")
            value = _PIECE_TO_PB[value]
        setattr(inner, name, value)
    return msg
