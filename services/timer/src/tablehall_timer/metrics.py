"""The timer's Prometheus metrics (in the process's one registry)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

PENDING = Gauge(
    "tablehall_timer_deadlines_pending",
    "Open decisions with a clock at the unfinished tables this timer instance follows.",
)
FIRED = Counter(
    "tablehall_timer_fired_total",
    "Timer actions by outcome: made (default move made), closed (idle table closed), duplicate (answered "
    "from an earlier identical call), taken (decided meanwhile), elsewhere (another instance holds the "
    "table), early (clock skew, retried), retry (match unavailable, retried), failed (retried).",
    ["outcome"],
)
LATENESS = Histogram(
    "tablehall_timer_lateness_seconds",
    "How late a due action was started: fire time minus deadline, once per action, by the instance acting on it.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 300.0),
)
TABLES = Gauge("tablehall_timer_tables", "Unfinished tables this timer instance follows.")
