"""Who may look at a table as what: the platform's rule
(`tablehall_platform.table_access`), applied here.

A seated user watches their own seat (asking for nothing in particular gets
the seat if they have one; a removed player has none); others spectate where
the lobby's facts allow it; the auditor's view (everything) is for operators
and services, and for finished tables only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tablehall_eventstore import EventStore
from tablehall_platform import table_access
from tablehall_platform.auth import Principal
from tablehall_platform.errors import PermissionDenied, Refused
from tablehall_platform.table_access import TableAccess
from tablehall_rules import SeatInfo


@dataclass(frozen=True)
class Role:
    name: str  # "seat" | "spectator" | "auditor"
    seat: int | None = None

    @property
    def key(self) -> tuple[str, int | None]:
        return (self.name, self.seat)


def resolve(
    principal: Principal, seats: Sequence[SeatInfo], requested: str, finished: bool, facts: TableAccess
) -> Role:
    """The role a caller gets for `requested` ("" = their own seat, else spectator);
    PermissionDenied where the lobby's facts forbid it."""
    own = facts.own_seats(principal, seats)
    if requested == "auditor":
        if not (principal.is_operator or principal.is_service):
            raise PermissionDenied(
                "NOT_ALLOWED", "The auditor view is for operators.", ru="Вид аудитора — для операторов."
            )
        if not finished:
            raise Refused(
                "MATCH_NOT_FINISHED", "Auditors see finished matches only.", ru="Аудитор видит только оконченные матчи."
            )
        return Role("auditor")
    if requested == "seat":
        if not own:
            raise PermissionDenied(
                "NOT_A_MEMBER", "You have no seat at this table.", ru="У вас нет места за этим столом."
            )
        return Role("seat", own[0])
    if requested == "" and own:
        return Role("seat", own[0])
    facts.require_spectator(principal)
    return Role("spectator")


def may_audit(principal: Principal, seats: Sequence[SeatInfo]) -> bool:
    """Verification of a finished table: operators, services and its own players."""
    return principal.is_operator or principal.is_service or any(s.user_id == principal.user_id for s in seats)


def visible_version(role: Role, version: int, delay: int, finished: bool) -> int:
    """The newest version `role` may see: spectators trail by the table's delay until the end."""
    return table_access.visible_version(role.name == "spectator", version, delay, finished)


async def facts(store: EventStore, table_id: str) -> TableAccess:
    """The lobby's facts of the table (who may see what)."""
    return await table_access.read_access(store.pool, table_id)
