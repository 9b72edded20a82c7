"""Open decisions with their clocks, and the safe default move for each.

- `start_die`: the active seat puts its start-ring die (default: its first free marked cell);
- `turn`: the active seat uses a rolled die (default: the first move the descriptors spell out,
  a plain placement of its lowest number on the first allowed cell; a discard when nothing else);
- `black_die`: the seat that scored a contour places the black die (default: the first free cell
  inside);
- `domino`: at the end of a round, each seat that may take a domino (default: not to take one,
  which can never cost points).

Every decision is public (a domino decision shows that the seat may take one, not its hand).
"""

from __future__ import annotations

from dragons import commands as c
from dragons.legal import turn_legal
from dragons.rules.setup import free_marked
from dragons.state import BLACK, DOMINO, SETUP, TURN, State
from tablehall_rules import PendingDecision, StructCodec
from tablehall_rules.legal import expand_all

_codec = StructCodec(c.COMMAND_TYPES)


def pending(st: State) -> list[PendingDecision]:
    if st.phase in (SETUP, TURN, BLACK):
        kind = {SETUP: "start_die", TURN: "turn", BLACK: "black_die"}[st.phase]
        seat = st.contour.seat if st.phase == BLACK and st.contour is not None else st.active
        return [PendingDecision(f"{kind}:{st.turn_seq}", seat, kind, "decision", st.phase_at_ms, st.clock_for(seat))]
    if st.phase == DOMINO:
        return [
            PendingDecision(
                f"domino:{st.turn_seq}:{seat}", seat, "domino", "decision", st.phase_at_ms, st.clock_for(seat)
            )
            for seat in st.domino_wait
        ]
    return []


def default_command(st: State, decision: PendingDecision) -> c.Command:
    if decision.kind == "start_die":
        return c.PlaceStart(cell=free_marked(st, decision.seat)[0])
    if decision.kind == "black_die" and st.contour is not None:
        return c.PlaceBlack(cell=st.contour.inside[0])
    if decision.kind == "domino":
        return c.TakeDomino(take=False)
    if decision.kind == "turn":
        first = expand_all(turn_legal(st, decision.seat), _codec, limit=1)
        if first and isinstance(first[0], c.Command):
            return first[0]
    raise ValueError(f"no default for {decision.kind!r}")
