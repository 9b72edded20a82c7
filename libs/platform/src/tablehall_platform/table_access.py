"""Who may watch a table as a spectator, folded from the lobby's facts in the
table's own stream (`lobby.*` events), so every service that shows a table
(match, projection) applies the same rule:

- operators and our services always may;
- a spectator the host removed may not;
- nobody may while the host does not allow spectators;
- on a private table only those who entered with the PIN (or were invited).
"""

from __future__ import annotations

from collections.abc import Iterable
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


@dataclass
class TableAccess:
    private: bool = False
    spectators_allowed: bool = True
    entered: set[str] = field(default_factory=set)
    removed: set[str] = field(default_factory=set)

    def apply(self, event_type: str, payload: bytes) -> None:
        if not event_type.startswith("lobby."):
            return
        kind = event_type[6:]
        if kind not in _RELEVANT:
            return
        data: dict[str, Any] = msgspec.json.decode(payload)
        if kind == "TableCreated":
            self.private = bool(data.get("private"))
            self.spectators_allowed = bool(data.get("spectators_allowed", True))
        elif kind == "PrivacyChanged":
            self.private = bool(data.get("private"))
        elif kind == "SpectatorsAllowed":
            self.spectators_allowed = bool(data.get("allowed"))
        elif kind in ("SpectatorEntered", "Invited"):
            self.entered.add(str(data.get("user_id")))
        elif kind == "SpectatorRemoved":
            self.removed.add(str(data.get("user_id")))

    @classmethod
    def fold(cls, events: Iterable[StoredEvent]) -> TableAccess:
        access = cls()
        for event in events:
            access.apply(event.type, event.payload)
        return access

    def require_spectator(self, principal: Principal) -> None:
        """Raise PermissionDenied unless `principal` may watch as a spectator."""
        if principal.is_operator or principal.is_service:
            return
        if principal.user_id in self.removed:
            raise PermissionDenied(
                "REMOVED_FROM_TABLE", "The host removed you from this table.", ru="Хозяин убрал вас из-за стола."
            )
        if not self.spectators_allowed:
            raise PermissionDenied(
                "SPECTATORS_NOT_ALLOWED", "This table has no spectators.", ru="За этим столом нет зрителей."
            )
        if self.private and principal.user_id not in self.entered:
            raise PermissionDenied(
                "TABLE_PRIVATE",
                "This table is private: enter it with its PIN through the lobby first.",
                ru="Стол приватный: сначала войдите по PIN через лобби.",
            )


_RELEVANT = frozenset(
    {"TableCreated", "PrivacyChanged", "SpectatorsAllowed", "SpectatorEntered", "Invited", "SpectatorRemoved"}
)
