"""Playing a sampled world forward: one command by the rules, or many by a policy.

A game's playout policy (`rollout_policy`), when it has one, chooses each
playout move from the sampled state itself; else the move is the heuristic's,
from the mover's view of the sample and its spelled-out legal commands (the
slow path, also taken when the rules refuse the policy's move).

Time in a sampled world is simulated: each command moves it on a little from
the view's `now_ms`. A command the rules refuse in a sample (its clock ran out
there, say) is replaced by the decision's default move, as the timer would.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import msgspec

from tablehall_bot.search.hooks import GameHooks
from tablehall_rules import DecideContext, DrawSource, PendingDecision, RuleError

STEP_MS = 100


@dataclass
class World:
    """A sampled full state with its own dice and its own clock."""

    state: Any
    draws: DrawSource
    now_ms: int

    def actor(self, hooks: GameHooks, rng: random.Random) -> PendingDecision | None:
        """Whose move is simulated next: any open decision, reaction windows included
        (several seats may be deciding at once; who is first is a matter of chance)."""
        if hooks.game.outcome(self.state) is not None:
            return None
        pending: list[PendingDecision] = hooks.game.pending(self.state)
        return rng.choice(pending) if pending else None


def apply(hooks: GameHooks, world: World, seat: int, command: msgspec.Struct) -> bool:
    """Decide and evolve `command` for `seat`; False when the rules refuse it."""
    world.now_ms += STEP_MS
    ctx = DecideContext(seat=seat, now_ms=world.now_ms, rng=world.draws)
    try:
        events = hooks.game.decide(world.state, command, ctx)
    except RuleError:
        return False
    for event in events:
        world.state = hooks.game.evolve(world.state, event)
    return True


def apply_default(hooks: GameHooks, world: World, decision: PendingDecision) -> bool:
    """The decision's default move, as if its clock ran out (a reaction window has none)."""
    if not decision.has_clock:
        return False
    world.now_ms = max(world.now_ms + STEP_MS, decision.deadline_ms)
    command = hooks.game.default_command(world.state, decision)
    ctx = DecideContext(seat=decision.seat, now_ms=world.now_ms, rng=world.draws, timed_out=decision)
    try:
        events = hooks.game.decide(world.state, command, ctx)
    except RuleError:
        return False
    for event in events:
        world.state = hooks.game.evolve(world.state, event)
    return True


def step(hooks: GameHooks, world: World, decision: PendingDecision, rng: random.Random) -> bool:
    """One move of the seat deciding `decision`, by the game's playout policy or its heuristic;
    False when stuck."""
    if hooks.has_playout:
        command = hooks.playout(world.state, decision.seat, rng)
        if command is None:
            return apply_default(hooks, world, decision)
        if apply(hooks, world, decision.seat, command):
            return True
    legal = hooks.legal(world.state, decision.seat, world.now_ms)
    if legal:
        command = hooks.heuristic(hooks.seat_view(world.state, decision.seat), legal, rng)
        if apply(hooks, world, decision.seat, command):
            return True
    return apply_default(hooks, world, decision)


def rollout(hooks: GameHooks, world: World, horizon: int, rng: random.Random) -> None:
    """Play at most `horizon` moves by the heuristic, or until the end."""
    for _ in range(horizon):
        decision = world.actor(hooks, rng)
        if decision is None:
            return
        # a seat may always let a reaction window pass; any other stuck decision ends the rollout
        if not step(hooks, world, decision, rng) and not decision.reaction:
            return
