"""A table as the lobby knows it, folded from its stream.

`evolve` is total and deterministic over the lobby's own events; it also
notes `match.Started` and `match.Ended` and skips the game's events. The
state is cached in the read model (`lobby_tables.state`) with the stream
version it was folded to, so a command only replays what came after.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from tablehall_lobby import events as ev

Status = Literal["waiting", "starting", "playing", "finished", "closed"]


class Seat(msgspec.Struct):
    user_id: str
    name: str
    is_bot: bool = False
    present: bool = False
    # a bot plays this player's seat (handed over while they were away)
    by_bot: bool = False
    # removed after the start: the seat stays in the match, nobody plays it here
    removed: bool = False


class LobbyTable(msgspec.Struct):
    table_id: str
    game: str
    options: dict[str, Any]
    host_user_id: str
    host_name: str
    seats: list[Seat | None]
    private: bool
    spectators_allowed: bool
    created_at_ms: int
    status: Status = "waiting"
    spectator_chat: bool = False
    bot_seats_to_spectators: bool = False
    invited: list[str] = msgspec.field(default_factory=list)
    spectators: dict[str, str] = msgspec.field(default_factory=dict)
    removed_spectators: list[str] = msgspec.field(default_factory=list)
    # users removed from a seat: they may not sit at this table again
    removed_players: list[str] = msgspec.field(default_factory=list)
    bots_added: int = 0
    # the number of seats while gathering (a start compacts them; an aborted start restores it)
    seat_count: int = 0
    version: int = 0
    # wrong PINs tried at this table since its PIN was set, and until when PIN entry is closed
    pin_failures: int = 0
    pin_locked_until_ms: int = 0

    # ---- questions ---------------------------------------------------------

    @property
    def started(self) -> bool:
        return self.status in ("playing", "finished")

    def seat_of(self, user_id: str) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.user_id == user_id and not seat.removed:
                return index
        return None

    def free_seats(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat is None]

    def seats_taken(self) -> int:
        return sum(1 for seat in self.seats if seat is not None and not seat.removed)

    def is_member(self, user_id: str) -> bool:
        """Seated, host or invited: needs no PIN here."""
        return user_id == self.host_user_id or user_id in self.invited or self.seat_of(user_id) is not None

    def may_view(self, user_id: str) -> bool:
        """May see this table's details, its spectator view and its chat."""
        if self.seat_of(user_id) is not None or user_id == self.host_user_id:
            return True
        if user_id in self.removed_spectators or user_id in self.removed_players or not self.spectators_allowed:
            return False
        if self.private:
            return user_id in self.spectators or user_id in self.invited
        return True


def _seat(state: LobbyTable, index: int) -> Seat:
    seat = state.seats[index]
    assert seat is not None, f"seat {index} is empty"
    return seat


def new_table(event: ev.TableCreated) -> LobbyTable:
    seats: list[Seat | None] = [None] * event.seat_count
    seats[0] = Seat(event.host_user_id, event.host_name)
    return LobbyTable(
        table_id=event.table_id,
        game=event.game,
        options=dict(event.options),
        host_user_id=event.host_user_id,
        host_name=event.host_name,
        seats=seats,
        private=event.private,
        spectators_allowed=event.spectators_allowed,
        created_at_ms=event.at_ms,
        seat_count=event.seat_count,
    )


def evolve(state: LobbyTable, event: msgspec.Struct) -> LobbyTable:
    """Apply one lobby event in place and return the state."""
    match event:
        case ev.OptionsChanged(options=options):
            state.options = dict(options)
        case ev.PrivacyChanged(private=private):
            state.private = private
            state.pin_failures, state.pin_locked_until_ms = 0, 0  # a new PIN starts afresh
        case ev.PinGuessesLimited(failures=failures, locked_until_ms=until):
            state.pin_failures, state.pin_locked_until_ms = failures, until
        case ev.SpectatorsAllowed(allowed=allowed):
            state.spectators_allowed = allowed
        case ev.SpectatorChatAllowed(allowed=allowed):
            state.spectator_chat = allowed
        case ev.BotSeatsToSpectators(allowed=allowed):
            state.bot_seats_to_spectators = allowed
        case ev.Invited(user_id=user_id):
            if user_id not in state.invited:
                state.invited.append(user_id)
        case ev.SeatTaken(seat=seat, user_id=user_id, name=name):
            state.seats[seat] = Seat(user_id, name)
            state.spectators.pop(user_id, None)
        case ev.SeatLeft(seat=seat) | ev.BotRemoved(seat=seat) if not state.started:
            state.seats[seat] = None
        case ev.BotAdded(seat=seat, bot_id=bot_id, name=name):
            state.seats[seat] = Seat(bot_id, name, is_bot=True, present=True)
            state.bots_added += 1
        case ev.BotRemoved(seat=seat):
            _seat(state, seat).removed = True
        case ev.PlayerRemoved(seat=seat, user_id=user_id):
            if state.started:
                removed = _seat(state, seat)
                removed.removed = True
                removed.present = False
            else:
                state.seats[seat] = None
            state.removed_players.append(user_id)
        case ev.SpectatorEntered(user_id=user_id, name=name):
            state.spectators[user_id] = name
        case ev.SpectatorRemoved(user_id=user_id):
            state.spectators.pop(user_id, None)
            if user_id not in state.removed_spectators:
                state.removed_spectators.append(user_id)
        case ev.StartRequested(seats=seats, options=options):
            by_user = {s.user_id: s for s in state.seats if s is not None}
            state.seats = [by_user[s.user_id] for s in seats]
            state.options = dict(options)
            state.status = "starting"
        case ev.StartAborted():
            state.seats = [*state.seats, *([None] * (state.seat_count - len(state.seats)))]
            state.status = "waiting"
        case ev.SeatHandedToBot(seat=seat):
            _seat(state, seat).by_bot = True
        case ev.SeatReclaimed(seat=seat):
            _seat(state, seat).by_bot = False
        case ev.BotSeatTaken(seat=seat, user_id=user_id, name=name):
            state.seats[seat] = Seat(user_id, name)
            state.spectators.pop(user_id, None)
        case ev.PresenceChanged(seat=seat, present=present):
            _seat(state, seat).present = present
        case ev.TableClosed():
            state.status = "closed"
        case ev.SeatLeft():
            raise AssertionError("a seat is left only before the start")
        case _:
            raise AssertionError(f"not a lobby event: {event!r}")
    return state


def apply_recorded(state: LobbyTable | None, event_type: str, payload: bytes, version: int) -> LobbyTable | None:
    """Fold one stored event of the table's stream (any writer)."""
    if event_type.startswith(ev.PREFIX):
        decoded = ev.CODEC.decode(event_type, payload)
        if isinstance(decoded, ev.TableCreated):
            state = new_table(decoded)
        elif state is not None:
            state = evolve(state, decoded)
    elif state is not None and event_type == ev.MATCH_STARTED and state.status != "closed":
        state.status = "playing"
    elif state is not None and event_type == ev.MATCH_ENDED and state.status != "closed":
        state.status = "finished"
    if state is not None:
        state.version = version
    return state


STATE_DECODER = msgspec.json.Decoder(LobbyTable)


def encode(state: LobbyTable) -> bytes:
    return msgspec.json.encode(state)


def decode(data: bytes | str) -> LobbyTable:
    return STATE_DECODER.decode(data)
