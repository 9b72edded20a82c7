"""The Пузиполия game object the platform loads (`puzzipolia.game:GAME`): each member of the
contract is the rules module that answers it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from puzzipolia import setup
from puzzipolia.bot_hooks import BotHooks
from puzzipolia.commands import COMMAND_TYPES, HostProposeEnd
from puzzipolia.decide import decide
from puzzipolia.events import EVENT_TYPES, RETIRED_EVENTS
from puzzipolia.evolve import evolve
from puzzipolia.journal import entries
from puzzipolia.moves import legal_moves
from puzzipolia.pending import default_command, pending
from puzzipolia.rules.end import END_REASONS, outcome, standings
from puzzipolia.state import State
from puzzipolia.view import view
from tablehall_rules import BOTS_NEVER_AFK, Game, GameNature, HasStandings, Journaled
from tablehall_rules.table import SeatedGame


class Puzzipolia(Game[State], SeatedGame, Journaled, HasStandings, BotHooks):
    id = "puzzipolia"
    rules_version = "1.1.0"  # 1.1.0: a bot seat is never AFK
    earlier_rules: ClassVar[Mapping[str, str]] = {"1.0.0": BOTS_NEVER_AFK}
    min_seats, max_seats = setup.MIN_SEATS, setup.MAX_SEATS
    state_type = State
    command_types = COMMAND_TYPES
    event_types = EVENT_TYPES
    retired_events = RETIRED_EVENTS
    title: ClassVar[dict[str, str]] = {"en": "Puzzipolia", "ru": "Пузиполия"}
    options_schema = setup.OPTIONS_SCHEMA
    end_reasons = END_REASONS
    # the decks' order is hidden; dice; bids, offers and votes are open to several seats at once.
    # A turn takes some 40 commands at most in play (three rolls, a card, a buy or an auction's
    # bids, building, mortgages, a trade or two); the longest round limit is 1000 rounds, of up to
    # 6 seats (7+ always have 8-12 rounds): 1000 × 6 × 40 = 240,000. With no round limit (0) the
    # rules set no bound: the last one standing, or the vote, ends it
    nature = GameNature(hidden_information=True, chance=True, simultaneous=True, max_commands=240_000)

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

    def host_end_command(self, host_seat: int | None) -> HostProposeEnd:
        """The host's ■ (end for all): a vote, or the end at once when only bots play on."""
        return HostProposeEnd(host_seat=-1 if host_seat is None else host_seat)


GAME = Puzzipolia()
