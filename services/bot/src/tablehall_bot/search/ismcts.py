"""Information-set Monte Carlo tree search over any game of the rules contract.

Single-observer ISMCTS (Cowling, Powley, Whitehouse 2012): every iteration
samples a full state consistent with the seat's view (`determinize`: deck
orders, other players' secrets, hidden offers), gives the sample its own dice,
and walks one shared tree of moves with UCB, counting for each move how often
it was available in the samples (so moves legal only in some worlds are
judged fairly). Below the tree the sample is played on by the game's
heuristic (`bot_policy`) for at most `horizon` moves and scored by the game's
`evaluate`. The answer is the root move most visited across all samples (the
samples' vote); ties go to the heuristic's choice.

Nothing here reads a true state: the search receives a view and the seat's
legal commands, nothing else. Moves are the game's own commands, decided
and evolved by the game's own `decide`/`evolve`. Wide nodes are narrowed to
the heuristic's move plus a few the game's random player proposes
(progressive widening), so a short think still compares real alternatives.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import msgspec
import structlog

from tablehall_bot.search.hooks import GameHooks, View, command_key
from tablehall_bot.search.rollout import World, apply, apply_default, rollout
from tablehall_rules import DrawSource

log = structlog.get_logger("bot.search")


@dataclass(frozen=True)
class SearchSettings:
    think_ms: float = 200.0
    horizon: int = 40  # heuristic moves after the tree before scoring
    tree_depth: int = 3  # moves below the root the tree may grow
    exploration: float = 0.7
    width: int = 4  # candidates per node: the heuristic's move and up to width-1 others


@dataclass
class Node:
    command: msgspec.Struct | None = None
    mover: int = -1  # the seat whose move led here
    visits: int = 0
    available: int = 0
    value: float = 0.0
    children: dict[bytes, Node] = field(default_factory=dict)

    def ucb(self, c: float) -> float:
        if self.visits == 0:
            return math.inf
        return self.value / self.visits + c * math.sqrt(math.log(max(self.available, 1)) / self.visits)


@dataclass(frozen=True)
class SearchResult:
    command: msgspec.Struct
    heuristic: msgspec.Struct
    iterations: int
    visits: dict[bytes, int]
    failures: int = 0

    @property
    def searched(self) -> bool:
        return self.iterations > 0


def _unique(commands: list[msgspec.Struct]) -> dict[bytes, msgspec.Struct]:
    out: dict[bytes, msgspec.Struct] = {}
    for command in commands:
        out.setdefault(command_key(command), command)
    return out


def candidates(
    hooks: GameHooks, view: View, legal: list[msgspec.Struct], rng: random.Random, width: int
) -> tuple[msgspec.Struct, dict[bytes, msgspec.Struct]]:
    """The heuristic's move and, when there are many, a few others the random player would try."""
    options = _unique(legal)
    preferred = hooks.heuristic(view, legal, rng)
    if len(options) <= width:
        return preferred, options
    chosen = {command_key(preferred): preferred}
    for _ in range(4 * width):
        if len(chosen) >= width:
            break
        other = hooks.random(view, legal, rng)
        chosen.setdefault(command_key(other), other)
    return preferred, chosen


class Search:
    def __init__(
        self,
        hooks: GameHooks,
        settings: SearchSettings,
        rng: random.Random,
        clock: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.hooks = hooks
        self.settings = settings
        self.rng = rng
        self.clock = clock

    def choose(self, view: View, seat: int, legal: list[msgspec.Struct]) -> SearchResult:
        preferred, options = candidates(self.hooks, view, legal, self.rng, self.settings.width)
        if len(options) <= 1 or not self.hooks.searchable:
            return SearchResult(preferred, preferred, 0, {})
        root = Node(mover=seat)
        deadline = self.clock() + self.settings.think_ms / 1000
        iterations = failures = 0
        while self.clock() < deadline:
            try:
                self._iterate(root, view, seat, options)
                iterations += 1
            except Exception:  # a game hook failing on a sample costs that sample only
                failures += 1
                if failures == 1:
                    log.warning("search sample failed", exc_info=True)
                if failures > 3 * (iterations + 1):
                    break
        visits = {key: child.visits for key, child in root.children.items()}
        best_key = command_key(preferred)
        best = max(visits.values(), default=0)
        if visits.get(best_key, 0) < best:
            best_key = min(k for k, v in visits.items() if v == best)
        return SearchResult(options[best_key], preferred, iterations, visits, failures)

    def _iterate(self, root: Node, view: View, seat: int, options: dict[bytes, msgspec.Struct]) -> None:
        hooks, settings, rng = self.hooks, self.settings, self.rng
        world = World(hooks.determinize(view, seat, rng), DrawSource(rng.randbytes(32)), int(view.get("now_ms", 0)))
        path = [root]
        node, mover, available = root, seat, options
        for depth in range(settings.tree_depth + 1):
            child, expanded = self._select(node, mover, available)
            assert child.command is not None
            if not apply(hooks, world, mover, child.command):
                if depth == 0:
                    raise RuntimeError("the root move was refused in a sample of the seat's own view")
                break
            path.append(child)
            node = child
            if expanded:
                break
            decision = world.actor(hooks)
            if decision is None:
                break
            legal = hooks.game.legal_commands(world.state, decision.seat)
            if not legal:
                apply_default(hooks, world, decision)
                break
            mover = decision.seat
            _, available = candidates(hooks, hooks.seat_view(world.state, mover), legal, rng, settings.width)
        rollout(hooks, world, settings.horizon, rng)
        scores: dict[int, float] = {}
        for n in path[1:]:
            if n.mover not in scores:
                scores[n.mover] = hooks.evaluate(world.state, n.mover)
            n.visits += 1
            n.value += scores[n.mover]

    def _select(self, node: Node, mover: int, available: dict[bytes, msgspec.Struct]) -> tuple[Node, bool]:
        """The child to follow: an untried available move first, else the best by UCB."""
        for key in available:
            child = node.children.get(key)
            if child is not None:
                child.available += 1
        untried = [key for key in available if key not in node.children]
        if untried:
            key = untried[0] if len(untried) == 1 else self.rng.choice(untried)
            child = Node(command=available[key], mover=mover, available=1)
            node.children[key] = child
            return child, True
        best = max((node.children[k] for k in available), key=lambda n: n.ucb(self.settings.exploration))
        return best, False
