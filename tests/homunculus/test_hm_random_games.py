"""Random games (2, 3, 4 players, 2-on-2) never raise, always end, replay identically, and
no seat's view shows another seat's hand or a hidden mine; thousands more, with every check of
a soak, in test_hm_soak.py under `make soak`."""

from __future__ import annotations

import random

import msgspec
import pytest
from hm_soak import check_views, replayed

from homunculus import commands as c
from homunculus.board import moves_of
from homunculus.game import GAME
from homunculus.state import State
from tablehall_boards import Kind, MoveGenerator, OccupancyBlocking, Piece, cross
from tablehall_rules import DecideContext, StructCodec, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all

CODEC = StructCodec(GAME.command_types)
SETUPS = [(2, False), (3, False), (4, False), (4, True)]


def play(players: int, teams: bool, seed: int, max_commands: int = 6000) -> tuple[State, list[msgspec.Struct]]:
    rng = random.Random(seed)
    state, events, source = kit.start(GAME, {"teams": teams}, kit.seats_for(players), rng.randbytes(32))
    now = kit.START_MS
    commands = 0
    while GAME.outcome(state) is None:
        assert commands < max_commands, "the game does not end"
        decision = rng.choice(GAME.pending(state))
        now += 250
        if decision.has_clock and rng.random() < 0.03:
            now = max(now, decision.deadline_ms)
            command = GAME.default_command(state, decision)
            ctx = DecideContext(decision.seat, now, source, timed_out=decision)
        else:
            legal = expand_all(GAME.legal(state, decision.seat, now), CODEC, limit=300)
            legal = [m for m in legal if not isinstance(m, c.Surrender)]
            if not legal:
                continue
            seen = GAME.view(state, Viewer.of_seat(decision.seat))
            command = (GAME.bot_policy if decision.seat % 2 else GAME.random_policy)(seen, legal, rng)
            ctx = DecideContext(decision.seat, now, source)
        new = GAME.decide(state, command, ctx)
        for event in new:
            state = GAME.evolve(state, event)
        events.extend(new)
        commands += 1
        check_views(state)
        _check_ring(state)
    return state, events


def _check_ring(state: State) -> None:
    """The ring's stock is conserved and nobody's gold goes below zero (debts are collected)."""
    r = state.ring
    assert r.houses_bank + sum(b for b in r.buildings if b < 5) == 32
    assert r.hotels_bank + sum(1 for b in r.buildings if b == 5) == 12
    assert all(g >= 0 for g in state.gold)
    assert all(r.owners[i] < 0 or state.alive[r.owners[i]] for i in range(40))


@pytest.mark.parametrize(("players", "teams"), SETUPS)
@pytest.mark.parametrize("seed", range(3))
def test_random_games_end_and_replay(players: int, teams: bool, seed: int) -> None:
    final, events = play(players, teams, seed)
    outcome = GAME.outcome(final)
    assert outcome is not None and sum(len(p) for p in outcome.places) == players
    assert msgspec.json.encode(replayed(events)) == msgspec.json.encode(final)


@pytest.mark.parametrize("seed", range(40))
def test_without_dominoes_moves_are_chess_moves_with_allies(seed: int) -> None:
    """With no tiles on the board, the game's blocking is plain occupancy (allies blocked)."""
    rng = random.Random(seed)
    state, _, _ = kit.start(GAME, {"teams": seed % 2 == 0}, kit.seats_for(4), rng.randbytes(32))
    cells = rng.sample(range(len(cross.grid())), 24)
    state.pieces = {cell: Piece(rng.choice(list(Kind)), rng.randrange(4)) for cell in cells}
    gen = MoveGenerator(cross.grid(), {p: cross.pawn_rules(a) for p, a in enumerate(state.arms)})
    blocking = OccupancyBlocking(len(cross.grid()), state.pieces, lambda a, b: not state.allied(a, b))
    for player in range(4):
        assert moves_of(state, player) == gen.moves(state.pieces, player, blocking)
