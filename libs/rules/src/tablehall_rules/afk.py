"""The AFK ladder every game shares: who is away, and how long their clocks run.

- A seat whose clock ran out on one of its own decisions is AFK: from then on
  its decisions get `AFK_CLOCK_MS` clocks, until the seat acts itself.
- A seat whose presence dropped (the player closed the client) is AFK at once.
- A seat handed to a bot is played by the bot with normal clocks; taken back,
  it is its player's again and not AFK.
- A seat a bot holds from the start (`bots`) is never away: AFK is a person's
  state («пока ты что-нибудь не нажмёшь», «закроешь вкладку»). A clock it
  misses (the server was behind) is played by the default move and is no
  strike, so its clocks stay the normal ones; a 2-second clock would be one a
  bot behind a busy server could never meet again. A person taking the seat
  over makes it a person's seat.
- Reaction windows never count: closing unused is no strike.

`strikes` counts the seat's clock-ended turns in a row (a game may rule that
three put the seat out, as Гомункул does); acting resets it.

A game keeps one `AfkLadder` in its state and calls these from `evolve` for
the events that carry the facts, so replay gives the same ladder.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from tablehall_rules.contract import PendingDecision

AFK_CLOCK_MS = 2000
# the change of each game's rules that brought `bots` (their `Game.earlier_rules` entry): a stream
# of the rules before it verifies with these unless a bot held from the start missed a clock
BOTS_NEVER_AFK = "a seat a bot holds from the start is never AFK (a clock it misses is no strike)"


class AfkLadder(msgspec.Struct):
    afk: list[bool]
    strikes: list[int]
    by_bot: list[bool]
    # whose client is gone (presence dropped); states stored before the field read as all present
    absent: list[bool] = msgspec.field(default_factory=list)
    # the seats a bot holds from the start (never away); states stored before the field: none
    bots: list[bool] = msgspec.field(default_factory=list)

    @classmethod
    def for_seats(cls, count: int, bots: Sequence[int] = ()) -> AfkLadder:
        """A ladder for seats 0..count-1, `bots` the seat numbers a bot holds from the start."""
        held = [False] * count
        for seat in bots:
            held[seat] = True
        return cls(afk=[False] * count, strikes=[0] * count, by_bot=[False] * count, absent=[False] * count, bots=held)

    def __post_init__(self) -> None:
        missing = len(self.afk) - len(self.absent)
        if missing > 0:  # stored before `absent` existed: everyone present
            self.absent.extend([False] * missing)
        missing = len(self.afk) - len(self.bots)
        if missing > 0:  # stored before `bots` existed: every seat a person's
            self.bots.extend([False] * missing)

    @property
    def seats(self) -> int:
        return len(self.afk)

    def is_absent(self, seat: int) -> bool:
        return self.absent[seat]

    def is_afk(self, seat: int) -> bool:
        return self.afk[seat]

    def clock_ms(self, seat: int, normal_ms: int) -> int:
        """The clock for the seat's next decision."""
        return AFK_CLOCK_MS if self.afk[seat] and not self.by_bot[seat] else normal_ms

    def timed_out(self, decision: PendingDecision, counts: bool = True) -> None:
        """The clock of `decision` ran out. `counts`: the game counts it as a strike
        (e.g. a turn's clock, not an auction bid's)."""
        if decision.reaction or not counts:
            return
        self.strike(decision.seat)

    def strike(self, seat: int) -> None:
        """A turn of the seat's ended by its clock: AFK and a strike, unless a bot holds the seat."""
        if self.bots[seat]:
            return
        self.afk[seat] = True
        self.strikes[seat] += 1

    def acted(self, seat: int) -> None:
        """The seat made a move itself: back from AFK, strikes reset."""
        self.afk[seat] = False
        self.strikes[seat] = 0

    def presence(self, seat: int, present: bool) -> None:
        """Presence dropped: AFK at once. Coming back is not acting."""
        self.absent[seat] = not present
        if not present and not self.bots[seat]:
            self.afk[seat] = True

    def controller(self, seat: int, by_bot: bool) -> None:
        """Handed to a bot (True) or taken back by its player (False)."""
        self.by_bot[seat] = by_bot
        self.afk[seat] = False
        self.strikes[seat] = 0
        if not by_bot:
            self.bots[seat] = False  # a person took the seat over
