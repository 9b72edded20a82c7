"""The lobby's rules: pure decisions from (table, actor, request) to events.

No I/O and no clock: callers pass `now_ms`. A refusal raises one of
`tablehall_lobby.refusals`; an empty list means nothing changes. Steps that
need I/O (the PIN, the match service) are the application's; these functions
say when they are needed.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from tablehall_lobby import events as ev
from tablehall_lobby import refusals as no
from tablehall_lobby.identity import Actor
from tablehall_lobby.state import LobbyTable, Seat
from tablehall_platform.errors import BadRequest, PermissionDenied, Refused
from tablehall_rules import SeatInfo

MAX_USER_ID = 200


def bot_id(table_id: str, n: int) -> str:
    return f"bot:{table_id}:{n}"


# ---- guards ------------------------------------------------------------------


def require_open(table: LobbyTable) -> None:
    """Not closed and not over."""
    if table.status == "closed":
        raise no.table_closed()
    if table.status == "finished":
        raise no.match_finished()


def require_waiting(table: LobbyTable) -> None:
    require_open(table)
    if table.status == "starting":
        raise no.starting()
    if table.status != "waiting":
        raise no.already_started()


def require_playing(table: LobbyTable) -> None:
    require_open(table)
    if table.status != "playing":
        raise no.not_started()


def require_host(table: LobbyTable, actor: Actor, operator_too: bool = True) -> None:
    if actor.user_id == table.host_user_id or (operator_too and actor.is_operator):
        return
    raise no.not_the_host()


def require_seat_index(table: LobbyTable, seat: int) -> None:
    if not 0 <= seat < len(table.seats):
        raise no.no_such_seat(seat)


def occupied(table: LobbyTable, seat: int) -> Seat:
    require_seat_index(table, seat)
    occupant = table.seats[seat]
    if occupant is None or occupant.removed:
        raise no.seat_empty(seat)
    return occupant


def own_seat(table: LobbyTable, actor: Actor) -> int:
    seat = table.seat_of(actor.user_id)
    if seat is None:
        raise no.not_seated()
    return seat


def pick_free_seat(table: LobbyTable, wanted: int | None) -> int:
    if wanted is None:
        free = table.free_seats()
        if not free:
            raise no.table_full()
        return free[0]
    require_seat_index(table, wanted)
    if table.seats[wanted] is not None:
        raise no.seat_taken(wanted)
    return wanted


def check_seat_count(seat_count: int, min_seats: int, max_seats: int) -> int:
    count = seat_count or max_seats
    if not max(1, min_seats) <= count <= max_seats:
        raise BadRequest(
            "INVALID_SEAT_COUNT",
            f"This game seats {min_seats}-{max_seats}.",
            ru=f"В этой игре от {min_seats} до {max_seats} мест.",
        )
    return count


# ---- entry -------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """Events of a join or an entry, and whether the PIN must be checked."""

    events: list[msgspec.Struct]
    needs_pin: bool


def _entry_barriers(table: LobbyTable, actor: Actor) -> None:
    if actor.user_id in table.removed_players:
        raise no.removed_from_table()
    if actor.user_id in table.removed_spectators:
        raise no.spectator_removed()


def _needs_pin(table: LobbyTable, actor: Actor) -> bool:
    return table.private and not table.is_member(actor.user_id) and actor.user_id not in table.spectators


def join(table: LobbyTable, actor: Actor, wanted: int | None, now_ms: int) -> Entry:
    require_waiting(table)
    if table.seat_of(actor.user_id) is not None:
        raise no.already_seated()
    _entry_barriers(table, actor)
    seat = pick_free_seat(table, wanted)
    return Entry([ev.SeatTaken(seat, actor.user_id, actor.name, now_ms)], _needs_pin(table, actor))


def enter(table: LobbyTable, actor: Actor, now_ms: int) -> Entry:
    require_open(table)
    _entry_barriers(table, actor)
    if table.seat_of(actor.user_id) is not None or actor.user_id in table.spectators:
        return Entry([], False)
    if not table.spectators_allowed and actor.user_id != table.host_user_id:
        raise no.spectators_not_allowed()
    needs_pin = _needs_pin(table, actor)
    return Entry([ev.SpectatorEntered(actor.user_id, actor.name, needs_pin, now_ms)], needs_pin)


def leave(table: LobbyTable, actor: Actor, now_ms: int) -> list[msgspec.Struct]:
    require_waiting(table)
    seat = own_seat(table, actor)
    return [ev.SeatLeft(seat, actor.user_id, now_ms)]


def require_user_id(user_id: str) -> None:
    """A person's user id named by the host: not empty (an empty one once wrote an event), not ours."""
    if not 0 < len(user_id) <= MAX_USER_ID or user_id.startswith(("bot:", "service:")):
        raise BadRequest("INVALID_USER_ID", "Name a user id (1-200 characters).", ru="Укажите id пользователя.")


