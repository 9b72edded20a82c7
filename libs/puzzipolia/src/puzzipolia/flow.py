"""The working copy of one `decide` (`tablehall_rules.Flow`) with Пузиполия's evolve."""

import tablehall_rules
from puzzipolia.evolve import evolve
from puzzipolia.state import State


class Flow(tablehall_rules.Flow[State]):
    evolve_event = staticmethod(evolve)

    def roll_dice(self) -> list[int]:
        return [self.die(), self.die()]
