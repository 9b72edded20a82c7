"""Self-play: drives a whole match through the public game API (start, decide,
evolve, pending, legal_commands, view) with random or bot players.

Pure and deterministic for a given seed; used by the property tests and the
benchmark. Time is simulated: each command advances it a little, and a clock
is sometimes let run out so that default moves and AFK are exercised.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import msgspec

from puzzipolia import bot
from puzzipolia import commands as c
from puzzipolia.bot import CODEC
from puzzipolia.decide import decide
from puzzipolia.evolve import evolve
from puzzipolia.legal import legal_commands
from puzzipolia.pending import default_command, pending
from puzzipolia.setup import start
from puzzipolia.state import State
from puzzipolia.view import view
from tablehall_rules import DecideContext, DrawSource, LegalMove, SeatInfo, Viewer
from tablehall_rules.legal import draw

PROGRESS = (
    c.RollForOrder,
    c.Roll,
    c.EndTurn,
    c.Buy,
    c.DeclineBuy,
    c.Choose67,
    c.PayDebt,
    c.CollectDebt,
    c.Bid,
    c.PassAuction,
    c.PayJailFine,
    c.UseJailCard,
    c.AcceptTrade,
    c.DeclineTrade,
    c.VoteEnd,
)
RARE = (c.Leave, c.Surrender, c.ProposeEnd)
# how often a random player leaves, surrenders or proposes the end unforced (per command): rare
# enough that most games reach debts, auctions, building and bankruptcy
QUIT_RATE = 0.0005


def random_choice(legal: Sequence[c.Command], rng: random.Random, *, quitting: bool = True) -> c.Command:
    """A random legal player: mostly moves the game on, sometimes builds, mortgages or trades,
    rarely leaves, surrenders or proposes the end (never when `quitting` is False, unless forced)."""
    return _random_pick(legal, lambda x: x, rng.choice, rng, quitting)


def random_choice_moves(moves: Sequence[LegalMove], rng: random.Random, *, quitting: bool = True) -> c.Command:
    """`random_choice(expand_all(moves, CODEC), ...)` on the descriptors: the same command with the
    same draws, only that one spelled out (an auction's range of bids is one descriptor)."""
    spelling = [lm for lm in moves if lm.size()]
    return _random_pick(
        spelling, lambda lm: lm.command, lambda kind: cast(c.Command, draw(kind, rng, CODEC)), rng, quitting
    )


Item = TypeVar("Item")


def _random_pick(
    legal: Sequence[Item],
    command_of: Callable[[Item], Any],
    choose: Callable[[list[Item]], c.Command],
    rng: random.Random,
    quitting: bool,
) -> c.Command:
    """`random_choice` over commands or the descriptors spelling them (`command_of` gives the
    command or the template whose type decides its kind; `choose` draws one command of a kind)."""
    progress = [x for x in legal if isinstance(command_of(x), PROGRESS)]
    rare = [x for x in legal if isinstance(command_of(x), RARE)]
    other = [x for x in legal if not isinstance(command_of(x), PROGRESS + RARE)]
    roll = rng.random()
    if rare and quitting and roll < QUIT_RATE:
        return choose(rare)
    if other and (roll < 0.25 or not progress):
        return choose(other)
    if progress:
        return choose(progress)
    # forced: a debtor with nothing left surrenders; leaving is the very last resort
    staying = [x for x in rare if not isinstance(command_of(x), c.Leave)]
    return choose(staying or rare)


def has_move(legal: Sequence[c.Command]) -> bool:
    """Whether a seat has something to do besides leaving, surrendering or proposing the end."""
    return any(not isinstance(x, RARE) for x in legal)


@dataclass
class GameRecord:
    state: State
    events: list[msgspec.Struct]
    commands: int = 0
    bot_decisions: int = 0
    violations: list[str] = field(default_factory=list)


Check = Callable[[State, list[msgspec.Struct]], None]


def play(
    kinds: Sequence[str],
    seed: int,
    *,
    options: dict[str, Any] | None = None,
    timeout_rate: float = 0.02,
    max_commands: int = 50_000,
    quitting: bool = True,
    check: Check | None = None,
    verify_pure: bool = False,
) -> GameRecord:
    """Play one match; `kinds[i]` is "bot" or "random" for seat i."""
    rng = random.Random(seed)
    draws = DrawSource(seed.to_bytes(8, "big") * 4)
    seats = [SeatInfo(seat=i, user_id=f"u{i}", name=f"P{i}", is_bot=k == "bot") for i, k in enumerate(kinds)]
    now = 1_000
    events = start(options or {}, seats, DecideContext(seat=None, now_ms=now, rng=draws))
    state: State | None = None
    for e in events:
        state = evolve(state, e)
    assert state is not None
    record = GameRecord(state=state, events=list(events))
    while state.phase != "over" and record.commands < max_commands:
        decisions = pending(state)
        if not decisions:
            raise RuntimeError("no open decision in a running game")
        now += 100
        if rng.random() < timeout_rate:
            d = rng.choice(decisions)
            now = max(now, d.deadline_ms)
            command: c.Command = default_command(state, d)
            ctx = DecideContext(seat=d.seat, now_ms=now, rng=draws, timed_out=d)
        else:
            seat = rng.choice(decisions).seat
            legal = legal_commands(state, seat, now)
            if rng.random() < 0.1:
                # now and then a random seat without a decision acts (builds, mortgages, trades), if it can;
                # bots act on their decisions only, as the bot service does
                idle = rng.choice(state.live_seats())
                idle_legal = legal_commands(state, idle, now)
                if kinds[idle] != "bot" and has_move(idle_legal):
                    seat, legal = idle, idle_legal
            if kinds[seat] == "bot":
                command = bot.choose(view(state, Viewer.of_seat(seat)), legal, rng)
                record.bot_decisions += 1
            else:
                command = random_choice(legal, rng, quitting=quitting)
            ctx = DecideContext(seat=seat, now_ms=now, rng=draws)
        before = msgspec.json.encode(state) if verify_pure else b""
        new = decide(state, command, ctx)
        if verify_pure and msgspec.json.encode(state) != before:
            raise AssertionError(f"decide changed its input state on {command!r}")
        record.commands += 1
        for e in new:
            state = evolve(state, e)
        record.events.extend(new)
        if check is not None:
            check(state, new)
    record.state = state
    return record