def invite(table: LobbyTable, actor: Actor, user_id: str, now_ms: int) -> list[msgspec.Struct]:
    require_host(table, actor)
    require_open(table)
    require_user_id(user_id)
    if user_id in table.invited:
        return []
    return [ev.Invited(user_id, actor.user_id, now_ms)]


# ---- settings ----------------------------------------------------------------


def change_options(table: LobbyTable, actor: Actor, options: Mapping[str, Any], now_ms: int) -> list[msgspec.Struct]:
    require_host(table, actor)
    require_waiting(table)
    if dict(options) == table.options:
        return []
    return [ev.OptionsChanged(dict(options), actor.user_id, now_ms)]


def change_privacy(table: LobbyTable, actor: Actor, private: bool, now_ms: int) -> list[msgspec.Struct]:
    """A private table gets an event each time (its PIN changed)."""
    require_host(table, actor)
    require_open(table)
    if not private and not table.private:
        return []
    return [ev.PrivacyChanged(private, actor.user_id, now_ms)]


def change_spectator_policy(
    table: LobbyTable,
    actor: Actor,
    allowed: bool | None,
    chat: bool | None,
    bot_seats: bool | None,
    now_ms: int,
) -> list[msgspec.Struct]:
    require_host(table, actor)
    require_open(table)
    out: list[msgspec.Struct] = []
    if allowed is not None and allowed != table.spectators_allowed:
        out.append(ev.SpectatorsAllowed(allowed, actor.user_id, now_ms))
    if chat is not None and chat != table.spectator_chat:
        out.append(ev.SpectatorChatAllowed(chat, actor.user_id, now_ms))
    if bot_seats is not None and bot_seats != table.bot_seats_to_spectators:
        out.append(ev.BotSeatsToSpectators(bot_seats, actor.user_id, now_ms))
    return out


# ---- bots and removals -------------------------------------------------------


def add_bot(
    table: LobbyTable, actor: Actor, wanted: int | None, now_ms: int, difficulty: str = "easy"
) -> list[msgspec.Struct]:
    require_host(table, actor)
    require_waiting(table)
    seat = pick_free_seat(table, wanted)
    n = table.bots_added + 1
    return [ev.BotAdded(seat, bot_id(table.table_id, n), f"Bot {n}", actor.user_id, now_ms, difficulty)]


def remove_seat(
    table: LobbyTable, actor: Actor, seat: int, now_ms: int, match_told: bool = False
) -> list[msgspec.Struct]:
    """A bot or an absent player: the host; a present player: an operator.

    `match_told`: the match has already taken the seat out (the lobby records the removal
    after it); when that ended the game (two players, one removed), the removal still is
    recorded rather than refused as MATCH_FINISHED."""
    require_host(table, actor)
    if not (match_told and table.status == "finished"):
        require_open(table)
    if table.status == "starting":
        raise no.starting()
    occupant = occupied(table, seat)
    if occupant.user_id == actor.user_id:
        raise Refused(
            "USE_LEAVE_SEAT", "To leave your own seat, use LeaveSeat.", ru="Чтобы уйти, используйте LeaveSeat."
        )
    if occupant.is_bot:
        return [ev.BotRemoved(seat, occupant.user_id, actor.user_id, now_ms)]
    if occupant.present and not actor.is_operator:
        raise no.player_present()
    removed: list[msgspec.Struct] = [
        ev.PlayerRemoved(seat, occupant.user_id, actor.user_id, actor.is_operator, occupant.present, now_ms)
    ]
    if occupant.present and table.started:
        removed.append(ev.PresenceChanged(seat, occupant.user_id, False, now_ms))
    return removed


def remove_spectator(table: LobbyTable, actor: Actor, user_id: str, now_ms: int) -> list[msgspec.Struct]:
    require_host(table, actor)
    require_open(table)
    require_user_id(user_id)
    if table.seat_of(user_id) is not None:
        raise Refused(
            "NOT_A_SPECTATOR", "That user has a seat; remove the seat instead.", ru="Этот пользователь сидит за столом."
        )
    if user_id in table.removed_spectators:
        return []
    return [ev.SpectatorRemoved(user_id, actor.user_id, now_ms)]


# ---- start -------------------------------------------------------------------


def start(
    table: LobbyTable, actor: Actor, options: Mapping[str, Any], min_seats: int, now_ms: int
) -> list[msgspec.Struct]:
    """Freeze the roster (empty seats dropped, seats numbered 0..n-1)."""
    require_host(table, actor, operator_too=False)
    require_open(table)
    if table.status == "starting":
        return []  # a retried start: the roster is frozen already
    if table.status != "waiting":
        raise no.already_started()
    seated = [s for s in table.seats if s is not None]
    if len(seated) < max(1, min_seats):
        raise no.not_enough_players(max(1, min_seats))
    seats = [SeatInfo(i, s.user_id, s.name, s.is_bot) for i, s in enumerate(seated)]
    return [ev.StartRequested(seats, dict(options), actor.user_id, now_ms)]


