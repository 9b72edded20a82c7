"""What Драконы' rules add to the platform's table commands: a bot's own seat is never handed
over; a removed player loses whatever the scores; a closed table ends by the scores so far."""

from __future__ import annotations

from dragons.evolve import Flow
from dragons.rules.end import end_game
from dragons.state import State
from tablehall_rules import invalid
from tablehall_rules.table import TableRules


class DragonsTable(TableRules[State]):
    def check_controller(self, state: State, seat: int, by_bot: bool) -> None:
        if state.player(seat).is_bot:
            raise invalid("BOT_SEAT", "A bot's own seat always has a bot.", "Место бота всегда за ботом.")

    def on_remove(self, flow: Flow, seat: int) -> None:
        end_game(flow, "removed", loser=seat)

    def on_close(self, flow: Flow, reason: str) -> None:
        end_game(flow, reason)


TABLE = DragonsTable()
