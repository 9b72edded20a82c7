"""A seat a bot holds from the start is never AFK, in every product game (the shared AFK ladder,
`tablehall_rules.afk`): every clock left to run out, a bot seat keeps normal clocks, is never
marked AFK, takes no strike (so Гомункул never puts a bot out for the clock), while the person's
seat at the same table goes AFK and gets the ladder's 2-second clocks.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from tablehall_rules import AFK_CLOCK_MS, DecideContext, Game, StructCodec
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all
from tablehall_rules.registry import get_game

GAMES = [("puzzipolia", 4), ("homunculus", 4), ("dragons", 2), ("magnates", 4)]
PERSON = 0  # seat 0 is a person's, the others a bot's from the start
COMMANDS = 160


def play_every_clock_out(game: Game[Any], seats: int, seed: int) -> tuple[list[msgspec.Struct], list[int]]:
    """A game where every clocked decision runs out (the default is played) and the rest are random
    legal commands; after each command, the clocks of every open decision are checked. Returns the
    events and the clocks the person's seat was given."""
    rng = random.Random(seed)
    state, events, source = kit.start(game, {}, kit.seats_for(seats, bots=seats - 1), rng.randbytes(32))
    codec = StructCodec(game.command_types)
    now = kit.START_MS
    person_clocks: list[int] = []
    for _ in range(COMMANDS):
        if game.outcome(state) is not None:
            break
        decisions = game.pending(state)
        for decision in decisions:
            if decision.seat != PERSON:
                assert decision.clock_ms != AFK_CLOCK_MS or not decision.has_clock, (game.id, decision)
            elif decision.has_clock:
                person_clocks.append(decision.clock_ms)
        for seat in range(1, seats):
            assert not state.afk.is_afk(seat) and state.afk.strikes[seat] == 0, (game.id, seat)
        clocked = [d for d in decisions if d.has_clock]
        decision = rng.choice(clocked or decisions)
        if decision.has_clock:
            now = max(now + 1, decision.deadline_ms)
            command = game.default_command(state, decision)
            ctx = DecideContext(decision.seat, now, source, timed_out=decision)
        else:
            now += 250
            legal = expand_all(game.legal(state, decision.seat, now), codec, limit=50)
            if not legal:
                continue
            command = rng.choice(legal)
            ctx = DecideContext(decision.seat, now, source)
        new = game.decide(state, command, ctx)
        for event in new:
            state = game.evolve(state, event)
        events.extend(new)
    return events, person_clocks


@pytest.mark.parametrize(("game_id", "seats"), GAMES)
def test_a_bot_seat_keeps_normal_clocks_while_the_persons_goes_afk(game_id: str, seats: int) -> None:
    game = get_game(game_id)
    events, person_clocks = play_every_clock_out(game, seats, seed=7)
    # the person's seat did go on the ladder's short clocks: the check above sees both kinds of seat
    assert AFK_CLOCK_MS in person_clocks, (game_id, sorted(set(person_clocks)))
    # nobody was put out for the clock but (possibly) the person
    for event in events:
        if getattr(event, "reason", None) == "clock":
            assert getattr(event, "seat", PERSON) == PERSON, (game_id, event)


def test_the_ladder_rebuilt_from_events_knows_the_bot_seats() -> None:
    game = get_game("dragons")
    rng = random.Random(3)
    state, events, _ = kit.start(game, {}, kit.seats_for(2, bots=1), rng.randbytes(32))
    rebuilt = kit.replay(game, events)
    assert rebuilt.afk.bots == [False, True] == state.afk.bots