def roster(table: LobbyTable) -> list[SeatInfo]:
    seats = []
    for i, seat in enumerate(table.seats):
        assert seat is not None, "a started table has no empty seats"
        seats.append(SeatInfo(i, seat.user_id, seat.name, seat.is_bot))
    return seats


# ---- after the start ---------------------------------------------------------


def hand_to_bot(table: LobbyTable, actor: Actor, seat: int, now_ms: int) -> list[msgspec.Struct]:
    require_host(table, actor)
    require_playing(table)
    occupant = occupied(table, seat)
    if occupant.is_bot:
        raise Refused("SEAT_IS_A_BOT", "A bot plays that seat already.", ru="Это место бота.")
    if occupant.present:
        raise no.player_present_for_bot()
    if occupant.by_bot:
        raise Refused("ALREADY_PLAYED_BY_BOT", "A bot plays that seat already.", ru="Это место уже играет бот.")
    return [ev.SeatHandedToBot(seat, occupant.user_id, actor.user_id, now_ms)]


def reclaim(table: LobbyTable, actor: Actor, now_ms: int) -> tuple[int, list[msgspec.Struct]]:
    require_playing(table)
    seat = own_seat(table, actor)
    if not _seat(table, seat).by_bot:
        raise Refused("SEAT_NOT_HANDED", "Your seat is yours already.", ru="Ваше место и так за вами.")
    return seat, [ev.SeatReclaimed(seat, actor.user_id, now_ms)]


def take_bot_seat(table: LobbyTable, actor: Actor, seat: int, now_ms: int) -> list[msgspec.Struct]:
    require_open(table)
    if table.status == "starting":
        raise no.starting()
    if table.seat_of(actor.user_id) is not None:
        raise no.already_seated()
    _entry_barriers(table, actor)
    if not table.may_view(actor.user_id):
        raise no.pin_required() if table.private and table.spectators_allowed else no.spectators_not_allowed()
    if not table.bot_seats_to_spectators:
        raise PermissionDenied(
            "BOT_SEATS_CLOSED", "The host has not opened bot seats to spectators.", ru="Места ботов зрителям закрыты."
        )
    occupant = occupied(table, seat)
    if not occupant.is_bot:
        raise Refused("SEAT_NOT_A_BOT", "Only a bot's seat can be taken over.", ru="Занять можно только место бота.")
    return [ev.BotSeatTaken(seat, actor.user_id, actor.name, occupant.user_id, now_ms)]


def presence(table: LobbyTable, seat: int, present: bool, now_ms: int) -> list[msgspec.Struct]:
    occupant = occupied(table, seat)
    if occupant.present == present or table.status in ("closed", "finished"):
        return []
    return [ev.PresenceChanged(seat, occupant.user_id, present, now_ms)]


def close(table: LobbyTable, actor: Actor, now_ms: int) -> list[msgspec.Struct]:
    """An operator closes any table; a host their own before the start."""
    if table.status == "closed":
        raise no.table_closed()
    if not actor.is_operator:
        require_host(table, actor)
        if table.status != "waiting":
            raise no.operator_only()
    return [ev.TableClosed(actor.user_id, actor.is_operator, now_ms)]


def _seat(table: LobbyTable, seat: int) -> Seat:
    occupant = table.seats[seat]
    assert occupant is not None
    return occupant


# ---- chat --------------------------------------------------------------------

MAX_CHAT = 500


def chat_seat(table: LobbyTable, actor: Actor) -> int | None:
    """The sender's seat (None for the host or a spectator) if they may chat."""
    if table.status == "closed":
        raise no.table_closed()
    seat = table.seat_of(actor.user_id)
    if seat is not None or actor.user_id == table.host_user_id:
        return seat
    if table.may_view(actor.user_id) and table.spectator_chat:
        return None
    raise PermissionDenied(
        "CHAT_NOT_ALLOWED", "Spectators may not chat at this table.", ru="Зрителям здесь писать нельзя."
    )


def chat_text(text: str) -> str:
    cleaned = text.strip()
    if not cleaned:
        raise BadRequest("CHAT_EMPTY", "The message is empty.", ru="Пустое сообщение.")
    if len(cleaned) > MAX_CHAT:
        raise BadRequest(
            "CHAT_TOO_LONG", f"A message has at most {MAX_CHAT} characters.", ru=f"Не больше {MAX_CHAT} символов."
        )
    return cleaned
