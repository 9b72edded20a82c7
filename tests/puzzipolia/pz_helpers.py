"""Given events / when command / then events or error: helpers for the rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import pytest

from puzzipolia.cards import deck_cards
from puzzipolia.decide import decide
from puzzipolia.events import Event, GameStarted, OrderDecided, SeatEntry, TurnStarted
from puzzipolia.evolve import evolve
from puzzipolia.pending import default_command, pending
from puzzipolia.state import State, clone
from tablehall_rules import DecideContext, DrawSource, PendingDecision, RuleError


class Dice(DrawSource):
    """A draw source that answers the scripted values first (dice, then anything)."""

    def __init__(self, *values: int) -> None:
        super().__init__(b"\x07" * 32)
        self.values = list(values)

    def randint(self, lo: int, hi: int) -> int:
        if self.values:
            value = self.values.pop(0)
            assert lo <= value <= hi, (value, lo, hi)
            return value
        return super().randint(lo, hi)


def started(
    players: int = 3,
    *,
    money: int = 1500,
    board: str | None = None,
    round_limit: int = 0,
    clock_s: int = 30,
    bots: Sequence[int] = (),
    chance: Sequence[str] | None = None,
    chest: Sequence[str] | None = None,
) -> list[Event]:
    """A table past its order roll: seat 0 to play, round 1."""
    kind = board or ("large" if players >= 9 else "classic")
    decks = {
        "chance": list(chance) + [c for c in deck_cards("chance") if c not in chance]
        if chance
        else list(deck_cards("chance")),
        "chest": list(chest) + [c for c in deck_cards("chest") if c not in chest]
        if chest
        else list(deck_cards("chest")),
    }
    return [
        GameStarted(
            board=kind,
            start_money=money,
            clock_ms=clock_s * 1000,
            round_limit=round_limit,
            seats=[SeatEntry(seat=i, name=f"P{i}", is_bot=i in bots) for i in range(players)],
            decks=decks,
        ),
        OrderDecided(order=list(range(players))),
        TurnStarted(seat=0, round=1),
    ]


def given(*events: Event, table: list[Event] | None = None) -> State:
    state: State | None = None
    for e in (table if table is not None else started()) + list(events):
        state = evolve(state, e)
    assert state is not None
    return state


def timed_out(state: State, command: Any, seat: int | None) -> PendingDecision:
    """The decision the platform would name for a clock's `command`: the seat's
    open decision with that default (else any of the seat's, which the engine refuses)."""
    mine = [d for d in pending(state) if d.seat == seat]
    fallback = mine[0] if mine else PendingDecision("none", seat or 0, "none", "decision", 0, 0)
    return next((d for d in mine if default_command(state, d) == command), fallback)


def when(
    state: State,
    command: Any,
    seat: int | None = 0,
    *,
    now: int = 1_000,
    dice: Sequence[int] = (),
    timeout: bool = False,
) -> list[Event]:
    """Decide `command`; also checks that decide leaves its input untouched."""
    before = msgspec.json.encode(state)
    ctx = DecideContext(
        seat=seat, now_ms=now, rng=Dice(*dice), timed_out=timed_out(state, command, seat) if timeout else None
    )
    try:
        return list(decide(state, command, ctx))
    finally:
        assert msgspec.json.encode(state) == before, "decide mutated its input"


def then(state: State, events: Sequence[Event]) -> State:
    after = clone(state)
    for e in events:
        after = evolve(after, e)
    return after


def refused(state: State, command: Any, reason: str, seat: int | None = 0, **kw: Any) -> RuleError:
    with pytest.raises(RuleError) as info:
        when(state, command, seat, **kw)
    assert info.value.reason == reason, info.value
    assert info.value.message_en and info.value.message_ru
    return info.value


def kinds(events: Sequence[Event]) -> list[str]:
    return [type(e).__name__ for e in events]


def of(events: Sequence[Event], kind: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]


def at(seat: int, square: int) -> Event:
    from puzzipolia.events import Moved

    return Moved(seat=seat, from_square=0, to_square=square, via="roll")


def owns(seat: int, *squares: int) -> list[Event]:
    from puzzipolia.events import StreetDealt

    return [StreetDealt(seat=seat, square=s) for s in squares]


def houses(seat: int, square: int, n: int) -> list[Event]:
    from puzzipolia.events import BuildingBuilt

    return [BuildingBuilt(seat=seat, square=square, cost=0) for _ in range(n)]


def money(seat: int, amount: int) -> Event:
    """Set-up shorthand: the bank pays (or, negative, takes) `amount`."""
    from puzzipolia.events import MoneyTransferred

    if amount >= 0:
        return MoneyTransferred(payer=None, payee=seat, amount=amount, reason="setup")
    return MoneyTransferred(payer=seat, payee=None, amount=-amount, reason="setup")
