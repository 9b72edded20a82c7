"""The table's system commands: presence, bots, removing a player, closing the table."""

from __future__ import annotations

from magnates import commands as c
from magnates import events as e
from magnates.errors import illegal, invalid
from magnates.flow import Flow
from magnates.rules import turn
from magnates.rules.elimination import eliminate, finish
from magnates.state import BANK


def _seat(flow: Flow, seat: int) -> None:
    if not 0 <= seat < len(flow.state.players):
        raise invalid("NO_SUCH_SEAT", "No such seat.", "Нет такого места.")


def set_presence(flow: Flow, command: c.SetPresence) -> None:
    _seat(flow, command.seat)
    flow.emit(e.PresenceChanged(command.seat, command.present))


def set_controller(flow: Flow, command: c.SetController) -> None:
    _seat(flow, command.seat)
    flow.emit(e.ControllerChanged(command.seat, command.by_bot))


def remove_player(flow: Flow, command: c.RemovePlayer) -> None:
    _seat(flow, command.seat)
    if not flow.state.players[command.seat].alive:
        raise illegal("ALREADY_OUT", "That player is out already.", "Этот игрок уже выбыл.")
    was_turn = flow.state.turn == command.seat
    eliminate(flow, command.seat, "removed")
    state = flow.state
    if flow.over:
        return
    if was_turn:
        turn.end_turn(flow)
    elif state.phase == "fine" and state.stop is not None and state.owner[state.stop.cell] == BANK:
        # the fine's creditor is gone and its Company is the bank's again: the piece may buy it
        turn.piece_arrives(flow, state.turn, state.piece, state.stop.cell)


def close_table(flow: Flow, command: c.CloseTable) -> None:
    finish(flow, "closed")
