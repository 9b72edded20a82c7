"""The protobuf adapter: `tablehall.puzzipolia.v1.Command` <-> command structs.

The only module that imports generated `*_pb2` code.
"""

from __future__ import annotations

from typing import Any

from puzzipolia import commands as c
from puzzipolia.errors import invalid
from puzzipolia.state import Bundle
from tablehall.puzzipolia.v1 import puzzipolia_pb2 as pb

# oneof field name -> command type; fields with the same name and an int type copy over
_BY_FIELD: dict[str, type[c.Command]] = {
    "roll_for_order": c.RollForOrder,
    "roll": c.Roll,
    "end_turn": c.EndTurn,
    "pay_jail_fine": c.PayJailFine,
    "use_jail_card": c.UseJailCard,
    "choose_67": c.Choose67,
    "buy": c.Buy,
    "decline_buy": c.DeclineBuy,
    "bid": c.Bid,
    "pass_auction": c.PassAuction,
    "close_auction": c.CloseAuction,
    "build": c.Build,
    "sell_building": c.SellBuilding,
    "mortgage": c.Mortgage,
    "unmortgage": c.Unmortgage,
    "pay_debt": c.PayDebt,
    "collect_debt": c.CollectDebt,
    "surrender": c.Surrender,
    "leave": c.Leave,
    "propose_trade": c.ProposeTrade,
    "accept_trade": c.AcceptTrade,
    "decline_trade": c.DeclineTrade,
    "withdraw_trade": c.WithdrawTrade,
    "propose_end": c.ProposeEnd,
    "vote_end": c.VoteEnd,
    "close_vote": c.CloseVote,
    "set_presence": c.SetPresence,
    "set_controller": c.SetController,
    "remove_player": c.RemovePlayer,
    "host_propose_end": c.HostProposeEnd,
    "operator_close": c.OperatorClose,
    "idle_close": c.IdleClose,
}
_BY_TYPE = {t: name for name, t in _BY_FIELD.items()}
# the message GameCommand carries for this game
COMMAND_MESSAGE = pb.Command
_INT_FIELDS = ("square", "amount", "offer_id", "seat")


def _bad(field: str) -> Exception:
    return invalid("BAD_FIELD", f"Field {field} is missing or invalid.", f"Поле {field} отсутствует или неверно.")


def _bundle_from(msg: Any) -> Bundle:
    return Bundle(lots=list(msg.lots), money=msg.money, cards=list(msg.cards))


def _bundle_to(bundle: Bundle, msg: Any) -> None:
    msg.lots.extend(bundle.lots)
    msg.money = bundle.money
    msg.cards.extend(bundle.cards)


def command_from_proto(msg: pb.Command) -> c.Command:
    """The command struct a message carries; `InvalidCommand` when it carries none or a bad field."""
    field = msg.WhichOneof("kind")
    if field is None:
        raise invalid("EMPTY_COMMAND", "The command carries no kind.", "В команде не указан её вид.")
    kind = _BY_FIELD[field]
    inner = getattr(msg, field)
    if kind is c.Choose67:
        if inner.steps not in (pb.STEPS67_SIX, pb.STEPS67_SEVEN):
            raise _bad("choose_67.steps")
        return c.Choose67(steps=int(inner.steps))
    if kind is c.VoteEnd:
        if inner.answer == pb.ANSWER_UNSPECIFIED:
            raise _bad("vote_end.answer")
        return c.VoteEnd(yes=inner.answer == pb.ANSWER_YES)
    if kind is c.SetPresence:
        if inner.presence == pb.PRESENCE_UNSPECIFIED:
            raise _bad("set_presence.presence")
        return c.SetPresence(seat=inner.seat, present=inner.presence == pb.PRESENCE_PRESENT)
    if kind is c.SetController:
        return c.SetController(seat=inner.seat, by_bot=inner.by_bot)
    if kind is c.ProposeTrade:
        return c.ProposeTrade(to_seat=inner.to_seat, give=_bundle_from(inner.give), get=_bundle_from(inner.get))
    args = {name: getattr(inner, name) for name in _INT_FIELDS if name in kind.__struct_fields__}
    return kind(**args)


def command_to_proto(cmd: c.Command) -> pb.Command:
    msg = pb.Command()
    field = _BY_TYPE.get(type(cmd))
    if field is None:
        raise invalid("UNKNOWN_COMMAND", f"Unknown command {type(cmd).__name__}.", "Неизвестная команда.")
    inner = getattr(msg, field)
    inner.SetInParent()
    if isinstance(cmd, c.Choose67):
        inner.steps = cmd.steps
    elif isinstance(cmd, c.VoteEnd):
        inner.answer = pb.ANSWER_YES if cmd.yes else pb.ANSWER_NO
    elif isinstance(cmd, c.SetPresence):
        inner.seat = cmd.seat
        inner.presence = pb.PRESENCE_PRESENT if cmd.present else pb.PRESENCE_ABSENT
    elif isinstance(cmd, c.SetController):
        inner.seat = cmd.seat
        inner.by_bot = cmd.by_bot
    elif isinstance(cmd, c.ProposeTrade):
        inner.to_seat = cmd.to_seat
        _bundle_to(cmd.give, inner.give)
        _bundle_to(cmd.get, inner.get)
    else:
        for name in _INT_FIELDS:
            if name in type(cmd).__struct_fields__:
                setattr(inner, name, getattr(cmd, name))
    return msg
