"""GetTableClocks shows a player only the clocks their seat may know of."""

from __future__ import annotations

import msgspec

from tablehall_platform.auth import Principal
from tablehall_rules import PendingDecision
from tablehall_timer.grpc_port import clocks_to_proto, viewer_of
from tablehall_timer.schedule import TableClock

STARTED = msgspec.json.encode(
    {"seats": [{"seat": s, "user_id": u} for s, u in enumerate(["ann", "ben", "cat"])], "started_at_ms": 1}
)
PENDING = [
    PendingDecision("turn:1", 0, "roll", "decision", 10, 30_000),
    PendingDecision("offer:2", 1, "offer_answer", "offer", 10, 60_000, audience=[2]),
    PendingDecision("uno:3", 0, "uno", "reaction", 10, 0, audience=[], reaction=True),
]


def table() -> TableClock:
    clock = TableClock("t1")
    clock.apply(1, "match.Started", STARTED, {})
    clock.apply(2, "puzzipolia.OfferMade", b"{}", {"pending": msgspec.to_builtins(PENDING)})
    return clock


def person(user: str) -> Principal:
    return Principal(user_id=user, name=user)


def keys(user: Principal) -> list[str]:
    t = table()
    return [c.decision_key for c in clocks_to_proto(t, 3_600_000, viewer_of(user, t)).clocks]


def test_a_private_clock_is_shown_to_its_parties_only_and_a_reaction_has_none() -> None:
    assert keys(person("ann")) == ["turn:1"]
    assert keys(person("ben")) == keys(person("cat")) == ["turn:1", "offer:2"]
    assert keys(person("zoe")) == ["turn:1"]  # a spectator
    operator = Principal(user_id="op", name="Op", roles=frozenset({"operator"}))
    assert keys(operator) == ["turn:1", "offer:2"]
