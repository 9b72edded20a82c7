"""Пузиполия's rules on the platform's table commands (`tablehall_rules.table`): removal is ⚑,
a close ends with places by net worth, a person may take a bot's own seat («Места ботов — зрителям»)."""

from __future__ import annotations

import tablehall_rules
from puzzipolia.flow import Flow
from puzzipolia.rules.debts import eliminate
from puzzipolia.rules.end import end_game
from puzzipolia.state import State
from tablehall_rules import illegal
from tablehall_rules.table import TableRules


class PuzzipoliaTable(TableRules[State]):
    def writes_controller(self, state: State, seat: int, by_bot: bool) -> bool:
        if state.player(seat).is_bot:
            # a person takes a bot's seat (by_bot=False), a person's seat for good; a bot to a bot: nothing
            return not by_bot
        return super().writes_controller(state, seat, by_bot)

    def on_remove(self, flow: tablehall_rules.Flow[State], seat: int) -> None:
        """Out of the game like ⚑: lots to the bank, or to the creditor in debt."""
        assert isinstance(flow, Flow)
        if not flow.state.player(seat).is_playing:
            raise illegal("NOT_IN_GAME", "That player is out of the game already.", "Этот игрок уже выбыл.")
        eliminate(flow, seat, "removed")

    def on_close(self, flow: tablehall_rules.Flow[State], reason: str) -> None:
        end_game(flow, reason)


TABLE = PuzzipoliaTable()
