"""A game's nature, in the spirit of OpenSpiel's `GameType`: what kind of game
it is, which the platform, the conformance checks and the bot read instead of
guessing from a game's id.
"""

from __future__ import annotations

import msgspec


class GameNature(msgspec.Struct, frozen=True, kw_only=True):
    """What kind of game a `Game` is.

    - `hidden_information`: some seat may not see all of the state (hands,
      a deck's order, sealed answers); the bot then samples the hidden part
      (`Determinizable`) and the redaction checks must find something hidden;
    - `chance`: dice or shuffles take part (every draw is recorded);
    - `simultaneous`: several seats may hold open decisions at once (bids,
      votes, sealed answers), so a move of one seat does not wait for another;
    - `max_commands`: the most commands a match may take before it must
      have ended (by its own round limit or a forced end); the random-game
      checks fail a game that runs longer.

    Teams are the contract's `supports_teams` / `teams(options, seats)`.
    """

    hidden_information: bool
    chance: bool
    simultaneous: bool
    max_commands: int
