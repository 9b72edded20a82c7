"""Information-set Monte Carlo tree search over any game of the rules contract.

Each *sample* is one world consistent with the seat's view (`determinize`:
deck orders, other players' secrets, hidden offers) with its own dice. In a
sample every candidate root move is tried once, from the same world and the
same dice (common random numbers: the candidates are compared on equal
terms). Below the root, the moves of every seat (the searcher's and the
others', as seen by the game's own `legal_commands`) walk one tree shared by
all samples, chosen by UCB with availability counts (single-observer ISMCTS,
Cowling, Powley and Whitehouse 2012); past the tree the world is played on by
the game's playout policy (`rollout_policy`), else its heuristic
(`bot_policy`), for at most `horizon` moves and scored by the game's
`evaluate`. Each complete sample votes for its best root move; the
move with the most votes is played, but the heuristic's own move stands
unless another beats it in votes and by `margin` in mean value (a short think
is noisy; the search only overrules the heuristic on evidence); a game may ask
for more evidence in its `search_hints`: at least `min_samples` samples and a
paired difference (the same worlds and dice for both moves) at least
`confidence` standard errors above zero.

Nothing here reads a true state: the search receives a view and the seat's
legal commands, nothing else, and moves are decided and evolved by the
game's own `decide`/`evolve`; the playout policy is only given sampled
worlds. The root's candidates are the game's ranking of its best moves
(`bot_ranking`), the first of them the move that stands without evidence (a
game may rank by a stronger heuristic than its easy `bot_policy`), else the
heuristic's move and the distinct moves the game's random player proposes; the tree's nodes have the heuristic's and random moves of
the mover's view of the sample, or, with a playout policy, the distinct
moves that policy proposes there (progressive widening), so the think goes
to real alternatives, never to leaving the table.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import msgspec
import structlog

from tablehall_bot.search.hooks import GameHooks, View, command_key
from tablehall_bot.search.rollout import World, apply, apply_default, rollout
from tablehall_rules import DrawSource

log = structlog.get_logger("bot.search")


# the shape of a search when neither the settings nor the game's `search_hints` say
DEFAULT_SHAPE: dict[str, int] = {"horizon": 40, "tree_depth": 2, "width": 4}


@dataclass(frozen=True)
class SearchSettings:
    """How a search thinks; horizon, tree_depth and width left None take the game's
    `search_hints`, else `DEFAULT_SHAPE`."""

    think_ms: float = 200.0
    horizon: int | None = None  # playout moves after the tree before scoring
    tree_depth: int | None = None  # moves below the root the tree may grow
    exploration: float = 0.7
    width: int | None = None  # candidates per node: the heuristic's move and up to width-1 others
    margin: float = 0.01  # mean value by which a move must beat the heuristic's to overrule it
    max_samples: int | None = None  # stop after this many samples, think time left or not (benchmarks)
    min_samples: int | None = None  # fewer samples never overrule the heuristic
    confidence: float | None = None  # standard errors of the paired difference by which an overruling move leads

    def shape(self, hints: Mapping[str, float]) -> tuple[int, int, int]:
        """(horizon, tree_depth, width): these settings', else the game's hints, else the defaults."""
        given = {"horizon": self.horizon, "tree_depth": self.tree_depth, "width": self.width}
        out = {k: v if v is not None else int(hints.get(k, DEFAULT_SHAPE[k])) for k, v in given.items()}
        return out["horizon"], out["tree_depth"], out["width"]

    def evidence(self, hints: Mapping[str, float]) -> tuple[int, float]:
        """(min_samples, confidence): these settings', else the game's hints, else none asked (0, 0)."""
        samples = self.min_samples if self.min_samples is not None else int(hints.get("min_samples", 0))
        confidence = self.confidence if self.confidence is not None else float(hints.get("confidence", 0.0))
        return samples, confidence


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
    heuristic: msgspec.Struct  # the preferred move: the ranking's first, else the heuristic's
    samples: int
    votes: dict[bytes, float]
    means: dict[bytes, float]
    failures: int = 0
    lead: float = 0.0  # the chosen move's paired lead over the heuristic's, in standard errors (0: the heuristic's)

    @property
    def searched(self) -> bool:
        return self.samples > 0


def proposals(
    hooks: GameHooks, view: View, legal: list[msgspec.Struct], rng: random.Random, width: int
) -> tuple[msgspec.Struct, dict[bytes, msgspec.Struct]]:
    """The move the search prefers and its alternatives (at most 2 x `width`): the game's ranking
    of its best moves, its first preferred, else the heuristic's move and the distinct moves the
    random player proposes."""
    ranked = hooks.ranking(view, legal, rng, 2 * width)
    if ranked:
        preferred = ranked[0]
        chosen = {command_key(preferred): preferred}
        for other in ranked[1:]:
            if len(chosen) >= 2 * width:
                break
            chosen.setdefault(command_key(other), other)
        return preferred, chosen
    preferred = hooks.heuristic(view, legal, rng)
    chosen = {command_key(preferred): preferred}
    for _ in range(4 * width):
        if len(chosen) >= 2 * width:
            break
        other = hooks.random(view, legal, rng)
        chosen.setdefault(command_key(other), other)
    return preferred, chosen


def settling(
    hooks: GameHooks, state: Any, seat: int, options: dict[bytes, msgspec.Struct], now_ms: int, keep: bytes, width: int
) -> dict[bytes, msgspec.Struct]:
    """The options that settle one of the seat's open decisions in `state` (plus `keep`), at most `width`.

    Moves that leave every decision open (mortgaging while the turn waits,
    proposing a trade) are not what the decision is about; the heuristic
    still makes them when it wants to.
    """
    before = {d.key for d in hooks.game.pending(state) if d.seat == seat}
    out = {keep: options[keep]}
    for key, command in options.items():
        if len(out) >= width:
            break
        if key == keep:
            continue
        world = World(hooks.clone(state), DrawSource(b"settling"), now_ms)
        if apply(hooks, world, seat, command):
            after = {d.key for d in hooks.game.pending(world.state) if d.seat == seat}
            if before - after:
                out[key] = command
    return out


def candidates(
    hooks: GameHooks, state: Any, view: View, seat: int, legal: list[msgspec.Struct], rng: random.Random, width: int
) -> tuple[msgspec.Struct, dict[bytes, msgspec.Struct]]:
    """The heuristic's move and up to `width`-1 other moves settling the decision, judged in `state`."""
    preferred, options = proposals(hooks, view, legal, rng, width)
    if len(options) == 1:
        return preferred, options
    now = int(view.get("now_ms", 0))
    return preferred, settling(hooks, state, seat, options, now, command_key(preferred), width)


