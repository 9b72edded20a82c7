"""Драконы' legal moves found later are those of the state they were listed for: the contour
search reads copies, so a state that evolves in place before a reader reaches them (the match
service renders after other work) changes nothing. And the turn's `DiscardDie` and `has_use`
still look at every part when the board allows no use directly."""

from __future__ import annotations

import random

import msgspec

from dragons.game import GAME
from dragons.legal import has_use, turn_moves
from dragons.state import TURN, State
from tablehall_rules import DecideContext, DrawSource, StructCodec
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all

CODEC = StructCodec(GAME.command_types)


def _turn_states(seed: int, count: int) -> tuple[list[tuple[State, int]], DrawSource]:
    """States with a turn open from round 3, from one random game, each a copy; its draws."""
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, {}, kit.seats_for(2), rng.randbytes(32))
    now = kit.START_MS
    found: list[tuple[State, int]] = []
    while GAME.outcome(state) is None and len(found) < count:
        decision = rng.choice(GAME.pending(state))
        now += 250
        if state.phase == TURN and state.round >= 3:
            found.append((kit.copy_state(GAME, state), decision.seat))
        legal = expand_all(GAME.legal(state, decision.seat, now), CODEC, limit=400)
        command = rng.choice(legal)
        for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)
    return found, source


def _play_on(st: State, source: DrawSource, rng: random.Random, commands: int) -> None:
    now = kit.START_MS
    for _ in range(commands):
        if GAME.outcome(st) is not None:
            return
        decision = rng.choice(GAME.pending(st))
        now += 250
        command = rng.choice(expand_all(GAME.legal(st, decision.seat, now), CODEC, limit=400))
        for event in GAME.decide(st, command, DecideContext(decision.seat, now, source)):
            GAME.evolve(st, event)


def test_parts_read_after_the_state_moved_on_answer_for_the_state_listed() -> None:
    states, source = _turn_states(7, 40)
    checked = 0
    for st, seat in states:
        expected = msgspec.json.encode(list(GAME.legal(kit.copy_state(GAME, st), seat, 0)))
        moves = GAME.legal(st, seat, 0)
        expand_all(moves, CODEC, limit=1)  # the first part read, the rest not yet
        _play_on(st, source, random.Random(checked), 8)  # in place: the listed board is gone
        assert msgspec.json.encode(list(moves)) == expected
        checked += 1
    assert checked == 40


def test_has_use_agrees_with_the_whole_listing() -> None:
    states, _ = _turn_states(3, 40)
    for st, seat in states:
        assert has_use(st, seat) == any(lm.size() for lm in list(turn_moves(st, seat)))
