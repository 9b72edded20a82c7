"""Commands a seat (or the table itself) submits.

Seat commands need `ctx.seat`; the system commands at the bottom need
`ctx.seat is None` (the platform issues them for the host, the operator and
presence tracking). `CloseAuction` and `CloseVote` are clock-driven only:
they are accepted only with `ctx.timeout=True` after their deadline.
"""

from __future__ import annotations

import msgspec

from puzzipolia.state import Bundle


class Command(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    pass


# --- turn ---------------------------------------------------------------------
class RollForOrder(Command, frozen=True, kw_only=True):
    pass


class Roll(Command, frozen=True, kw_only=True):
    pass


class EndTurn(Command, frozen=True, kw_only=True):
    pass


class PayJailFine(Command, frozen=True, kw_only=True):
    pass


class UseJailCard(Command, frozen=True, kw_only=True):
    pass


class Choose67(Command, frozen=True, kw_only=True):
    steps: int


# --- buying and auctions --------------------------------------------------------
class Buy(Command, frozen=True, kw_only=True):
    pass


class DeclineBuy(Command, frozen=True, kw_only=True):
    pass


class Bid(Command, frozen=True, kw_only=True):
    amount: int


class PassAuction(Command, frozen=True, kw_only=True):
    pass


class CloseAuction(Command, frozen=True, kw_only=True):
    pass


# --- property ---------------------------------------------------------------------
class Build(Command, frozen=True, kw_only=True):
    square: int


class SellBuilding(Command, frozen=True, kw_only=True):
    square: int


class Mortgage(Command, frozen=True, kw_only=True):
    square: int


class Unmortgage(Command, frozen=True, kw_only=True):
    square: int


# --- debts ------------------------------------------------------------------------
class PayDebt(Command, frozen=True, kw_only=True):
    pass


class CollectDebt(Command, frozen=True, kw_only=True):
    pass


class Surrender(Command, frozen=True, kw_only=True):
    pass


class Leave(Command, frozen=True, kw_only=True):
    pass


# --- trades -----------------------------------------------------------------------
class ProposeTrade(Command, frozen=True, kw_only=True):
    to_seat: int
    give: Bundle
    get: Bundle


class AcceptTrade(Command, frozen=True, kw_only=True):
    offer_id: int


class DeclineTrade(Command, frozen=True, kw_only=True):
    offer_id: int


class WithdrawTrade(Command, frozen=True, kw_only=True):
    offer_id: int


# --- the end vote -------------------------------------------------------------------
class ProposeEnd(Command, frozen=True, kw_only=True):
    pass


class VoteEnd(Command, frozen=True, kw_only=True):
    yes: bool


class CloseVote(Command, frozen=True, kw_only=True):
    pass


# --- system commands (ctx.seat is None) ------------------------------------------------
class SetPresence(Command, frozen=True, kw_only=True):
    seat: int
    present: bool


class SetController(Command, frozen=True, kw_only=True):
    """Who plays a seat: a bot (the host handed an absent player's seat over) or its player."""

    seat: int
    by_bot: bool


class RemovePlayer(Command, frozen=True, kw_only=True):
    """The host removed an absent player (or an operator anyone): they leave the game, as by ⚑."""

    seat: int


class HostProposeEnd(Command, frozen=True, kw_only=True):
    pass


class OperatorClose(Command, frozen=True, kw_only=True):
    pass


class IdleClose(Command, frozen=True, kw_only=True):
    pass


SEAT_COMMANDS: tuple[type[Command], ...] = (
    RollForOrder,
    Roll,
    EndTurn,
    PayJailFine,
    UseJailCard,
    Choose67,
    Buy,
    DeclineBuy,
    Bid,
    PassAuction,
    CloseAuction,
    Build,
    SellBuilding,
    Mortgage,
    Unmortgage,
    PayDebt,
    CollectDebt,
    Surrender,
    Leave,
    ProposeTrade,
    AcceptTrade,
    DeclineTrade,
    WithdrawTrade,
    ProposeEnd,
    VoteEnd,
    CloseVote,
)
SYSTEM_COMMANDS: tuple[type[Command], ...] = (
    SetPresence,
    SetController,
    RemovePlayer,
    HostProposeEnd,
    OperatorClose,
    IdleClose,
)
COMMAND_TYPES: tuple[type[Command], ...] = SEAT_COMMANDS + SYSTEM_COMMANDS
