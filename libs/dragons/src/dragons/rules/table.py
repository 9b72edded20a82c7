"""System commands of the table itself (ctx.seat is None): presence, controller, removal, closing."""

from __future__ import annotations

from dragons import commands as c
from dragons.errors import invalid
from dragons.events import ControllerChanged, PresenceChanged
from dragons.flow import Flow
from dragons.rules.end import end_game

CLOSE_REASONS = ("operator", "idle")


def _seat(f: Flow, seat: int) -> None:
    if not f.state.has_seat(seat):
        raise invalid("NO_SUCH_SEAT", "There is no such seat.", "Такого места нет.")


def set_presence(f: Flow, cmd: c.SetPresence) -> None:
    _seat(f, cmd.seat)
    if f.state.player(cmd.seat).absent != (not cmd.present):
        f.emit(PresenceChanged(seat=cmd.seat, present=cmd.present))


def set_controller(f: Flow, cmd: c.SetController) -> None:
    _seat(f, cmd.seat)
    if f.state.player(cmd.seat).is_bot:
        raise invalid("BOT_SEAT", "A bot's own seat always has a bot.", "Место бота всегда за ботом.")
    if f.state.afk.by_bot[cmd.seat] != cmd.by_bot:
        f.emit(ControllerChanged(seat=cmd.seat, by_bot=cmd.by_bot))


def remove_player(f: Flow, cmd: c.RemovePlayer) -> None:
    """A removed player loses; the other wins whatever the scores."""
    _seat(f, cmd.seat)
    end_game(f, "removed", loser=cmd.seat)


def close_table(f: Flow, cmd: c.CloseTable) -> None:
    if cmd.reason not in CLOSE_REASONS:
        raise invalid(
            "BAD_REASON", "A table closes for: operator, idle.", "Стол закрывается по причине: operator, idle."
        )
    end_game(f, cmd.reason)
