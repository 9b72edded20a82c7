"""What Гомункул's rules add to the platform's table commands (presence and hand-over: the AFK
ladder alone): a removed player is out, a closed table ends as it stands; «Уно!» closes unused."""

from __future__ import annotations

import tablehall_rules
from homunculus.flow import Flow
from homunculus.rules.end import close
from homunculus.rules.turn import close_uno, put_out
from homunculus.state import State
from tablehall_rules import illegal
from tablehall_rules.table import TableRules


class HomunculusTable(TableRules[State]):
    def on_remove(self, flow: tablehall_rules.Flow[State], seat: int) -> None:
        assert isinstance(flow, Flow)
        if not flow.state.alive[seat]:
            raise illegal("NO_SUCH_PLAYER", "No such player in the game.", "Такого игрока в игре нет.")
        close_uno(flow)
        put_out(flow, seat, "removed")

    def on_close(self, flow: tablehall_rules.Flow[State], reason: str) -> None:
        assert isinstance(flow, Flow)
        close_uno(flow)
        close(flow, reason)


TABLE = HomunculusTable()
