"""Scene set-up for the rule tests (a table past its order roll, lots, houses, money), and
`when`/`refused` as shorthands of the kit's `tablehall_rules.testing.Table` on a scene."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from puzzipolia.cards import deck_cards
from puzzipolia.events import Event, GameStarted, OrderDecided, SeatEntry, TurnStarted
from puzzipolia.evolve import evolve
from puzzipolia.game import GAME
from puzzipolia.state import State
from tablehall_rules import RuleError, clone
from tablehall_rules.testing import Dice, Table


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


def _table(state: State, now: int) -> Table[State]:
    """The kit's test facade on a copy of `state` (the scene stays as it was)."""
    return Table.from_state(GAME, clone(state), now_ms=now)


def when(
    state: State,
    command: Any,
    seat: int | None = 0,
    *,
    now: int = 1_000,
    dice: Sequence[int] = (),
    timeout: bool = False,
) -> list[Event]:
    """Decide `command` through `tablehall_rules.testing.Table.play` (decide leaves its input
    untouched, every scripted die is used; `timeout`: the seat's open decision whose default it is)."""
    source = Dice(*dice, then=b"\x07" * 32)
    return _table(state, now).play(command, seat=seat, dice=source, timed_out=timeout or None)  # type: ignore[return-value]


def then(state: State, events: Sequence[Event]) -> State:
    after = clone(state)
    for e in events:
        after = evolve(after, e)
    return after


def refused(
    state: State, command: Any, reason: str, seat: int | None = 0, *, now: int = 1_000, dice: Sequence[int] = ()
) -> RuleError:
    """`Table.refused`: refused with `reason`, its texts in both languages, the state untouched."""
    return _table(state, now).refused(command, reason, seat=seat, dice=list(dice))


def deadline(state: State, seat: int) -> int:
    """When the seat's first clock runs out (the match refuses a default move before it)."""
    return min(d.deadline_ms for d in GAME.pending(state) if d.seat == seat)


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
