"""Who may look at a table as what: the match service's rules, applied here.

A seated user watches their own seat (asking for nothing in particular gets
the seat if they have one); anyone signed in may spectate; the auditor's view
(everything) is for operators and services, and for finished tables only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tablehall_eventstore import EventStore
from tablehall_platform.auth import Principal
from tablehall_platform.errors import PermissionDenied, Refused
from tablehall_platform.table_access import TableAccess
from tablehall_rules import SeatInfo
from tablehall_stream.names import stream_id


@dataclass(frozen=True)
class Role:
    name: str  # "seat" | "spectator" | "auditor"
    seat: int | None = None

    @property
    def key(self) -> tuple[str, int | None]:
        return (self.name, self.seat)


def own_seats(principal: Principal, seats: Sequence[SeatInfo]) -> list[int]:
    return [s.seat for s in seats if s.user_id == principal.user_id]


def resolve(principal: Principal, seats: Sequence[SeatInfo], requested: str, finished: bool) -> Role:
    """The role a caller gets for `requested` ("" = their own seat, else spectator)."""
    own = own_seats(principal, seats)
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
    return Role("spectator")


def may_audit(principal: Principal, seats: Sequence[SeatInfo]) -> bool:
    """Verification of a finished table: operators, services and its own players."""
    return principal.is_operator or principal.is_service or bool(own_seats(principal, seats))


def visible_version(role: Role, version: int, delay: int, finished: bool) -> int:
    """The newest version `role` may see: spectators trail by the table's delay until the end."""
    if role.name == "spectator" and not finished:
        return max(0, version - delay)
    return version


async def require_spectator(store: EventStore, principal: Principal, table_id: str, role: Role) -> None:
    """A spectator may watch only where the lobby's facts allow it (privacy, removal)."""
    if role.name != "spectator" or principal.is_operator or principal.is_service:
        return
    events = await store.read_stream(stream_id(table_id))
    TableAccess.fold(events).require_spectator(principal)
