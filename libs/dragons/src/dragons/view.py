"""What a viewer may see. The one place where redaction happens.

Public: the board (every die, domino half and black die with its number), the placed dominoes,
the rolled dice of the round, scores, dice left, how many dominoes each hand holds and how many
tiles are left of each set, whether each side has a king-six on the board, the open contour and
its black die, the decisions with their clocks, which seats have answered the domino choice.
Private to a seat: its own domino hand and its own sealed answer to the domino choice (an
opponent's is unknown until both have answered, or the clock has). An auditor also sees both
hands and the sealed answers. Nobody sees the opponent's hand: not in the view, not in a
decision, not in a refusal.
"""

from __future__ import annotations

from typing import Any

import msgspec

from dragons.board import BLACK, COLOUR, NO_DOMINO, grid
from dragons.pending import pending
from dragons.rules.end import has_king
from dragons.state import DOMINO, OVER, ROUNDS, State, round_order
from tablehall_rules import JsonView, Viewer
from tablehall_rules.disclosure import visible_decisions

OWNER_NAMES = {0: "red", 1: "blue", BLACK: "black"}


def _pieces(st: State) -> list[dict[str, Any]]:
    g = grid()
    out = []
    for cell, owner in enumerate(st.owner):
        if owner < 0:
            continue
        x, y = g.coord(cell)
        out.append(
            {
                "cell": cell,
                "x": x,
                "y": y,
                "owner": OWNER_NAMES[owner],
                "face": st.face[cell],
                "domino": st.domino[cell] if st.domino[cell] != NO_DOMINO else None,
            }
        )
    return out


def _players(st: State) -> list[dict[str, Any]]:
    return [
        {
            "seat": p.seat,
            "name": p.name,
            "colour": COLOUR[p.seat],
            "is_bot": p.is_bot,
            "score": p.score,
            "dice_left": p.dice_left,
            "hand_size": len(p.hand),
            "set_left": len(p.bazaar),
            "king_on_board": has_king(st, p.seat),
            "afk": st.afk.afk[p.seat],
            "strikes": st.afk.strikes[p.seat],
            "by_bot": st.afk.by_bot[p.seat],
            "absent": st.afk.absent[p.seat],
        }
        for p in st.players
    ]


def _hand(st: State, seat: int) -> list[list[int]]:
    return [[t.low, t.high] for t in st.player(seat).hand]


def view(st: State, viewer: Viewer) -> dict[str, Any]:
    out: dict[str, Any] = {
        "game": "dragons",
        "phase": st.phase,
        "round": st.round,
        "rounds": ROUNDS,
        "turn_index": st.turn_index,
        "round_order": round_order(st.round) if st.round else [],
        # the seat to move (the start ring, a turn, a black die); none while both decide on dominoes
        "active_seat": st.active if st.phase not in (OVER, DOMINO) else None,
        "clock_ms": st.clock_ms,
        "setup_face": st.setup_face or None,
        "rolled": [list(r) for r in st.rolled],
        "black_left": st.black_left,
        "pieces": _pieces(st),
        "dominoes": [msgspec.to_builtins(d) for d in st.dominoes],
        "contour": msgspec.to_builtins(st.contour) if st.contour is not None else None,
        "domino_wait": list(st.domino_wait),
        "domino_answered": list(st.domino_answered),  # who answered; what, only to themselves
        "players": _players(st),
        "decisions": [msgspec.to_builtins(d) for d in visible_decisions(pending(st), viewer)],
        "phase_at_ms": st.phase_at_ms,
        "turn_seq": st.turn_seq,
        "now_ms": st.last_at_ms,
        "result": {"reason": st.end_reason, "places": st.places, "final": st.final} if st.phase == OVER else None,
    }
    if viewer.role == "seat" and viewer.seat is not None and st.has_seat(viewer.seat):
        me: dict[str, Any] = {"seat": viewer.seat, "hand": _hand(st, viewer.seat)}
        if viewer.seat in st.domino_answered:
            me["domino_take"] = viewer.seat in st.domino_taking
        out["me"] = me
    elif viewer.is_auditor:
        out["hands"] = [_hand(st, p.seat) for p in st.players]
        out["domino_taking"] = list(st.domino_taking)
    return JsonView(out)
