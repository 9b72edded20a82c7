"""What a viewer may know of a table's open decisions: one function, used by
every API that shows decisions or clocks (match views and answers, the
projection's live frames, the timer's clocks).

Auditors see every decision; a seat sees the public ones and those whose
audience names it; a spectator sees the public ones only.
"""

from __future__ import annotations

from collections.abc import Iterable

from tablehall_rules.contract import PendingDecision, Viewer


def visible_decisions(decisions: Iterable[PendingDecision], viewer: Viewer) -> list[PendingDecision]:
    if viewer.is_auditor:
        return list(decisions)
    seat = viewer.seat if viewer.role == "seat" else None
    return [d for d in decisions if d.known_to(seat)]
