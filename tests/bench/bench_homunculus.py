"""Гомункул benchmark: random games per second, legal-descriptor and view time and size per
decision, bot decision time p50/p99 and win rates between the bot service's players.

Run: .venv/bin/python tests/bench/bench_homunculus.py [games] [--pairing A-B] [--think-ms MS]
Without --pairing: random games (2, 3, 4 players, 2-on-2) per second, the descriptors and the
view per decision, the easy heuristic's decision time and easy against random, heads-up.
With --pairing A-B (strong, easy, random, or plain: the easy heuristic without its noise, the
move the search overrules; --progress prints each game): `games` heads-up games between the
bot service's players (`tablehall_bot.players.Player`: easy is the heuristic with its noise,
strong the information-set search with --think-ms per decision), seats swapping every game,
each deciding from its seat's view and legal commands only. Games run to the rules' own end
(a king taken, or 30 rounds without a capture: no round limit of the bench's). --jobs N plays
N games at once (separate processes: the decision times then include the contention);
--horizon, --tree-depth, --width override the strong bot's search settings (else the game's
own hints, else the search's defaults); --max-samples N stops each search after N samples
(with a long --think-ms: a strength that does not depend on how busy the machine is).
--playout-cost: the cost of a playout move by the game's rollout policy and by the old
path, on the same sampled worlds of `games` positions (5 samples each, 8 moves).
No assertions: figures only.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import random
import statistics
import sys
import time
from typing import Any

import msgspec
from tablehall_bot.players import Difficulty, Player
from tablehall_bot.search.hooks import GameHooks
from tablehall_bot.search.ismcts import SearchSettings

from homunculus import commands as c
from homunculus.game import GAME
from tablehall_rules import DecideContext, DrawSource, StructCodec, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all

CODEC = StructCodec(GAME.command_types)
LIMIT = 400  # spelled-out commands per decision (the bot service's own limit is alike)


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


Chooser = Any  # (view, seat, legal) -> command


def play(
    players: int, seed: int, choosers: list[Chooser], stats: dict[str, list[float]], options: dict[str, Any]
) -> tuple[list[list[int]], int]:
    """One game; `choosers[seat]` decides; per-decision costs go to `stats`."""
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, options, kit.seats_for(players), rng.randbytes(32))
    now = kit.START_MS
    commands = 0
    while GAME.outcome(state) is None:
        decision = rng.choice(GAME.pending(state))
        now += 250
        t0 = time.perf_counter()
        moves = GAME.legal(state, decision.seat, now)
        t1 = time.perf_counter()
        seen = GAME.view(state, Viewer.of_seat(decision.seat))
        t2 = time.perf_counter()
        stats["legal_ms"].append((t1 - t0) * 1000)
        stats["view_ms"].append((t2 - t1) * 1000)
        stats["legal_bytes"].append(len(msgspec.json.encode([CODEC.to_builtins(m.command) for m in moves])))
        stats["view_bytes"].append(len(msgspec.json.encode(seen)))
        legal = [m for m in expand_all(moves, CODEC, limit=LIMIT) if not isinstance(m, c.Surrender)]
        if not legal:
            continue
        t3 = time.perf_counter()
        command = choosers[decision.seat](seen, decision.seat, legal)
        stats[f"ms_{decision.seat}"].append((time.perf_counter() - t3) * 1000)
        for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)
        commands += 1
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome.places, commands


def new_stats() -> dict[str, list[float]]:
    return {k: [] for k in ("legal_ms", "view_ms", "legal_bytes", "view_bytes", "ms_0", "ms_1", "ms_2", "ms_3")}


def player(
    kind: str, seed: int, think_ms: float, settings: dict[str, int] | None = None, samples: list[int] | None = None
) -> Chooser:
    """The bot service's player of `kind` (or `plain`: the easy heuristic without its noise);
    `samples` gets each search's count of samples."""
    tuned = SearchSettings(think_ms=think_ms, **(settings or {}))
    if kind == "plain":
        p = Player(GameHooks(GAME), Difficulty.EASY, random.Random(seed), tuned, noise=0.0)
    else:
        p = Player(GameHooks(GAME), Difficulty(kind), random.Random(seed), tuned)

    def choose(view: dict[str, Any], seat: int, legal: list[msgspec.Struct]) -> msgspec.Struct:
        choice = p.choose(view, seat, legal)
        if samples is not None and choice.searched:
            samples.append(choice.iterations)
        return choice.command

    return choose


def one_game(
    job: tuple[str, str, int, float, dict[str, int]],
) -> tuple[int, float, dict[str, list[float]], int, list[int]]:
    """Game `g` of a pairing: (g, the first kind's share of the win, decision times per kind,
    commands, the strong bot's samples per searched decision)."""
    first, second, g, think_ms, settings = job
    kinds = [first, second] if g % 2 == 0 else [second, first]
    samples: list[int] = []
    choosers = [
        player(k, g * 7 + i, think_ms, settings if k == "strong" else None, samples) for i, k in enumerate(kinds)
    ]
    stats = new_stats()
    places, commands = play(2, 70_000 + g, choosers, stats, {})
    times: dict[str, list[float]] = {first: [], second: []}
    for seat, kind in enumerate(kinds):
        times[kind] += stats[f"ms_{seat}"]
    first_seat = kinds.index(first)
    share = 1 / len(places[0]) if first_seat in places[0] else 0.0
    return g, share, times, commands, samples


