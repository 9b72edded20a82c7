"""Given/when/then helpers for Магнаты scenario tests: a table at its start, hand-placed pieces
and Companies, scripted dice, and `when` that checks decide leaves its input unchanged."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec
import pytest

from magnates import board
from magnates.game import GAME
from magnates.state import BANK, State
from tablehall_rules import DecideContext, DrawSource, RuleError, clone
from tablehall_rules.conformance import seats_for

NOW = 1_700_000_000_000


class Dice(DrawSource):
    """A draw source that returns scripted values and fails when it runs dry or is asked twice
    too many."""

    def __init__(self, values: Iterable[int]) -> None:
        super().__init__(b"scripted")
        self.values = list(values)

    def randint(self, lo: int, hi: int) -> int:
        if not self.values:
            raise AssertionError("the test did not script enough dice")
        value = self.values.pop(0)
        assert lo <= value <= hi, f"scripted {value} outside [{lo}, {hi}]"
        return value


def given(seats: int = 2, **options: Any) -> State:
    events = GAME.start(GAME.parse_options(options), seats_for(seats), DecideContext(None, NOW, DrawSource(b"s")))
    state: State | None = None
    for event in events:
        state = GAME.evolve(state, event)
    assert state is not None
    return state


@dataclass
class Then:
    state: State
    events: list[msgspec.Struct] = field(default_factory=list)

    def of(self, kind: type[Any]) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]


def when(state: State, command: msgspec.Struct, dice: Sequence[int] = (), seat: int | None = -1, **ctx: Any) -> Then:
    """Decide `command` for the turn's seat (or `seat`; None: the table) and evolve a copy."""
    who = state.turn if seat == -1 else seat
    source = Dice(dice)
    before = msgspec.json.encode(state)
    events = GAME.decide(state, command, DecideContext(who, ctx.pop("now", NOW), source, **ctx))
    assert msgspec.json.encode(state) == before, "decide changed its input state"
    assert not source.values, f"dice left unused: {source.values}"
    after = clone(state)
    for event in events:
        after = GAME.evolve(after, event)
    return Then(after, list(events))


def refused(state: State, command: msgspec.Struct, reason: str, seat: int | None = -1, **ctx: Any) -> None:
    who = state.turn if seat == -1 else seat
    before = msgspec.json.encode(state)
    with pytest.raises(RuleError) as caught:
        GAME.decide(state, command, DecideContext(who, ctx.pop("now", NOW), Dice([1] * 20), **ctx))
    assert caught.value.reason == reason
    assert msgspec.json.encode(state) == before, "decide changed its input state"


def cell(name: str) -> int:
    return board.grid().parse(name)


def clear_pieces(state: State, *seats: int) -> None:
    for seat in seats or range(len(state.players)):
        state.players[seat].pieces = {}


def put(state: State, seat: int, kind: str, at: str | int) -> None:
    """Place a piece of `seat` (taking it off wherever it stood, and anybody on the cell off)."""
    target = cell(at) if isinstance(at, str) else at
    for p in state.players:
        for k, c in list(p.pieces.items()):
            if c == target:
                del p.pieces[k]
    state.players[seat].pieces[kind] = target


def king_at(state: State, seat: int, position: int) -> None:
    state.players[seat].king = position


def own(state: State, at: str | int, seat: int, level: int = 0) -> int:
    target = cell(at) if isinstance(at, str) else at
    assert board.square(target).is_company
    state.owner[target] = seat
    state.level[target] = level
    return target


def unown(state: State, at: int) -> None:
    state.owner[at] = BANK
    state.level[at] = 0


def legal(state: State, seat: int | None = None) -> list[msgspec.Struct]:
    from tablehall_rules import StructCodec
    from tablehall_rules.legal import expand_all

    who = state.turn if seat is None else seat
    return expand_all(GAME.legal(state, who, NOW), StructCodec(GAME.command_types))


def position_of(kind: str, state: State | None = None) -> int:
    """The first perimeter position of a cell kind (bank, company, investment, ...)."""
    return next(s.position for s in board.squares() if s.kind == kind and s.position >= 0)


def positions(kind: str) -> list[int]:
    return sorted(s.position for s in board.squares() if s.kind == kind and s.position >= 0)
