"""`nth` makes the command `expand_all` spells out at an index, alone, and `count_upto` counts
the commands as far as a limit: on the legal moves of every game's states from random matches,
every index agrees with the spelled-out list, and neither reads a `LegalMoves` part past its
limit (as `expand_all` with the same limit reads none)."""

from __future__ import annotations

import functools
import random
from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.randomplay import existing_games

from tablehall_rules import DecideContext, DrawSource, Game, LegalMove, SeatInfo
from tablehall_rules.legal import Choice, IntRange, LegalMoves, count, count_upto, expand_all, move, nth
from tablehall_stream.codecs import command_codec


class Pair(msgspec.Struct, frozen=True):
    a: int
    b: str


GAMES = {game.id: game for game in existing_games()}
NOW_MS = 1_700_000_000_000
QUITTING = {"Leave", "Surrender", "ProposeEnd", "Resign", "Concede"}
# indexes tried a listing: all of a short one, a sample of a long one
SAMPLE = 60


def _listings(game: Game[Any], seed: int, steps: int) -> list[tuple[int, list[LegalMove]]]:
    """The legal moves of each seat with a decision, along a random match (a first legal
    command played each step, chosen at random)."""
    rng = random.Random(seed)
    seats = [SeatInfo(i, f"u{i}", f"U{i}") for i in range(game.min_seats)]
    source = DrawSource(rng.randbytes(32), 0)
    ctx = DecideContext(seat=None, now_ms=NOW_MS, rng=source)
    state = None
    for event in game.start(game.parse_options({}), seats, ctx):
        state = game.evolve(state, event)
    codec = command_codec(game.id)
    out: list[tuple[int, list[LegalMove]]] = []
    for _ in range(steps):
        if game.outcome(state) is not None:
            break
        decisions = game.pending(state)
        if not decisions:
            break
        seat = rng.choice(decisions).seat
        moves = list(game.legal(state, seat, NOW_MS))
        out.append((seat, moves))
        # played on: nobody leaves, resigns or proposes the end (a short match lists little)
        commands = [c for c in expand_all(moves, codec, limit=200) if type(c).__name__ not in QUITTING]
        if not commands:
            break
        try:
            events = game.decide(state, rng.choice(commands), DecideContext(seat=seat, now_ms=NOW_MS, rng=source))
        except Exception:
            break  # a command the listing admits that the moment refuses (a reaction window): stop here
        for event in events:
            state = game.evolve(state, event)
    return out


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_index_is_the_spelled_out_command(game_id: str) -> None:
    game = GAMES[game_id]
    codec = command_codec(game_id)
    rng = random.Random(game_id)
    checked = 0
    for seed in range(3):
        for _seat, moves in _listings(game, seed, 40):
            spelled = expand_all(moves, codec)
            assert count_upto(moves, 10**9) == count(moves) == len(spelled)
            indexes = range(len(spelled)) if len(spelled) <= SAMPLE else rng.sample(range(len(spelled)), SAMPLE)
            for k in indexes:
                assert nth(moves, k, codec) == spelled[k], (game_id, k)
                checked += 1
            with pytest.raises(IndexError):
                nth(moves, len(spelled), codec)
    assert checked >= 20


@given(
    sizes=st.lists(st.tuples(st.integers(1, 4), st.integers(1, 5)), min_size=1, max_size=5),
    limit=st.integers(1, 60),
)
@settings(max_examples=150, deadline=None)
def test_count_upto_reads_no_part_past_its_limit(sizes: list[tuple[int, int]], limit: int) -> None:
    reached: list[int] = []

    def part(i: int, na: int, nb: int) -> list[LegalMove]:
        reached.append(i)
        return [move(Pair(0, ""), a=IntRange(i * 10, i * 10 + na - 1), b=Choice([f"{i}-{j}" for j in range(nb)]))]

    listing = LegalMoves([functools.partial(part, i, na, nb) for i, (na, nb) in enumerate(sizes)])
    total = sum(na * nb for na, nb in sizes)
    assert count_upto(listing, limit) == min(total, limit)
    # the parts found: exactly those `expand_all` with that limit reads
    spelled_reached = list(reached)
    reached.clear()
    fresh = LegalMoves([functools.partial(part, i, na, nb) for i, (na, nb) in enumerate(sizes)])
    codec = command_codec("testgame")
    assert len(expand_all(fresh, codec, limit=limit)) == min(total, limit)
    assert reached == spelled_reached
    # and every index, through the product order (the last parameter fastest)
    everything = expand_all(fresh, codec)
    for k, command in enumerate(everything):
        assert nth(fresh, k, codec) == command