def playout_candidates(
    hooks: GameHooks, state: Any, seat: int, rng: random.Random, width: int
) -> dict[bytes, msgspec.Struct]:
    """The distinct moves the game's playout policy proposes for `seat` in `state` (at most
    `width`, from as many tries): a tree node's options without spelling out `legal`."""
    out: dict[bytes, msgspec.Struct] = {}
    for _ in range(width):
        command = hooks.playout(state, seat, rng)
        if command is None:
            break
        out.setdefault(command_key(command), command)
    return out


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
        self.horizon, self.tree_depth, self.width = settings.shape(hooks.search_hints)
        self.min_samples, self.confidence = settings.evidence(hooks.search_hints)

    def choose(self, view: View, seat: int, legal: list[msgspec.Struct]) -> SearchResult:
        if not self.hooks.searchable:
            preferred = self.hooks.heuristic(view, legal, self.rng)
            return SearchResult(preferred, preferred, 0, {}, {})
        preferred, options = proposals(self.hooks, view, legal, self.rng, self.width)
        if len(options) > 1:
            try:
                world = self.hooks.determinize(view, seat, self.rng)
            except Exception:  # a view the game cannot sample: the heuristic's move, no search
                log.warning("search determinize failed", exc_info=True)
                return SearchResult(preferred, preferred, 0, {}, {}, failures=1)
            options = settling(
                self.hooks,
                world,
                seat,
                options,
                int(view.get("now_ms", 0)),
                command_key(preferred),
                self.width,
            )
        if len(options) <= 1:
            return SearchResult(preferred, preferred, 0, {}, {})
        root = Node(mover=seat)
        deadline = self.clock() + self.settings.think_ms / 1000
        votes = dict.fromkeys(options, 0.0)
        totals = dict.fromkeys(options, 0.0)
        rows: list[dict[bytes, float]] = []
        samples = failures = 0
        cap = self.settings.max_samples
        while self.clock() < deadline and (cap is None or samples < cap):
            try:
                values = self._sample(root, view, seat, options, deadline)
            except Exception:  # a game hook failing on a sample costs that sample only
                failures += 1
                if failures == 1:
                    log.warning("search sample failed", exc_info=True)
                if failures > 3 * (samples + 1):
                    break
                continue
            if values is None:
                break
            samples += 1
            rows.append(values)
            best = max(values.values())
            winners = [k for k, v in values.items() if v == best]
            for k, v in values.items():
                totals[k] += v
                if k in winners:
                    votes[k] += 1 / len(winners)
        means = {k: totals[k] / samples for k in options} if samples else {}
        command, lead = self._verdict(preferred, options, votes, means, rows)
        return SearchResult(command, preferred, samples, votes, means, failures, lead)

    def _verdict(
        self,
        preferred: msgspec.Struct,
        options: dict[bytes, msgspec.Struct],
        votes: dict[bytes, float],
        means: dict[bytes, float],
        rows: list[dict[bytes, float]],
    ) -> tuple[msgspec.Struct, float]:
        if not rows or len(rows) < self.min_samples:
            return preferred, 0.0
        own = command_key(preferred)
        best = max(options, key=lambda k: (votes[k], means[k]))
        if best == own or votes[best] <= votes[own] or means[best] <= means[own] + self.settings.margin:
            return preferred, 0.0
        if self.confidence <= 0:
            return options[best], 0.0
        if len(rows) < 2:
            return preferred, 0.0
        diffs = [row[best] - row[own] for row in rows]
        mean = sum(diffs) / len(diffs)
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs))
        lead = mean / spread if spread > 0 else math.inf
        return (options[best], lead) if lead >= self.confidence else (preferred, 0.0)

    def _sample(
        self, root: Node, view: View, seat: int, options: dict[bytes, msgspec.Struct], deadline: float
    ) -> dict[bytes, float] | None:
        """One world, every root move tried in it; None when time ran out midway."""
        hooks, rng = self.hooks, self.rng
        state = hooks.determinize(view, seat, rng)
        dice = rng.randbytes(32)
        play_seed = rng.getrandbits(64)
        now = int(view.get("now_ms", 0))
        values: dict[bytes, float] = {}
        keys = list(options)
        rng.shuffle(keys)
        for key in keys:
            if values and self.clock() >= deadline:
                return None
            world = World(hooks.clone(state), DrawSource(dice), now)
            values[key] = self._descend(root, world, seat, key, options[key], random.Random(play_seed))
        return values

    def _descend(
        self, root: Node, world: World, seat: int, key: bytes, command: msgspec.Struct, rng: random.Random
    ) -> float:
        hooks = self.hooks
        child = root.children.get(key)
        if child is None:
            child = root.children[key] = Node(command=command, mover=seat)
        child.available += 1
        if not apply(hooks, world, seat, command):
            raise RuntimeError("the root move was refused in a sample of the seat's own view")
        path = [child]
        node = child
        for _ in range(self.tree_depth):
            decision = world.actor(hooks, rng)
            if decision is None:
                break
            if hooks.has_playout:
                available = playout_candidates(hooks, world.state, decision.seat, rng, self.width)
            else:
                legal = hooks.legal(world.state, decision.seat, world.now_ms)
                if legal:
                    mover_view = hooks.seat_view(world.state, decision.seat)
                    _, available = candidates(hooks, world.state, mover_view, decision.seat, legal, rng, self.width)
                else:
                    available = {}
            if not available:
                apply_default(hooks, world, decision)
                break
            nxt, expanded = self._select(node, decision.seat, available, rng)
            assert nxt.command is not None
            if not apply(hooks, world, decision.seat, nxt.command):
                apply_default(hooks, world, decision)
                break
            path.append(nxt)
            node = nxt
            if expanded:
                break
        rollout(hooks, world, self.horizon, rng)
        scores: dict[int, float] = {}
        for n in path:
            if n.mover not in scores:
                scores[n.mover] = hooks.evaluate(world.state, n.mover)
            n.visits += 1
            n.value += scores[n.mover]
        return scores[seat]

    def _select(
        self, node: Node, mover: int, available: dict[bytes, msgspec.Struct], rng: random.Random
    ) -> tuple[Node, bool]:
        """The child to follow: an untried available move first, else the best by UCB."""
        for key in available:
            child = node.children.get(key)
            if child is not None:
                child.available += 1
        untried = [key for key in available if key not in node.children]
        if untried:
            key = untried[0] if len(untried) == 1 else rng.choice(untried)
            child = Node(command=available[key], mover=mover, available=1)
            node.children[key] = child
            return child, True
        best = max((node.children[k] for k in available), key=lambda n: n.ucb(self.settings.exploration))
        return best, False
