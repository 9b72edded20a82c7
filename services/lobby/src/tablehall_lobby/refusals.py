"""The lobby's refusals: one constructor per reason, each with en/ru text.

Reasons are stable API (UPPER_SNAKE); the shared interceptor maps the error
type to the gRPC status. `TooMany` adds RESOURCE_EXHAUSTED for rate limits.
"""

from __future__ import annotations

import grpc

from tablehall_platform.errors import (
    BadRequest,
    NotFound,
    PermissionDenied,
    Refused,
    ServiceError,
    Unavailable,
)


class TooMany(ServiceError):
    """A rate limit was hit (RESOURCE_EXHAUSTED)."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED


def table_not_found(table_id: str) -> NotFound:
    return NotFound("TABLE_NOT_FOUND", f"There is no table {table_id!r}.", ru="Такого стола нет.")


def not_the_host() -> PermissionDenied:
    return PermissionDenied("NOT_THE_HOST", "Only the table's host may do this.", ru="Это может только хозяин стола.")


def operator_only() -> PermissionDenied:
    return PermissionDenied("OPERATOR_ONLY", "Only an operator may do this.", ru="Это может только владелец сайта.")


def already_started() -> Refused:
    return Refused("ALREADY_STARTED", "The table has started already.", ru="Игра за столом уже началась.")


def not_started() -> Refused:
    return Refused("NOT_STARTED", "The table's match has not started.", ru="Игра за столом ещё не началась.")


def table_closed() -> Refused:
    return Refused("TABLE_CLOSED", "The table is closed.", ru="Стол закрыт.")


def match_finished() -> Refused:
    return Refused("MATCH_FINISHED", "The table's match is over.", ru="Игра за столом окончена.")


def already_seated() -> Refused:
    return Refused("ALREADY_SEATED", "You have a seat at this table already.", ru="Вы уже сидите за этим столом.")


def not_seated() -> PermissionDenied:
    return PermissionDenied("NOT_SEATED", "You have no seat at this table.", ru="У вас нет места за этим столом.")


def table_full() -> Refused:
    return Refused("TABLE_FULL", "Every seat is taken.", ru="Все места заняты.")


def seat_taken(seat: int) -> Refused:
    return Refused("SEAT_TAKEN", f"Seat {seat} is taken.", ru=f"Место {seat} занято.")


def seat_empty(seat: int) -> Refused:
    return Refused("SEAT_EMPTY", f"Nobody sits in seat {seat}.", ru=f"Место {seat} свободно.")


def no_such_seat(seat: int) -> BadRequest:
    return BadRequest("NO_SUCH_SEAT", f"Seat {seat} does not exist.", ru=f"Места {seat} нет.")


def player_present() -> PermissionDenied:
    return PermissionDenied(
        "PLAYER_PRESENT",
        "The player is at the table; only an operator may remove them.",
        ru="Игрок на месте; убрать его может только владелец сайта.",
    )


def player_present_for_bot() -> Refused:
    return Refused(
        "PLAYER_PRESENT",
        "The player is at the table; only an absent player's seat goes to a bot.",
        ru="Игрок на месте; боту отдаётся только место отсутствующего.",
    )


def removed_from_table() -> PermissionDenied:
    return PermissionDenied(
        "REMOVED_FROM_TABLE", "You were removed from this table.", ru="Вас убрали из-за этого стола."
    )


def spectator_removed() -> PermissionDenied:
    return PermissionDenied(
        "SPECTATOR_REMOVED", "The host removed you from this table.", ru="Хозяин убрал вас из зрителей."
    )


def spectators_not_allowed() -> PermissionDenied:
    return PermissionDenied(
        "SPECTATORS_NOT_ALLOWED", "This table takes no spectators.", ru="За этим столом нет зрителей."
    )


def pin_required() -> PermissionDenied:
    return PermissionDenied("PIN_REQUIRED", "This table is private: send its PIN.", ru="Стол приватный: нужен PIN.")


def wrong_pin() -> PermissionDenied:
    return PermissionDenied("WRONG_PIN", "Wrong PIN.", ru="Неверный PIN.")


def _retry_later(reason: str, en: str, ru: str, seconds: int) -> TooMany:
    return TooMany(reason, en, ru=ru, metadata={"retry_after_seconds": str(seconds)})


def pin_attempts_exceeded(seconds: int) -> TooMany:
    return _retry_later(
        "PIN_ATTEMPTS_EXCEEDED",
        f"Too many PIN attempts; try again in {seconds} s.",
        f"Слишком много попыток PIN; повторите через {seconds} с.",
        seconds,
    )


def pin_locked(seconds: int) -> TooMany:
    return _retry_later(
        "PIN_LOCKED",
        f"Too many wrong PINs at this table; PIN entry opens again in {seconds} s.",
        f"Слишком много неверных PIN за этим столом; ввод PIN откроется через {seconds} с.",
        seconds,
    )


def chat_rate_limited(seconds: int) -> TooMany:
    return _retry_later(
        "CHAT_RATE_LIMITED",
        f"Too many messages; wait {seconds} s.",
        f"Слишком много сообщений; подождите {seconds} с.",
        seconds,
    )


def sign_ins_throttled(seconds: int) -> TooMany:
    return _retry_later(
        "SIGN_IN_THROTTLED",
        f"Too many development sign-ins; wait {seconds} s.",
        f"Слишком много входов для разработки; подождите {seconds} с.",
        seconds,
    )


def invalid_pin() -> BadRequest:
    return BadRequest("INVALID_PIN", "A PIN has 4-32 printable characters.", ru="PIN — от 4 до 32 печатных символов.")


def not_enough_players(minimum: int) -> Refused:
    return Refused(
        "NOT_ENOUGH_PLAYERS", f"The game needs at least {minimum} seated.", ru=f"Нужно не меньше {minimum} игроков."
    )


def starting() -> Refused:
    return Refused("TABLE_STARTING", "The table is starting.", ru="Игра за столом запускается.")


def request_id_required() -> BadRequest:
    return BadRequest("REQUEST_ID_REQUIRED", "request_id is required.", ru="Нужен request_id.")


def match_unavailable(detail: str) -> Unavailable:
    return Unavailable(
        "MATCH_UNAVAILABLE", f"The match service does not answer: {detail}", ru="Сервис матчей не отвечает."
    )
