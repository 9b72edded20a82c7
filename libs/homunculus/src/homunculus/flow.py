"""The working copy of one `decide` (`tablehall_rules.Flow`) with Гомункул's evolve."""

from __future__ import annotations

import tablehall_rules
from homunculus.evolve import evolve
from homunculus.state import State


class Flow(tablehall_rules.Flow[State]):
    evolve_event = staticmethod(evolve)
