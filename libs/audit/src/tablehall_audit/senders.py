"""Who may have caused each event: the lobby's rules and the match's seats,
checked from the senders recorded in the metadata (`actor`, `operator`).

Lobby events: each is one the lobby's rules allow from its recorded sender
(the host for the table's settings, bots and the start; the user themself for
taking, leaving and reclaiming a seat or entering; the lobby itself for
presence; an operator, flagged as such, for removing a present player or
closing someone's table), and seats are taken, left and removed only where
the table's own events put someone. `match.Started` seats the roster the lobby
froze (`StartRequested`). A player's command is sent by that seat's user or
by one of our services (`service:*`: the lobby, the bot, the timer).

Lobby events written before the lobby recorded senders carry none; once a
stream's events carry a sender, every later lobby event must.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

from tablehall_audit.events import AuditEvent

PRESENCE_SENDER = "system:presence"
PINS_SENDER = "system:pins"
SERVICE_PREFIX = "service:"

# settings and table actions the host (or an operator) decides, each with its `by`
_HOST_ACTIONS = frozenset(
    {
        "OptionsChanged",
        "PrivacyChanged",
        "SpectatorsAllowed",
        "SpectatorChatAllowed",
        "BotSeatsToSpectators",
        "Invited",
        "BotAdded",
        "BotRemoved",
        "SpectatorRemoved",
        "SeatHandedToBot",
    }
)
# a user's own doing: the event's user_id is its sender
_OWN_ACTIONS = frozenset({"SeatTaken", "SeatLeft", "SpectatorEntered", "SeatReclaimed", "BotSeatTaken"})
_KNOWN = (
    _HOST_ACTIONS
    | _OWN_ACTIONS
    | {
        "TableCreated",
        "StartRequested",
        "StartAborted",
        "PlayerRemoved",
        "PresenceChanged",
        "TableClosed",
    }
)


class SenderError(Exception):
    def __init__(self, version: int, message: str) -> None:
        super().__init__(message)
        self.version = version
        self.message = message


@dataclass
class Senders:
    """Folds the facts the checks need: the host, who sits, the frozen roster."""

    host: str = ""
    seated: set[str] = field(default_factory=set)
    roster: list[str] | None = None
    recorded: bool = False  # a lobby event with a sender was seen
    unchecked: int = 0  # lobby events from before senders were recorded

    def lobby(self, event: AuditEvent) -> None:
        kind = event.type.removeprefix("lobby.")
        if kind not in _KNOWN:
            raise SenderError(event.version, f"{event.type} is not an event the lobby writes")
        try:
            data: dict[str, Any] = msgspec.json.decode(event.payload)
        except msgspec.DecodeError as exc:
            raise SenderError(event.version, f"unreadable {event.type}: {exc}") from exc
        sender = event.metadata.get("actor")
        operator = event.metadata.get("operator") is True
        if sender is None:
            if self.recorded or event.hash_scheme >= 2:
                raise SenderError(event.version, f"{event.type} records no sender")
            self.unchecked += 1
        else:
            self.recorded = True
            self._check(event.version, kind, data, str(sender), operator)
        self._fold(kind, data)

    def _check(self, version: int, kind: str, data: dict[str, Any], sender: str, operator: bool) -> None:
        def refuse(why: str) -> SenderError:
            return SenderError(version, f"lobby.{kind} from {sender!r}: {why}")

        if kind == "PresenceChanged":
            if sender != PRESENCE_SENDER:
                raise refuse("presence is recorded by the lobby itself")
            if str(data.get("user_id")) not in self.seated:
                raise refuse("that user has no seat")
            return
        if (kind == "PinGuessesLimited") != (sender == PINS_SENDER):
            raise refuse("PIN-guessing notices are recorded by the lobby's PIN guard, and only those")
        if kind == "PinGuessesLimited":
            return
        if sender == PRESENCE_SENDER:
            raise refuse("the lobby's presence sender only records presence")
        if kind == "TableCreated":
            if version != 1 or data.get("host_user_id") != sender:
                raise refuse("a table is created first, by its host")
            return
        if not self.host:
            raise refuse("before the table was created")
        by = data.get("by")
        if by is not None and by != sender:
            raise refuse(f"the event says it was done by {by!r}")
        if kind in _HOST_ACTIONS:
            if sender != self.host and not operator:
                raise refuse("only the host (or an operator) does that")
        elif kind in ("StartRequested", "StartAborted"):
            if sender != self.host:
                raise refuse("only the host starts the table")
        elif kind in _OWN_ACTIONS:
            if data.get("user_id") != sender:
                raise refuse(f"it is {data.get('user_id')!r}'s own doing")
            if kind in ("SeatLeft", "SeatReclaimed") and sender not in self.seated:
                raise refuse("that user has no seat")
        elif kind == "PlayerRemoved":
            if sender != self.host and not (operator and data.get("by_operator")):
                raise refuse("only the host (or an operator) removes a player")
            if data.get("was_present") and not (operator and data.get("by_operator")):
                raise refuse("only an operator removes a present player")
            if str(data.get("user_id")) not in self.seated:
                raise refuse("that user has no seat")
        elif kind == "TableClosed" and sender != self.host and not (operator and data.get("by_operator")):
            raise refuse("only the host (or an operator) closes the table")

    def _fold(self, kind: str, data: dict[str, Any]) -> None:
        user = str(data.get("user_id", ""))
        if kind == "TableCreated":
            self.host = str(data.get("host_user_id", ""))
            self.seated = {self.host}
        elif kind in ("SeatTaken", "BotSeatTaken"):
            self.seated.add(user)
        elif kind in ("SeatLeft", "PlayerRemoved"):
            self.seated.discard(user)
        elif kind == "StartRequested":
            self.roster = [str(s.get("user_id")) for s in data.get("seats", [])]
            self.seated |= {u for u in self.roster if not u.startswith("bot")}

    def started(self, version: int, seats: list[str]) -> None:
        """match.Started must seat the roster the lobby froze (when the lobby started it)."""
        if self.roster is not None and seats != self.roster:
            raise SenderError(version, "match.Started seats other players than the lobby's roster")

    @staticmethod
    def command(version: int, metadata: dict[str, Any], seat: Any, seat_user: str | None) -> None:
        """A seat's command comes from its user or from one of our services."""
        actor = metadata.get("actor")
        if actor is None:
            raise SenderError(version, "the command records no actor")
        if not isinstance(actor, str):
            raise SenderError(version, "unreadable actor")
        if actor.startswith(SERVICE_PREFIX):
            return
        if metadata.get("timeout") or metadata.get("decision_key"):
            raise SenderError(version, f"a timeout sent by {actor!r}: only the timer service sends those")
        if seat is not None and actor != seat_user:
            raise SenderError(version, f"seat {seat}'s command sent by {actor!r}, not by its player {seat_user!r}")
