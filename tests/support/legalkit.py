"""Digests of every legal-move answer along seeded games: what the descriptors (JSON) and their
match-API protos were, state by state, so a faster `legal()` can be checked to answer exactly as
the code it replaced (`tests/data/legal/<game>.txt`, written by the old code).

The games are played as `tests/bench/bench_legal_games.py` plays them: a random decision among
the open ones, the seat's random or easy bot policy over the spelled-out commands (at most 400).
A changed answer changes that state's line and, through the command chosen from it, the lines
after. Regenerate (only when an answer is meant to change):
`.venv/bin/python tests/support/legalkit.py GAME`.
"""

from __future__ import annotations

import hashlib
import random
import sys
from pathlib import Path
from typing import Any

import msgspec

from tablehall_rules import DecideContext, StructCodec, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all
from tablehall_stream.proto_games import legal_moves_to_proto

DATA = Path(__file__).resolve().parents[1] / "data" / "legal"
LIMIT = 400
# game id: (module with GAME, seats, options, games of each kind, decisions a game at most)
SETUPS: dict[str, tuple[str, int, dict[str, Any], int, int]] = {
    "dragons": ("dragons.game", 2, {}, 4, 300),
    "homunculus": ("homunculus.game", 4, {}, 3, 300),
}


def load(game_id: str) -> Any:
    return __import__(SETUPS[game_id][0], fromlist=["GAME"]).GAME


def digest(game_id: str, moves: Any) -> str:
    """The answer's descriptors (JSON, in order) and their protos, as 16 hex digits."""
    h = hashlib.sha256()
    for lm in moves:
        h.update(msgspec.json.encode(lm))
        h.update(type(lm.command).__name__.encode())
    for proto in legal_moves_to_proto(game_id, list(moves)):
        h.update(proto.SerializeToString(deterministic=True))
    return h.hexdigest()[:16]


def _random_policy(game: Any) -> Any:
    """The game's random player, or the bot service's uniform draw for a game without one."""
    own = getattr(game, "random_policy", None)
    return own if own is not None else (lambda view, legal, rng: rng.choice(legal))


def lines(game_id: str) -> list[str]:
    """One line per decision of the seeded games: game, decision number, seat, digest."""
    game = load(game_id)
    _, seats, options, games, cap = SETUPS[game_id]
    codec = StructCodec(game.command_types)
    out: list[str] = []
    for kind in ("random", "bot"):
        for g in range(games):
            rng = random.Random(1000 + g)
            state, _, source = kit.start(game, options, kit.seats_for(seats), rng.randbytes(32))
            now = kit.START_MS
            for n in range(cap):
                if game.outcome(state) is not None:
                    break
                decision = rng.choice(game.pending(state))
                now += 250
                moves = game.legal(state, decision.seat, now)
                out.append(f"{kind}{g} {n} {decision.seat} {digest(game_id, moves)}")
                legal = [m for m in expand_all(moves, codec, limit=LIMIT) if type(m).__name__ != "Surrender"]
                if not legal:
                    continue
                view = game.view(state, Viewer.of_seat(decision.seat))
                policy = game.bot_policy if kind == "bot" else _random_policy(game)
                try:
                    command = policy(view, legal, rng)
                except Exception:  # a bot with no decision of its own: any legal one, as the bench
                    command = _random_policy(game)(view, legal, rng)
                for event in game.decide(state, command, DecideContext(decision.seat, now, source)):
                    state = game.evolve(state, event)
    return out


def stored(game_id: str) -> list[str]:
    return (DATA / f"{game_id}.txt").read_text().splitlines()


if __name__ == "__main__":
    for name in sys.argv[1:] or list(SETUPS):
        found = lines(name)
        (DATA / f"{name}.txt").write_text("\n".join(found) + "\n")
        print(name, len(found))
