"""The Магнаты game object the platform loads (`magnates.game:GAME`): each member of the contract
is the rules module that answers it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from magnates import setup
from magnates.bot_hooks import BotHooks
from magnates.commands import COMMAND_TYPES
from magnates.decide import decide
from magnates.events import EVENT_TYPES
from magnates.evolve import evolve
from magnates.journal import entries
from magnates.legal import legal_moves
from magnates.pending import default_command, pending
from magnates.rules.elimination import outcome, standings
from magnates.state import State
from magnates.view import view
from tablehall_rules import BOTS_NEVER_AFK, Game, GameNature, HasStandings, Journaled
from tablehall_rules.table import SeatedGame


class Magnates(Game[State], SeatedGame, Journaled, HasStandings, BotHooks):
    id = "magnates"
    rules_version = "1.1.0"  # 1.1.0: a bot seat is never AFK
    earlier_rules: ClassVar[Mapping[str, str]] = {"1.0.0": BOTS_NEVER_AFK}
    min_seats, max_seats = setup.MIN_SEATS, setup.MAX_SEATS
    state_type = State
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES
    title: ClassVar[dict[str, str]] = {"en": "Magnates", "ru": "Магнаты"}
    options_schema = setup.OPTIONS_SCHEMA
    # all is public but the future dice; one decision at a time. A turn takes at most 12 moves (a
    # roll, three King stops of up to 3 options, a piece's move and its stop): 48,000 at the longest
    # round limit, 1000; with none (0) the rules set no bound, the last one standing wins
    nature = GameNature(hidden_information=False, chance=True, simultaneous=False, max_commands=48_000)

    parse_options = staticmethod(setup.parse_options)
    start = staticmethod(setup.start)
    decide = staticmethod(decide)
    evolve = staticmethod(evolve)
    view = staticmethod(view)
    legal = staticmethod(legal_moves)
    pending = staticmethod(pending)
    default_command = staticmethod(default_command)
    outcome = staticmethod(outcome)
    journal = staticmethod(entries)
    standings = staticmethod(standings)


GAME = Magnates()
