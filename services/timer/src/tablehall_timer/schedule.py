"""A table's clocks, derived from its stream alone (pure: no I/O, no clock).

`TableClock.apply` folds the events the timer cares about:

- `match.Started`: the seats (which are human) and the first move's time;
- any event whose metadata carries `pending`: the table's open decisions now
  (the last event of every committed command carries the full list);
- a command made for a seat and not by the clock (metadata `seat` set,
  `timeout` false): a move, which restarts the idle count;
- `lobby.PresenceChanged`: who is present; a table with human seats none of
  which is present stands still (no clock fires, and its bots' moves do not
  keep the idle close away) and its clocks restart from the moment somebody
  comes back;
- the first clocks wait for the players: no clock runs before every human
  seat has been present once (its client shows the table), or `first_wait_ms`
  after the start, whichever comes first;
- `match.Ended`: the table is finished; nothing more to do.

`next_action` says what is due next and when: a decision's default move or
the idle close. The rebuild after a restart and the live feed use the same
fold, so a restarted timer arrives at exactly the same schedule.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tablehall_rules import PendingDecision
from tablehall_stream.names import ENDED, STARTED

PRESENCE = "lobby.PresenceChanged"


class _Seat(msgspec.Struct):
    seat: int
    user_id: str = ""
    is_bot: bool = False


class _Started(msgspec.Struct):
    seats: list[_Seat]
    started_at_ms: int


class _Presence(msgspec.Struct):
    seat: int
    present: bool
    at_ms: int


_decode_started = msgspec.json.Decoder(_Started).decode
_decode_presence = msgspec.json.Decoder(_Presence).decode
_convert_pending = msgspec.convert


@dataclass(frozen=True, slots=True)
class Fire:
    """Make the default move for `decision`."""

    decision: PendingDecision


@dataclass(frozen=True, slots=True)
class CloseIdle:
    """Close the table: nobody moved since `last_move_ms`."""

    last_move_ms: int


Action = Fire | CloseIdle


@dataclass(slots=True)
class TableClock:
    table_id: str
    # how long the first clocks wait for every human seat's first presence
    first_wait_ms: int = 0
    position: int = 0
    started: bool = False
    finished: bool = False
    humans: frozenset[int] = frozenset()
    # user id of each seat (who may see which clocks)
    seat_users: tuple[str, ...] = ()
    absent: set[int] = field(default_factory=set)
    # seats that have been present once (a client showed them the table)
    seen: set[int] = field(default_factory=set)
    # human seats not yet seen since the start, and when the first clocks start at the latest
    unseen: set[int] = field(default_factory=set)
    first_clock_ms: int = 0
    # when the table last went from standing still to running (0: never)
    resumed_at_ms: int = 0
    last_move_ms: int = 0
    decisions: tuple[PendingDecision, ...] = ()
    # decisions this instance has acted on, until the stream moves past them
    done: set[str] = field(default_factory=set)
    # the idle close was made (or refused for good) for this last move
    closed_for_move_ms: int | None = None

    @property
    def standing_still(self) -> bool:
        """True when the table has human seats and none of them is present."""
        return bool(self.humans) and self.humans <= self.absent

    def apply(self, position: int, event_type: str, payload: bytes, metadata: Mapping[str, Any]) -> None:
        """Fold one event of the table's stream (in stream order)."""
        if position <= self.position:
            return  # seen already (the rebuild and the feed may overlap)
        self.position = position
        if event_type == STARTED:
            started = _decode_started(payload)
            still = self.standing_still
            self.humans = frozenset(s.seat for s in started.seats if not s.is_bot)
            self.seat_users = tuple(s.user_id for s in sorted(started.seats, key=lambda s: s.seat))
            self.started = True
            self.unseen = set(self.humans) - self.seen
            self.first_clock_ms = started.started_at_ms + (self.first_wait_ms if self.unseen else 0)
            self.last_move_ms = max(self.last_move_ms, started.started_at_ms)
            if still and not self.standing_still:
                self.resumed_at_ms = started.started_at_ms
        elif event_type == ENDED:
            self.finished = True
            self.decisions = ()
        elif event_type == PRESENCE:
            presence = _decode_presence(payload)
            still = self.standing_still
            if presence.present:
                self.absent.discard(presence.seat)
                self.seen.add(presence.seat)
                if presence.seat in self.unseen:
                    self.unseen.discard(presence.seat)
                    if not self.unseen:  # the last of them sees the table: the clocks start now
                        self.first_clock_ms = min(self.first_clock_ms, presence.at_ms)
            else:
                self.absent.add(presence.seat)
            if still and not self.standing_still:
                self.resumed_at_ms = max(self.resumed_at_ms, presence.at_ms)
        seat = metadata.get("seat")
        now_ms = metadata.get("now_ms")
        # a move; with no person at the table, bots playing on keep nothing alive: the table waits
        moved = seat is not None and not metadata.get("timeout")
        if moved and isinstance(now_ms, int) and (not self.standing_still or seat in self.humans):
            self.last_move_ms = max(self.last_move_ms, now_ms)
        pending = metadata.get("pending")
        if pending is not None and not self.finished:
            self.decisions = tuple(_convert_pending(pending, type=list[PendingDecision]))
            keys = {d.key for d in self.decisions}
            self.done &= keys

    def fires_at_ms(self, decision: PendingDecision) -> int:
        """When the timer acts on `decision`: its deadline, restarted after a stand-still and
        after the wait for the players' first presence."""
        return max(decision.opened_at_ms, self.resumed_at_ms, self.first_clock_ms) + decision.clock_ms

    def idle_close_at_ms(self, idle_ms: int) -> int:
        return self.last_move_ms + idle_ms

    def next_action(self, idle_ms: int) -> tuple[int, Action] | None:
        """The earliest thing to do and when (unix ms), or None."""
        if self.finished or not self.started:
            return None
        best: tuple[int, Action] | None = None
        if self.closed_for_move_ms != self.last_move_ms:
            best = (self.idle_close_at_ms(idle_ms), CloseIdle(self.last_move_ms))
        if not self.standing_still:
            for decision in self.decisions:
                if decision.key in self.done or not decision.has_clock:
                    continue
                at = self.fires_at_ms(decision)
                if best is None or at < best[0]:
                    best = (at, Fire(decision))
        return best
