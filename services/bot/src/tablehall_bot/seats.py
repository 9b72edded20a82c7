"""Which seats of a table a bot plays: a fold of the table's stream.

- a seat with `is_bot` in `match.Started.seats` (difficulty from its
  `lobby.BotAdded`), unless a spectator took it over (`lobby.BotSeatTaken`)
  or the host removed the bot (`lobby.BotRemoved`: the game takes it out);
- a player's seat handed to a bot (`lobby.SeatHandedToBot`) until the player
  reclaims it (`lobby.SeatReclaimed`).

It also keeps the table's latest open decisions (the `pending` metadata of
the last event of each command), whether the match has ended, and the game's
state (`game`: the stream folded through the game's evolve, as the projection
folds it), from which a bot's seat view and legal moves are rendered here
rather than asked of the match.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import msgspec
import structlog

from tablehall_rules import PendingDecision
from tablehall_stream.fold import TableFold
from tablehall_stream.names import ENDED, STARTED

log = structlog.get_logger("bot.seats")

BOT_ADDED = "lobby.BotAdded"
HANDED = "lobby.SeatHandedToBot"
RECLAIMED = "lobby.SeatReclaimed"
TAKEN = "lobby.BotSeatTaken"
BOT_REMOVED = "lobby.BotRemoved"
# events after which the bot may have something to do although they carry no `pending`
SEAT_EVENTS = frozenset({STARTED, HANDED, RECLAIMED, TAKEN})


@dataclass(frozen=True)
class BotSeat:
    seat: int
    user_id: str
    difficulty: str
    handed_over: bool


class Relayed(NamedTuple):
    """An event as TableFold reads it (a stored one, or one the publisher relayed)."""

    version: int
    type: str
    schema_version: int
    payload: bytes
    metadata: dict[str, Any]


@dataclass
class TableSeats:
    handed_difficulty: str = "easy"
    game: str = ""
    version: int = 0
    ended: bool = False
    bot_users: dict[int, str] = field(default_factory=dict)  # bot seats at the start
    players: dict[int, str] = field(default_factory=dict)  # every seat's user at the start
    difficulty: dict[int, str] = field(default_factory=dict)  # from lobby.BotAdded
    taken: set[int] = field(default_factory=set)
    removed: set[int] = field(default_factory=set)
    handed: set[int] = field(default_factory=set)
    pending: list[dict[str, Any]] = field(default_factory=list)
    # the game's state at `version`; None once an event could not be folded (the match is asked)
    game_fold: TableFold | None = field(default_factory=lambda: TableFold(""))
    # the last event folded ended a command (its `pending` is written there): the state is one the
    # match shows, not one half way through a command's events
    at_command_end: bool = False

    def apply(
        self, version: int, event_type: str, payload: bytes, metadata: dict[str, Any], schema_version: int = 1
    ) -> None:
        self.version = version
        self.at_command_end = "pending" in metadata
        if self.game_fold is not None:
            try:
                self.game_fold.apply(Relayed(version, event_type, schema_version, payload, metadata))
            except Exception as exc:  # a stream this process cannot fold: its views come from the match
                log.warning("game state not folded", version=version, type=event_type, error=repr(exc))
                self.game_fold = None
        if "pending" in metadata:
            self.pending = list(metadata["pending"] or [])
        if event_type == STARTED:
            started = msgspec.json.decode(payload)
            self.game = started["game"]
            self.players = {s["seat"]: s["user_id"] for s in started["seats"]}
            self.bot_users = {s["seat"]: s["user_id"] for s in started["seats"] if s.get("is_bot")}
        elif event_type == ENDED:
            self.ended = True
            self.pending = []
        elif event_type == BOT_ADDED:
            added = msgspec.json.decode(payload)
            self.difficulty[added["seat"]] = added.get("difficulty", "easy")
        elif event_type == HANDED:
            self.handed.add(msgspec.json.decode(payload)["seat"])
        elif event_type == RECLAIMED:
            self.handed.discard(msgspec.json.decode(payload)["seat"])
        elif event_type == TAKEN:
            self.taken.add(msgspec.json.decode(payload)["seat"])
        elif event_type == BOT_REMOVED and self.game:  # removed before the start: no seat at all
            self.removed.add(msgspec.json.decode(payload)["seat"])

    def bot_seats(self) -> list[BotSeat]:
        if self.ended or not self.game:
            return []
        out = [
            BotSeat(seat, user, self.difficulty.get(seat, "easy"), False)
            for seat, user in sorted(self.bot_users.items())
            if seat not in self.taken and seat not in self.removed
        ]
        out += [
            BotSeat(seat, self.players.get(seat, ""), self.handed_difficulty, True)
            for seat in sorted(self.handed)
            if seat not in self.bot_users
        ]
        return sorted(out, key=lambda s: s.seat)

    @property
    def decisions(self) -> list[PendingDecision]:
        """The open decisions (`pending`) as the rules' own type."""
        return open_decisions(self.pending)

    def bot_deadline_ms(self) -> int | None:
        """When the first clock of a bot seat's open decision runs out (None: no such clock)."""
        return earliest_deadline_ms(self.decisions, {s.seat for s in self.bot_seats()})

    def waiting_seats(self) -> list[tuple[BotSeat, list[str]]]:
        """Bot seats with open decisions, each with its decision keys."""
        keys: dict[int, list[str]] = {}
        for d in self.pending:
            keys.setdefault(int(d["seat"]), []).append(str(d["key"]))
        return [(s, sorted(keys[s.seat])) for s in self.bot_seats() if s.seat in keys]


def open_decisions(pending: list[dict[str, Any]]) -> list[PendingDecision]:
    """A command's `pending` metadata as the decisions it names."""
    return msgspec.convert(pending, list[PendingDecision])


def earliest_deadline_ms(decisions: Iterable[PendingDecision], seats: set[int] | None = None) -> int | None:
    """When the first clock of the `decisions` (of `seats` only, unless None) runs out; reaction
    windows have no clock. None: no clock at all."""
    return min(
        (d.deadline_ms for d in decisions if d.has_clock and (seats is None or d.seat in seats)),
        default=None,
    )