def pairing(
    first: str, second: str, games: int, think_ms: float, jobs: int = 1, settings: dict[str, int] | None = None
) -> None:
    wins = 0.0
    times: dict[str, list[float]] = {first: [], second: []}
    started = time.perf_counter()
    work = [(first, second, g, think_ms, settings or {}) for g in range(games)]
    commands: list[int] = []
    samples: list[int] = []
    with multiprocessing.Pool(jobs) if jobs > 1 else contextlib.nullcontext() as pool:
        results = pool.imap_unordered(one_game, work) if pool is not None else map(one_game, work)
        for done, (g, share, game_times, count, game_samples) in enumerate(results, 1):
            wins += share
            commands.append(count)
            samples += game_samples
            for kind in times:
                times[kind] += game_times[kind]
            if "--progress" in sys.argv:
                print(f"  game {g + 1}: {first} {'won' if share else 'lost'}; {wins:g} of {done}", flush=True)
    low, high = wilson(wins, games)
    print(
        f"{first} vs {second}, heads-up, {games} games (think {think_ms:.0f} ms, settings {settings or {}}, "
        f"{jobs} jobs, {time.perf_counter() - started:.0f} s, {statistics.mean(commands):.0f} commands a game): "
        f"{first} wins {wins / games:.1%} (95% CI {low:.1%}–{high:.1%})"
    )
    for kind in dict.fromkeys((first, second)):
        print(f"  {kind} decision: p50 {pct(times[kind], 0.5):.2f} ms, p99 {pct(times[kind], 0.99):.2f} ms")
    if samples:
        print(
            f"  strong searched {len(samples)} decisions: samples p50 {pct([float(n) for n in samples], 0.5):.0f},"
            f" p10 {pct([float(n) for n in samples], 0.1):.0f}"
        )


def playout_cost(positions: int) -> None:
    """The cost of a playout move on the same sampled worlds: by the game's `rollout_policy`,
    and by the old path (descriptors spelled out, the mover's view, the easy bot)."""
    from tablehall_bot.search.rollout import World, step

    class Slow(GameHooks):
        @property
        def has_playout(self) -> bool:
            return False

    hooks = GameHooks(GAME)
    rng = random.Random(21)
    state, _, source = kit.start(GAME, {}, kit.seats_for(2), rng.randbytes(32))
    found: list[tuple[Any, int]] = []
    now = kit.START_MS
    while GAME.outcome(state) is None and len(found) < positions:
        decision = rng.choice(GAME.pending(state))
        now += 250
        legal = [m for m in hooks.legal(state, decision.seat, now) if not isinstance(m, c.Surrender)]
        if not legal:
            continue
        if decision.kind == "action" and rng.random() < 0.2:
            found.append((hooks.clone(state), decision.seat))
        command = hooks.heuristic(GAME.view(state, Viewer.of_seat(decision.seat)), legal, rng)
        for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)
    for name, h in (("rollout_policy", hooks), ("legal + view + bot_policy", Slow(GAME))):
        moves, spent = 0, 0.0
        for i, (position, seat) in enumerate(found):
            seen = GAME.view(position, Viewer.of_seat(seat))
            for j in range(5):
                r = random.Random(i * 10 + j)
                world = World(h.determinize(seen, seat, r), DrawSource(r.randbytes(32)), int(seen.get("now_ms", 0)))
                t0 = time.perf_counter()
                for _ in range(8):  # rollout(h, world, 8, r), counting the moves
                    acting = world.actor(h, r)
                    if acting is None or not (step(h, world, acting, r) or acting.reaction):
                        break
                    moves += 1
                spent += time.perf_counter() - t0
        print(f"playout by {name}: {moves} moves over {len(found)} positions, {1000 * spent / moves:.3f} ms a move")


def option(args: list[str], name: str) -> str | None:
    return args[args.index(name) + 1] if name in args else None


def main() -> None:
    args = sys.argv[1:]
    think = float(option(args, "--think-ms") or 200.0)
    jobs = int(option(args, "--jobs") or 1)
    settings = {
        key: int(v)
        for key in ("horizon", "tree_depth", "width", "max_samples")
        if (v := option(args, "--" + key.replace("_", "-")))
    }
    valued = {"--think-ms", "--jobs", "--pairing", "--horizon", "--tree-depth", "--width", "--max-samples"}
    numbers = [a for i, a in enumerate(args) if a.isdigit() and (i == 0 or args[i - 1] not in valued)]
    games = int(numbers[0]) if numbers else 40
    if "--playout-cost" in args:
        playout_cost(games)
        return
    if "--pairing" in args:
        first, second = args[args.index("--pairing") + 1].split("-")
        pairing(first, second, games, think, jobs, settings)
        return
    rand = player("random", 0, think)
    stats = new_stats()
    for players, options in ((2, {}), (3, {}), (4, {}), (4, {"teams": True})):
        t0 = time.perf_counter()
        commands = 0
        for seed in range(games // 4 or 1):
            commands += play(players, seed, [rand] * players, stats, options)[1]
        elapsed = time.perf_counter() - t0
        n = games // 4 or 1
        label = "2-on-2" if options else f"{players} players"
        print(f"random games, {label}: {n / elapsed:.2f} games/s, {commands / n:.0f} commands/game")
    for key in ("legal_ms", "view_ms"):
        print(f"{key}: mean {statistics.mean(stats[key]):.3f}, p99 {pct(stats[key], 0.99):.3f}")
    for key in ("legal_bytes", "view_bytes"):
        print(f"{key}: mean {statistics.mean(stats[key]):.0f}, max {max(stats[key]):.0f}")
    pairing("easy", "random", games, think, jobs)


if __name__ == "__main__":
    main()
