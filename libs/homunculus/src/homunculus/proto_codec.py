"""The protobuf adapter: `tablehall.homunculus.v1.Command` <-> command structs.

The only module that imports generated `*_pb2` code. Optional cells and colours left unset
are the structs' -1 ("none").
"""

from __future__ import annotations

from typing import Any

import msgspec

from homunculus import commands as c
from homunculus.errors import invalid
from tablehall.homunculus.v1 import homunculus_pb2 as pb

_BY_FIELD: dict[str, type[msgspec.Struct]] = {
    "play_card": c.PlayCard,
    "place_domino": c.PlaceDomino,
    "draw_card": c.DrawCard,
    "exchange_card": c.ExchangeCard,
    "keep_card": c.KeepCard,
    "free_move": c.FreeMove,
    "end_turn": c.EndTurn,
    "say_uno": c.SayUno,
    "catch_uno": c.CatchUno,
    "surrender": c.Surrender,
    "remove_seat": c.RemoveSeat,
    "close_table": c.CloseTable,
    "buy_item": c.BuyItem,
    "use_item": c.UseItem,
    "roll_dice": c.RollDice,
    "pay_fine": c.PayFine,
    "use_pass": c.UsePass,
    "buy_lot": c.BuyLot,
    "decline_lot": c.DeclineLot,
    "bid": c.Bid,
    "pass_bid": c.PassBid,
    "build": c.Build,
    "mortgage": c.Mortgage,
    "redeem": c.Redeem,
    "offer_trade": c.OfferTrade,
    "answer_trade": c.AnswerTrade,
}
_BY_TYPE = {t: name for name, t in _BY_FIELD.items()}
COMMAND_MESSAGE = pb.Command
_OPTIONAL = ("origin", "target", "choose_colour")
_REPEATED = ("cells", "give_lots", "get_lots")


def command_from_proto(msg: pb.Command) -> msgspec.Struct:
    """The command a message carries; `InvalidCommand` when it carries none."""
    field = msg.WhichOneof("kind")
    if field is None:
        raise invalid("EMPTY_COMMAND", "The command carries no kind.", "В команде не указан её вид.")
    kind = _BY_FIELD[field]
    inner: Any = getattr(msg, field)
    values: dict[str, Any] = {}
    for f in msgspec.structs.fields(kind):
        if f.name in _OPTIONAL and kind is c.PlayCard:
            values[f.name] = getattr(inner, f.name) if inner.HasField(f.name) else -1
        elif f.name in _REPEATED:
            values[f.name] = list(getattr(inner, f.name))
        else:
            values[f.name] = getattr(inner, f.name)
    return kind(**values)


def command_to_proto(command: msgspec.Struct) -> pb.Command:
    field = _BY_TYPE.get(type(command))
    if field is None:
        raise TypeError(f"not a Гомункул command: {command!r}")
    msg = pb.Command()
    inner: Any = getattr(msg, field)
    inner.SetInParent()
    for f in msgspec.structs.fields(type(command)):
        value = getattr(command, f.name)
        if f.name in _OPTIONAL and isinstance(command, c.PlayCard):
            if value != -1:
                setattr(inner, f.name, value)
        elif f.name in _REPEATED:
            getattr(inner, f.name).extend(value)
        else:
            setattr(inner, f.name, value)
    return msg
