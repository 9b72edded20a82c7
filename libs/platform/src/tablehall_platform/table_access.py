"""What a caller may see of a table, folded from the lobby's facts in the
table's own stream (`lobby.*` events). Every service that answers with table
facts, decisions or clocks (lobby, match, projection, timer, bot) asks here,
so one rule holds everywhere (docs/security.md, "What a non-member sees"):

- operators and our services see everything (`FULL`);
- members see everything: the host, the seated players (a player the host
  removed is no longer one, and never watches as their old seat);
- a spectator may watch (`SPECTATOR`, behind the table's `spectator_delay`)
  unless the host removed them or turned spectators off; on a private table
  only after entering with the PIN or by invitation;
- anyone else sees a public table's lobby card (`LISTING`: game, options,
  seats and who sits there, no progress: no version, views, clocks, bots,
  journal or standings) and of a private table only that it exists
  (`HIDDEN`: game, status, seat count and seats taken; never listed).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec

from tablehall_platform.auth import Principal
from tablehall_platform.errors import PermissionDenied


class StoredEvent(Protocol):
    @property
    def type(self) -> str: ...

    @property
    def payload(self) -> bytes: ...


class SeatHolder(Protocol):
    @property
    def seat(self) -> int: ...

    @property
    def user_id(self) -> str: ...


class Exposure(enum.IntEnum):
    """How much of a table a caller sees, least first."""

    HIDDEN = 0
    LISTING = 1
    SPECTATOR = 2
    FULL = 3


@dataclass
class TableAccess:
    private: bool = False
    spectators_allowed: bool = True
    entered: set[str] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)
    host: str = ""
    # seated by the lobby (before and after the start) and not gone
    seated: set[str] = field(default_factory=set)
    # removed from a seat by the host or an operator: no seat view, no watching
    removed_players: set[str] = field(default_factory=set)
    # the table's `spectator_delay` (read_access reads match.Started for it)
    spectator_delay: int = 0

    def apply(self, event_type: str, payload: bytes) -> None:
        if event_type == "match.Started":
            options = msgspec.json.decode(payload).get("table_options") or {}
            delay = options.get("spectator_delay", 0)
            self.spectator_delay = delay if isinstance(delay, int) and not isinstance(delay, bool) else 0
            return
        if not event_type.startswith("lobby."):
            return
        kind = event_type[6:]
        if kind not in _RELEVANT:
            return
        data: dict[str, Any] = msgspec.json.decode(payload)
        user = str(data.get("user_id", ""))
        if kind == "TableCreated":
            self.private = bool(data.get("private"))
            self.spectators_allowed = bool(data.get("spectators_allowed", True))
            self.host = str(data.get("host_user_id", ""))
            self.seated.add(self.host)
        elif kind == "PrivacyChanged":
            self.private = bool(data.get("private"))
        elif kind == "SpectatorsAllowed":
            self.spectators_allowed = bool(data.get("allowed"))
        elif kind in ("SpectatorEntered", "Invited"):
            self.entered.add(user)
        elif kind == "SpectatorRemoved":
            self.removed.add(user)
        elif kind in ("SeatTaken", "BotSeatTaken"):
            self.seated.add(user)
        elif kind == "SeatLeft":
            self.seated.discard(user)
        elif kind == "PlayerRemoved":
            self.seated.discard(user)
            self.removed_players.add(user)

    @classmethod
    def fold(cls, events: Iterable[StoredEvent]) -> TableAccess:
        access = cls()
        for event in events:
            access.apply(event.type, event.payload)
        return access

    # ---- who is who -----------------------------------------------------------

    def is_member(self, user_id: str, roster: Iterable[str] = ()) -> bool:
        """The host or a seated player (`roster`: the match's seats), unless removed."""
        if user_id in self.removed_players:
            return False
        return user_id == self.host or user_id in self.seated or user_id in roster

    def own_seats(self, principal: Principal, seats: Sequence[SeatHolder]) -> list[int]:
        """The caller's seats in `seats`; none for a removed player."""
        if principal.user_id in self.removed_players:
            return []
        return [s.seat for s in seats if s.user_id == principal.user_id]

    def spectator_refusal(self, principal: Principal) -> PermissionDenied | None:
        """Why `principal` may not watch as a spectator, or None."""
        if principal.is_operator or principal.is_service:
            return None
        if principal.user_id in self.removed or principal.user_id in self.removed_players:
            return PermissionDenied(
                "REMOVED_FROM_TABLE", "The host removed you from this table.", ru="Хозяин убрал вас из-за стола."
            )
        if not self.spectators_allowed:
            return PermissionDenied(
                "SPECTATORS_NOT_ALLOWED", "This table has no spectators.", ru="За этим столом нет зрителей."
            )
        if self.private and principal.user_id not in self.entered:
            return PermissionDenied(
                "TABLE_PRIVATE",
                "This table is private: enter it with its PIN through the lobby first.",
                ru="Стол приватный: сначала войдите по PIN через лобби.",
            )
        return None

    def require_spectator(self, principal: Principal) -> None:
        """Raise PermissionDenied unless `principal` may watch as a spectator."""
        refusal = self.spectator_refusal(principal)
        if refusal is not None:
            raise refusal

    def exposure(self, principal: Principal, roster: Iterable[str] = ()) -> Exposure:
        if principal.is_operator or principal.is_service or self.is_member(principal.user_id, roster):
            return Exposure.FULL
        if self.spectator_refusal(principal) is None:
            return Exposure.SPECTATOR
        return Exposure.HIDDEN if self.private else Exposure.LISTING

    def require_table_facts(self, principal: Principal, roster: Iterable[str] = ()) -> Exposure:
        """FULL or SPECTATOR; else the refusal a spectator would get (facts, decisions, clocks)."""
        found = self.exposure(principal, roster)
        if found < Exposure.SPECTATOR:
            self.require_spectator(principal)
        return found


def require_live_facts(facts: TableAccess, principal: Principal, roster: Iterable[str] = ()) -> None:
    """Live facts (clocks): members, operators, services, and spectators of an undelayed table."""
    if facts.require_table_facts(principal, roster) == Exposure.SPECTATOR and facts.spectator_delay > 0:
        raise PermissionDenied(
            "SPECTATOR_DELAYED",
            "Spectators of this table watch with a delay: its live clocks are for its players.",
            ru="Зрители этого стола смотрят с задержкой: живые часы — только для игроков.",
        )


def listing_exposure(principal: Principal, private: bool, members: Iterable[str]) -> Exposure:
    """In a listing: FULL for operators, services and members, else the lobby card
    (LISTING) of a public table; a private table is not listed (HIDDEN)."""
    if principal.is_operator or principal.is_service or principal.user_id in members:
        return Exposure.FULL
    return Exposure.HIDDEN if private else Exposure.LISTING


def visible_version(spectator: bool, version: int, delay: int, finished: bool) -> int:
    """The newest version a viewer may see: spectators trail by the table's delay until the end."""
    if spectator and not finished:
        return max(0, version - delay)
    return version


_ACCESS_SQL = (
    "SELECT type, payload::text FROM events WHERE stream_id = $1"
    " AND (type LIKE 'lobby.%' OR type = 'match.Started') ORDER BY version"
)


@dataclass(frozen=True)
class _Row:
    type: str
    payload: bytes


async def read_access(pool: Any, table_id: str) -> TableAccess:
    """The table's access facts from its stream (`pool`: an asyncpg pool on the event store)."""
    rows = await pool.fetch(_ACCESS_SQL, f"table-{table_id}")
    return TableAccess.fold(_Row(r[0], r[1].encode()) for r in rows)


_RELEVANT = frozenset(
    {
        "TableCreated",
        "PrivacyChanged",
        "SpectatorsAllowed",
        "SpectatorEntered",
        "Invited",
        "SpectatorRemoved",
        "SeatTaken",
        "BotSeatTaken",
        "SeatLeft",
        "PlayerRemoved",
    }
)
