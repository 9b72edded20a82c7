"""The platform's one rule of who sees what of a table
(`tablehall_platform.table_access`), over the lobby's own state."""

from __future__ import annotations

from tablehall_lobby.identity import Actor
from tablehall_lobby.state import LobbyTable
from tablehall_platform.auth import Principal
from tablehall_platform.table_access import Exposure, TableAccess, listing_exposure


def access_of(table: LobbyTable) -> TableAccess:
    return TableAccess(
        private=table.private,
        spectators_allowed=table.spectators_allowed,
        entered=set(table.spectators) | set(table.invited),
        removed=set(table.removed_spectators),
        host=table.host_user_id,
        seated={s.user_id for s in table.seats if s is not None and not s.removed and not s.is_bot},
        removed_players=set(table.removed_players),
    )


def principal_of(actor: Actor) -> Principal:
    roles = frozenset({"player", "operator"} if actor.is_operator else {"player"})
    return Principal(actor.user_id, actor.name, roles)


def exposure(table: LobbyTable, actor: Actor) -> Exposure:
    return access_of(table).exposure(principal_of(actor))


def in_listing(table: LobbyTable, actor: Actor) -> Exposure:
    members = {table.host_user_id} | {s.user_id for s in table.seats if s is not None and not s.removed}
    return listing_exposure(principal_of(actor), table.private, members - set(table.removed_players))
