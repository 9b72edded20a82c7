"""The conformance kit (`tablehall_rules.conformance`) run over one game: each
product game's test module calls `run_suite` with its set-ups, so every game
passes the same checks (random games end, replay and snapshots identical,
defaults accepted, legal descriptors agree with decide, redaction,
determinization)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from tablehall_rules import Game
from tablehall_rules import conformance as kit


@dataclass(frozen=True)
class Setup:
    seats: int
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Counts:
    games: int = 0
    commands: int = 0
    listed_checked: int = 0
    candidates_accepted: int = 0
    defaults_checked: int = 0
    redaction_checked: int = 0


def run_suite(
    game: Game[Any],
    setup: Setup,
    seed: int,
    *,
    states: int = 6,
    extra_candidates: Callable[[Any, int], Sequence[msgspec.Struct]] = lambda state, seat: (),
    max_commands: int = 5000,
) -> Counts:
    rng = random.Random(seed)
    counts = Counts()
    final, played = kit.play_random_game(game, setup.options, setup.seats, rng, max_commands=max_commands)
    counts.games, counts.commands = 1, played.commands
    kit.check_replay(game, final, played, rng)
    now = played.now_ms
    for state in kit.states_of(game, played, rng, states):
        counts.defaults_checked += kit.check_defaults(game, state, now)
        for seat in {*kit.open_seats(game, state), rng.randrange(setup.seats)}:
            probes = kit.candidate_commands(game, state, rng, extra=extra_candidates(state, seat))
            listed, accepted = kit.check_legal_agrees(game, state, seat, now, rng, probes)
            counts.listed_checked += listed
            counts.candidates_accepted += accepted
            kit.check_determinization(game, state, seat, rng)
            kit.check_redaction(game, state, seat, now, rng, probes)
            counts.redaction_checked += 1
    return counts
