"""The `tablehall_rules.Game` object of Гомункул (the `tablehall.games` entry point `homunculus`):
each member of the contract is the rules module that answers it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from homunculus import setup
from homunculus.bot import HomunculusBot
from homunculus.commands import COMMAND_TYPES
from homunculus.decide import decide
from homunculus.events import EVENT_TYPES
from homunculus.evolve import evolve
from homunculus.journal import journal
from homunculus.legal import legal
from homunculus.pending import default_command, pending
from homunculus.rules.end import MAX_COMMANDS, outcome, standings
from homunculus.state import State
from homunculus.view import view
from tablehall_rules import Game, GameNature, HasStandings, Journaled
from tablehall_rules.table import SeatedGame


class Homunculus(Game[State], SeatedGame, HomunculusBot, Journaled, HasStandings):
    id: ClassVar[str] = "homunculus"
    rules_version: ClassVar[str] = "0.4"  # 0.4: a bot seat is never AFK; 0.3: a capture opens the cell it lands on
    min_seats: ClassVar[int] = 2
    max_seats: ClassVar[int] = 4
    state_type: ClassVar[type[Any]] = State
    command_types: ClassVar[Sequence[type[msgspec.Struct]]] = COMMAND_TYPES
    event_types: ClassVar[Sequence[type[msgspec.Struct]]] = EVENT_TYPES
    title: ClassVar[Mapping[str, str]] = {"en": "Homunculus", "ru": "Гомункул"}
    options_schema: ClassVar[Mapping[str, Any]] = setup.OPTIONS_SCHEMA
    supports_teams: ClassVar[bool] = True
    # hidden: hands, tiles, mines; simultaneous: every bidder of an auction, «Уно!» and «Поймать»
    nature: ClassVar[GameNature] = GameNature(
        hidden_information=True, chance=True, simultaneous=True, max_commands=MAX_COMMANDS
    )

    parse_options = staticmethod(setup.parse_options)
    start = staticmethod(setup.start)
    teams = staticmethod(setup.teams_for)
    decide = staticmethod(decide)
    evolve = staticmethod(evolve)
    view = staticmethod(view)
    legal = staticmethod(legal)
    pending = staticmethod(pending)
    default_command = staticmethod(default_command)
    outcome = staticmethod(outcome)
    standings = staticmethod(standings)

    journal = staticmethod(journal)


GAME = Homunculus()
