"""Commands a seat (or the table itself) submits.

Seat commands need `ctx.seat`; the table's commands need `ctx.seat is None`:
the platform's four (`tablehall_rules.table`: SetPresence, SetController,
RemovePlayer, CloseTable) and this game's `HostProposeEnd`. `CloseAuction`
and `CloseVote` are clock-driven only: a run-out clock's default move.
"""

from __future__ import annotations

import msgspec

from puzzipolia.state import Bundle

# the platform's table commands, re-exported for this game's modules and its tests
from tablehall_rules.table import TABLE_COMMANDS
from tablehall_rules.table import CloseTable as CloseTable
from tablehall_rules.table import RemovePlayer as RemovePlayer
from tablehall_rules.table import SetController as SetController
from tablehall_rules.table import SetPresence as SetPresence


class Command(msgspec.Struct, frozen=True, kw_only=True, tag=True):
    """Base of every Пузиполия command (tagged by class name)."""


# --- turn ---------------------------------------------------------------------
class RollForOrder(Command, frozen=True, kw_only=True):
    """Roll two dice for the turn order (Бросок за очерёдность)."""


class Roll(Command, frozen=True, kw_only=True):
    """Roll two dice and move (Бросок)."""


class EndTurn(Command, frozen=True, kw_only=True):
    """End the turn (Конец хода)."""


class PayJailFine(Command, frozen=True, kw_only=True):
    """Pay 50 to leave jail before rolling (Заплатить 50)."""


class UseJailCard(Command, frozen=True, kw_only=True):
    """Hand in a get-out-of-jail card (Сдать карточку)."""


class Choose67(Command, frozen=True, kw_only=True):
    steps: int


# --- buying and auctions --------------------------------------------------------
class Buy(Command, frozen=True, kw_only=True):
    """Buy the lot landed on at its price (Купить)."""


class DeclineBuy(Command, frozen=True, kw_only=True):
    """Decline the lot: it goes to auction (Отказаться)."""


class Bid(Command, frozen=True, kw_only=True):
    amount: int


class PassAuction(Command, frozen=True, kw_only=True):
    """Drop out of the auction (Пас)."""


class CloseAuction(Command, frozen=True, kw_only=True):
    """Close the auction when its clock ran out: the last bid wins (timer only)."""


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
    """Pay the oldest debt in full (Заплатить долг)."""


class CollectDebt(Command, frozen=True, kw_only=True):
    """Mortgage and sell, cheapest first, to pay the oldest debt (Собрать)."""


class Surrender(Command, frozen=True, kw_only=True):
    """Give up: bankrupt to the creditor (Сдаться)."""


class Leave(Command, frozen=True, kw_only=True):
    """Leave the game ⚑; the game goes on (Выйти)."""


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
    """Propose ending the game for all ■ (Закончить для всех)."""


class VoteEnd(Command, frozen=True, kw_only=True):
    yes: bool


class CloseVote(Command, frozen=True, kw_only=True):
    """Close the end vote when its clock ran out (timer only)."""


# --- the table's own commands (ctx.seat is None) -----------------------------------------
class HostProposeEnd(Command, frozen=True, kw_only=True):
    """System: the host proposes ending the game for all ■. `host_seat` is the host's seat
    (-1: the host has none); a host still playing it proposes as that seat, any other host
    (unseated, bankrupt, left) as the host."""

    host_seat: int = -1


class OperatorClose(Command, frozen=True, kw_only=True):
    """Retired: `CloseTable(reason="operator")` before the game kit; read from old streams
    (and old clients) and decided as that."""


class IdleClose(Command, frozen=True, kw_only=True):
    """Retired: `CloseTable(reason="idle")` before the game kit (as `OperatorClose`)."""


# retired table commands -> the close reason they stand for
RETIRED_CLOSE = {OperatorClose: "operator", IdleClose: "idle"}


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
COMMAND_TYPES: tuple[type[msgspec.Struct], ...] = (
    *SEAT_COMMANDS,
    *TABLE_COMMANDS,
    HostProposeEnd,
    OperatorClose,
    IdleClose,
)
