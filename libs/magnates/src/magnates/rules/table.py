"""What Магнаты' rules add to the platform's table commands: a removed player is out (the turn
goes on without them), a closed table ends with places by net worth."""

from __future__ import annotations

import tablehall_rules
from magnates.flow import Flow
from magnates.rules import turn
from magnates.rules.elimination import eliminate, finish
from magnates.state import BANK, State
from tablehall_rules import illegal
from tablehall_rules.table import TableRules


class MagnatesTable(TableRules[State]):
    # Магнаты wrote every presence and hand-over, also one its ladder showed already (a person
    # taking a bot's seat is a hand-back to a seat no bot was handed): decide answers them so still
    repeats = True

    def on_remove(self, flow: tablehall_rules.Flow[State], seat: int) -> None:
        assert isinstance(flow, Flow)
        if not flow.state.players[seat].alive:
            raise illegal("ALREADY_OUT", "That player is out already.", "Этот игрок уже выбыл.")
        was_turn = flow.state.turn == seat
        eliminate(flow, seat, "removed")
        state = flow.state
        if flow.over:
            return
        if was_turn:
            turn.end_turn(flow)
        elif state.phase == "fine" and state.stop is not None and state.owner[state.stop.cell] == BANK:
            # the fine's creditor is gone and its Company is the bank's again: the piece may buy it
            turn.piece_arrives(flow, state.turn, state.piece, state.stop.cell)

    def on_close(self, flow: tablehall_rules.Flow[State], reason: str) -> None:
        assert isinstance(flow, Flow)
        finish(flow, "closed")


TABLE = MagnatesTable()
