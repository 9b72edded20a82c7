"""What a viewer sees. Магнаты has no hidden facts but the future dice, so every viewer (seat,
spectator, auditor) sees the same: the board's Companies with owners, levels and fines, its
Banks and special cells (so a client draws the board from the view alone), every player's cash,
King, pieces and net worth, the dice and the open stop."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from magnates import board
from magnates.rules.worth import fine, net_worth
from magnates.state import BANK, State
from tablehall_rules import JsonView, Viewer


def _players(state: State) -> list[dict[str, Any]]:
    out = []
    for p in state.players:
        info = state.seats[p.seat]
        out.append(
            {
                "seat": p.seat,
                "name": info.name,
                "is_bot": info.is_bot,
                "corner": p.corner,
                "offices": list(board.offices(p.corner)),
                "cash": p.cash,
                "king": p.king,
                "king_cell": board.cell_of_position(p.king) if p.king >= 0 else None,
                "pieces": dict(p.pieces),
                "alive": p.alive,
                "lone": p.alive and state.is_lone(p.seat),
                "net_worth": net_worth(state, p.seat),
                "afk": state.afk.afk[p.seat],
                "strikes": state.afk.strikes[p.seat],
                "by_bot": state.afk.by_bot[p.seat],
            }
        )
    return out


def _companies(state: State) -> list[dict[str, Any]]:
    out = []
    for cell in board.company_cells():
        sq = board.square(cell)
        owner = state.owner[cell]
        out.append(
            {
                "cell": cell,
                "name": board.name(cell),
                "group": sq.group,
                "price": sq.price,
                "owner": None if owner == BANK else owner,
                "level": state.level[cell],
                "fine": fine(state, cell) if owner != BANK else 0,
            }
        )
    return out


@cache
def _specials() -> tuple[tuple[int, str], ...]:
    return tuple((s.cell, s.kind) for s in board.squares() if s.is_perimeter and not s.is_company)


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    return JsonView(
        {
            "phase": state.phase,
            "turn": state.turn,
            "round": state.round,
            "round_limit": state.round_limit,
            "white": state.white,
            "blue": state.blue,
            "extra_moves": state.extra_moves,
            "stop": msgspec.to_builtins(state.stop) if state.stop is not None else None,
            "piece": state.piece,
            "decision_no": state.decision_no,
            "opened_at_ms": state.opened_at_ms,
            "clock_ms": state.clock_ms,
            "players": _players(state),
            "companies": _companies(state),
            "specials": [{"cell": cell, "kind": kind} for cell, kind in _specials()],
            "out_order": list(state.out_order),
            "places": [list(p) for p in state.places],
            "end_reason": state.end_reason,
            "scores": {str(k): v for k, v in state.scores.items()},
        }
    )
