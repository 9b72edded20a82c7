"""The test facade every game's rule tests use: a table to play commands on.

    table = Table(GAME, seats=3, options={"heaps": [3, 4]}, seed=b"s", now_ms=NOW)
    events = table.play(Take(heap=0, count=2))            # the seat of the first open decision
    table.play(Roll(), seat=1, dice=(6,))                 # scripted dice: all must be used
    error = table.refused(Take(heap=9, count=1), "NO_SUCH_HEAP")
    table.play(SetPresence(seat=1, present=False), seat=None)   # seat=None: the table itself

`play` checks what every rule test would otherwise repeat: `decide` left its input
unchanged and used every scripted die; then it applies the events with `evolve`.
`refused` checks the refusal's reason, its text in both languages, and that the
state is untouched. Failures are plain `AssertionError`s, so the rules library
does not depend on pytest.

`Dice(6, 2)` is a scripted `DrawSource`: it answers these values to the integer
draws (dice, picks) in order, then fails; `Dice(6, 2, then=b"seed")` falls back to
a seeded source (shuffles too).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, Generic, TypeVar

import msgspec

from tablehall_rules.codec import StructCodec
from tablehall_rules.conformance import START_MS, seats_for
from tablehall_rules.contract import DecideContext, Game, Outcome, PendingDecision, SeatInfo, Viewer
from tablehall_rules.errors import RuleError
from tablehall_rules.legal import expand_all
from tablehall_rules.randomness import Draw, DrawSource

S = TypeVar("S")

NOW_MS = START_MS


class Dice(DrawSource):
    """A scripted draw source: `values` answer the integer draws in order (each within
    the draw's range), then it fails, or with `then` draws from a source seeded so."""

    def __init__(self, *values: int, then: bytes | None = None) -> None:
        super().__init__(then if then is not None else b"scripted dice")
        self.left = list(values)
        self.then = then

    def randint(self, lo: int, hi: int) -> int:
        if not self.left:
            if self.then is None:
                raise AssertionError(
                    f"a draw in [{lo}, {hi}] after the scripted dice ran out: script it, or Dice(..., then=b'seed')"
                )
            return super().randint(lo, hi)
        value = self.left.pop(0)
        if not lo <= value <= hi:
            raise AssertionError(f"scripted {value} is outside the draw's range [{lo}, {hi}]")
        self.draws.append(Draw(n=self.counter, kind="int", lo=lo, hi=hi, value=value))
        self.counter += 1
        return value

    def permutation(self, size: int) -> list[int]:
        if self.then is None:
            raise AssertionError(f"a shuffle of {size}: scripted dice answer integer draws; Dice(..., then=b'seed')")
        return super().permutation(size)


class _Open(Enum):
    SEAT = "the seat of the first open decision"


OPEN_SEAT = _Open.SEAT


def _encoded(state: Any) -> bytes:
    return msgspec.json.encode(state)


class Table(Generic[S]):
    """A game's state and events so far, played through `decide` and `evolve`."""

    def __init__(
        self,
        game: Game[S],
        seats: int | Sequence[SeatInfo] | None = None,
        options: Mapping[str, Any] | None = None,
        seed: bytes = b"table",
        now_ms: int = NOW_MS,
    ) -> None:
        """`game.start` with these seats (a count: `Player 0`, ...; default the fewest the
        game takes) and options (parsed by the game), then `evolve`."""
        count = game.min_seats if seats is None else seats
        chosen = seats_for(count) if isinstance(count, int) else list(count)
        source = DrawSource(seed)
        events = game.start(game.parse_options(options or {}), chosen, DecideContext(None, now_ms, source))
        self._begin(game, None, seed, now_ms, source)
        self._apply(events)

    @classmethod
    def from_events(
        cls, game: Game[S], events: Iterable[msgspec.Struct], seed: bytes = b"table", now_ms: int = NOW_MS
    ) -> Table[S]:
        """A table whose state is these events replayed (the given facts of a scenario)."""
        table = cls.__new__(cls)
        table._begin(game, None, seed, now_ms, DrawSource(seed))
        table._apply(list(events))
        return table

    @classmethod
    def from_state(cls, game: Game[S], state: S, seed: bytes = b"table", now_ms: int = NOW_MS) -> Table[S]:
        """A table at this state (no events so far); the table plays on the state itself."""
        table = cls.__new__(cls)
        table._begin(game, state, seed, now_ms, DrawSource(seed))
        return table

    def _begin(self, game: Game[S], state: S | None, seed: bytes, now_ms: int, source: DrawSource) -> None:
        self.game = game
        self._state = state
        self.seed = seed
        self.now_ms = now_ms
        # the table's own draws, counted on from command to command as a match does
        self.rng = source
        self.events: list[msgspec.Struct] = []

    def _apply(self, events: Sequence[msgspec.Struct]) -> None:
        state = self._state
        for event in events:
            state = self.game.evolve(state, event)
        self._state = state
        self.events.extend(events)

    @property
    def state(self) -> S:
        """The state now (a test may edit it to set up a scene)."""
        if self._state is None:
            raise AssertionError("the table has no state: its events were empty")
        return self._state

    @state.setter
    def state(self, state: S) -> None:
        self._state = state

    # ---- commands ------------------------------------------------------------------------

    def play(
        self,
        command: msgspec.Struct,
        *,
        seat: int | _Open | None = OPEN_SEAT,
        dice: Sequence[int] | DrawSource | None = None,
        now_ms: int | None = None,
        timed_out: PendingDecision | bool | None = None,
    ) -> list[msgspec.Struct]:
        """Decide `command` for `seat` (default: the seat of the first open decision;
        None: the table itself), check that decide left the state unchanged and used every
        scripted die, evolve the events and return them. `now_ms` becomes the table's time;
        `timed_out`: the decision whose clock ran out (True: the seat's open decision whose
        default move this command is)."""
        who = self._seat(seat)
        at = self.now_ms if now_ms is None else now_ms
        source = self.rng if dice is None else dice if isinstance(dice, DrawSource) else Dice(*dice)
        ctx = DecideContext(who, at, source, self._timed_out(timed_out, who, command))
        before = _encoded(self.state)
        try:
            events = self.game.decide(self.state, command, ctx)
        finally:
            self._check_unchanged(before, command)
        if isinstance(source, Dice) and source.left:
            raise AssertionError(f"{command!r} left scripted dice unused: {source.left}")
        self._apply(events)
        self.now_ms = at
        return list(events)

    def refused(
        self,
        command: msgspec.Struct,
        reason: str,
        *,
        seat: int | _Open | None = OPEN_SEAT,
        dice: Sequence[int] | DrawSource | None = None,
        now_ms: int | None = None,
        timed_out: PendingDecision | bool | None = None,
    ) -> RuleError:
        """Decide `command` expecting a refusal with `reason` (texts in both languages) that
        leaves the state untouched; returns the error. The table's draws do not move on."""
        who = self._seat(seat)
        at = self.now_ms if now_ms is None else now_ms
        source = DrawSource(self.seed, self.rng.counter) if dice is None else dice
        rng = source if isinstance(source, DrawSource) else Dice(*source, then=self.seed)
        ctx = DecideContext(who, at, rng, self._timed_out(timed_out, who, command))
        before = _encoded(self.state)
        try:
            events = self.game.decide(self.state, command, ctx)
        except RuleError as error:
            self._check_unchanged(before, command)
            if error.reason != reason:
                raise AssertionError(f"{command!r} refused with {error.reason} ({error}), not {reason}") from error
            if not (error.message_en and error.message_ru):
                raise AssertionError(f"the refusal {error.reason} lacks its text in English or Russian") from error
            return error
        self._check_unchanged(before, command)
        raise AssertionError(f"{command!r} was accepted (expected {reason}): {events}")

    def _seat(self, seat: int | _Open | None) -> int | None:
        if not isinstance(seat, _Open):
            return seat
        decisions = self.pending()
        if not decisions:
            raise AssertionError("no open decision to take the seat from: name it (seat=None: the table)")
        return decisions[0].seat

    def _timed_out(
        self, timed_out: PendingDecision | bool | None, seat: int | None, command: msgspec.Struct
    ) -> PendingDecision | None:
        if not isinstance(timed_out, bool):
            return timed_out
        if not timed_out:
            return None
        for decision in self.pending():
            if decision.seat == seat and self.game.default_command(self.state, decision) == command:
                return decision
        raise AssertionError(f"no open decision of seat {seat} has {command!r} as its default")

    def _check_unchanged(self, before: bytes, command: msgspec.Struct) -> None:
        if _encoded(self.state) != before:
            raise AssertionError(f"decide changed its input state on {command!r}")

    # ---- what the table shows ------------------------------------------------------------

    def legal(self, seat: int | _Open = OPEN_SEAT, now_ms: int | None = None) -> list[msgspec.Struct]:
        """The seat's legal commands, every descriptor spelled out."""
        who = self._seat(seat)
        if who is None:
            raise AssertionError("the table itself has no legal moves: name a seat")
        moves = self.game.legal(self.state, who, self.now_ms if now_ms is None else now_ms)
        return expand_all(moves, StructCodec(self.game.command_types))

    def pending(self) -> list[PendingDecision]:
        return self.game.pending(self.state)

    def view(self, viewer: Viewer | int) -> dict[str, Any]:
        """What a viewer (or a seat, by number) sees."""
        return self.game.view(self.state, Viewer.of_seat(viewer) if isinstance(viewer, int) else viewer)

    def outcome(self) -> Outcome | None:
        return self.game.outcome(self.state)
