"""The working copy of one `decide` (`tablehall_rules.Flow`) with Магнаты' evolve."""

from __future__ import annotations

import tablehall_rules
from magnates.evolve import evolve
from magnates.state import State


class Flow(tablehall_rules.Flow[State]):
    evolve_event = staticmethod(evolve)

    @property
    def over(self) -> bool:
        return self.state.phase == "over"
