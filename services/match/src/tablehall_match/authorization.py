"""Who may send a command for a seat (or for the table itself)."""

from __future__ import annotations

from tablehall_match.live_table import LiveTable
from tablehall_platform.auth import Principal
from tablehall_platform.errors import PermissionDenied
from tablehall_stream.names import BOT_SERVICE


def authorize(principal: Principal, live: LiveTable, seat: int | None, decision_key: str) -> None:
    """A player for their own seat; the bot service for a seat a bot plays; the table's
    services (or an operator) for the table; only the timer for a run-out clock."""
    if decision_key and not principal.is_service:
        raise PermissionDenied(
            "NOT_ALLOWED", "Only the timer answers for a clock.", ru="За часы отвечает только таймер."
        )
    if principal.user_id == BOT_SERVICE and seat is not None and not live.played_by_bot(seat):
        raise PermissionDenied(
            "NOT_A_BOT_SEAT",
            "No bot plays this seat (its player has it).",
            ru="За это место не играет бот (оно у игрока).",
        )
    if principal.is_service:
        return
    if seat is None:
        if not principal.is_operator:
            raise PermissionDenied(
                "NOT_ALLOWED",
                "Only the table's services or an operator act for the table.",
                ru="От имени стола действуют только службы и оператор.",
            )
        return
    seats = live.seats
    if not any(s.user_id == principal.user_id for s in seats):
        raise PermissionDenied("NOT_A_MEMBER", "You have no seat at this table.", ru="У вас нет места за этим столом.")
    if seats[seat].user_id != principal.user_id:
        raise PermissionDenied(
            "NOT_YOUR_SEAT",
            "You may act only for your own seat.",
            ru="Ходить можно только за своё место.",
        )
