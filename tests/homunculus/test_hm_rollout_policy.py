"""The playout player of the strong bot's search (`homunculus.policy.rollout_policy`) and its
evaluation, in states of random games (hypothesis picks the set-up, the seed and how far the
game goes; the games mix the playout player, the random player and clock-outs):

- every open decision gets a move, and the rules accept it;
- it plays on what the mover could know: dealing the other hands and the piles anew and moving
  the mines the mover cannot see changes none of its moves;
- the evaluation is in [0, 1], and the sides' shares add up to 1 while the game goes on
  (heads-up).
"""

from __future__ import annotations

import random

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from homunculus import commands as c
from homunculus.game import GAME
from homunculus.policy import evaluate, rollout_policy
from homunculus.state import State
from tablehall_boards import cross
from tablehall_rules import DecideContext, DrawSource, RuleError, StructCodec
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all

CODEC = StructCodec(GAME.command_types)
SETUPS = [(2, False), (3, False), (4, False), (4, True)]


def clone(state: State) -> State:
    return msgspec.msgpack.decode(msgspec.msgpack.encode(state), type=State)


def walk(players: int, teams: bool, seed: int, steps: int) -> tuple[State, DrawSource, int, int]:
    """A random game `steps` commands in, checking every open decision's playout move on the
    way; (the state, its draws, the time, the moves checked)."""
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, {"teams": teams}, kit.seats_for(players), rng.randbytes(32))
    now = kit.START_MS
    checked = 0
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        now += 250
        pending = GAME.pending(state)
        for d in pending:
            command = rollout_policy(state, d.seat, random.Random(checked))
            assert command is not None, (d, state.phase)
            try:
                GAME.decide(state, command, DecideContext(d.seat, now, source))
            except RuleError as exc:
                raise AssertionError(f"{command} refused for seat {d.seat} in phase {state.phase}: {exc}") from exc
            checked += 1
        decision = rng.choice(pending)
        roll = rng.random()
        if decision.has_clock and roll < 0.05:
            now = max(now, decision.deadline_ms)
            command = GAME.default_command(state, decision)
            ctx = DecideContext(decision.seat, now, source, timed_out=decision)
        elif roll < 0.3:
            legal = [
                m
                for m in expand_all(GAME.legal(state, decision.seat, now), CODEC, limit=300)
                if not isinstance(m, c.Surrender)
            ]
            if not legal:
                continue
            command = rng.choice(legal)
            ctx = DecideContext(decision.seat, now, source)
        else:
            played = rollout_policy(state, decision.seat, rng)
            assert played is not None
            command, ctx = played, DecideContext(decision.seat, now, source)
        for event in GAME.decide(state, command, ctx):
            state = GAME.evolve(state, event)
    return state, source, now, checked


def with_other_secrets(state: State, seat: int, rng: random.Random) -> State:
    """The same table as `seat` sees it, the rest dealt anew: the other hands and the draw pile
    reshuffled together (sizes kept), the mines the seat cannot see moved to other closed cells."""
    junk = clone(state)
    others = [p for p in range(junk.players) if p != seat]
    pool = [card for p in others for card in junk.hands[p]] + list(junk.deck.draw_pile)
    rng.shuffle(pool)
    for p in others:
        size = len(junk.hands[p])
        junk.hands[p], pool = pool[:size], pool[size:]
    junk.deck = msgspec.structs.replace(junk.deck, draw_pile=tuple(pool))
    taken = set(junk.pieces) | set(junk.opened) | {x for d in junk.dominoes for x in d.cells}
    taken |= {m.cell for m in junk.mines}
    free = sorted(x for x in cross.centre() if x not in taken)
    rng.shuffle(free)
    for m in junk.mines:
        if not junk.mine_visible_to(m, seat) and free:
            m.cell = free.pop()
    return junk


@settings(max_examples=25, deadline=None)
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 10**6), steps=st.integers(0, 160))
def test_every_playout_move_is_accepted_and_reads_only_what_the_mover_could_know(
    setup: tuple[int, bool], seed: int, steps: int
) -> None:
    players, teams = setup
    state, _, _, checked = walk(players, teams, seed, steps)
    assert checked >= min(steps, 1) or GAME.outcome(state) is not None
    for d in GAME.pending(state):
        junk = with_other_secrets(state, d.seat, random.Random(seed))
        for s in range(5):
            assert rollout_policy(state, d.seat, random.Random(s)) == rollout_policy(junk, d.seat, random.Random(s))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200))
def test_the_evaluation_is_a_share(seed: int, steps: int) -> None:
    state, _, _, _ = walk(2, False, seed, steps)
    values = [evaluate(state, p) for p in range(2)]
    assert all(0.0 <= v <= 1.0 for v in values)
    if not state.finished:  # a finished game's shared first place scores 1 for each
        assert abs(sum(values) - 1.0) < 1e-9
