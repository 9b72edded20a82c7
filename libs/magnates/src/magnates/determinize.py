"""A full state from a seat's view. Nothing is hidden but the future dice (drawn by the table at
decide time, never stored), so the view holds every fact and this rebuilds the state exactly."""

from __future__ import annotations

import random
from typing import Any

import msgspec

from magnates import board
from magnates.state import BANK, Player, State, Stop
from tablehall_rules import AfkLadder, SeatInfo


def determinize(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    players = view["players"]
    owner = [BANK] * len(board.squares())
    level = [0] * len(board.squares())
    for company in view["companies"]:
        owner[company["cell"]] = BANK if company["owner"] is None else company["owner"]
        level[company["cell"]] = company["level"]
    afk = AfkLadder(
        afk=[p["afk"] for p in players],
        strikes=[p["strikes"] for p in players],
        by_bot=[p["by_bot"] for p in players],
        bots=[p["is_bot"] for p in players],
    )
    return State(
        seats=[SeatInfo(p["seat"], f"user-{p['seat']}", p["name"], p["is_bot"]) for p in players],
        players=[Player(p["seat"], p["corner"], p["cash"], p["king"], dict(p["pieces"]), p["alive"]) for p in players],
        owner=owner,
        level=level,
        afk=afk,
        round_limit=view["round_limit"],
        clock_ms=view["clock_ms"],
        phase=view["phase"],
        turn=view["turn"],
        round=view["round"],
        white=view["white"],
        blue=view["blue"],
        extra_moves=view["extra_moves"],
        stop=msgspec.convert(view["stop"], Stop) if view["stop"] is not None else None,
        piece=view["piece"],
        decision_no=view["decision_no"],
        opened_at_ms=view["opened_at_ms"],
        out_order=list(view["out_order"]),
        places=[list(p) for p in view["places"]],
        end_reason=view["end_reason"],
        scores={int(k): v for k, v in view["scores"].items()},
    )
