"""System commands of the table itself (ctx.seat is None): presence, operator and idle closing."""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.errors import illegal, invalid
from puzzipolia.events import AfkChanged, ControllerChanged, PresenceChanged
from puzzipolia.flow import Flow
from puzzipolia.rules.debts import eliminate
from puzzipolia.rules.end import end_game


def set_presence(f: Flow, cmd: c.SetPresence) -> None:
    st = f.state
    if not st.has_seat(cmd.seat):
        raise invalid("NO_SUCH_SEAT", "There is no such seat.", "Такого места нет.")
    p = st.player(cmd.seat)
    if p.absent == (not cmd.present):
        return
    f.emit(PresenceChanged(seat=cmd.seat, present=cmd.present))
    # a closed tab counts as AFK at once; coming back clears AFK only on the seat's own command
    if not cmd.present and not p.afk:
        f.emit(AfkChanged(seat=cmd.seat, afk=True))


def set_controller(f: Flow, cmd: c.SetController) -> None:
    """A player's seat handed to a bot or taken back; a bot's own seat taken by a person (for good)."""
    st = f.state
    if not st.has_seat(cmd.seat):
        raise invalid("NO_SUCH_SEAT", "There is no such seat.", "Такого места нет.")
    p = st.player(cmd.seat)
    if p.is_bot:
        # «Места ботов — зрителям»: a person takes a bot's seat, and from then on it is a person's seat
        if not cmd.by_bot:
            f.emit(ControllerChanged(seat=cmd.seat, by_bot=False))
        return
    if p.bot_controlled == cmd.by_bot:
        return
    f.emit(ControllerChanged(seat=cmd.seat, by_bot=cmd.by_bot))


def remove_player(f: Flow, cmd: c.RemovePlayer) -> None:
    """Removed from the table: out of the game like ⚑ (lots to the bank, or the creditor in debt)."""
    st = f.state
    if not st.has_seat(cmd.seat):
        raise invalid("NO_SUCH_SEAT", "There is no such seat.", "Такого места нет.")
    if not st.player(cmd.seat).is_playing:
        raise illegal("NOT_IN_GAME", "That player is out of the game already.", "Этот игрок уже выбыл.")
    eliminate(f, cmd.seat, "removed")


def operator_close(f: Flow, cmd: c.OperatorClose) -> None:
    end_game(f, "operator")


def idle_close(f: Flow, cmd: c.IdleClose) -> None:
    end_game(f, "idle")
