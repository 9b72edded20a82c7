"""The projection service's Prometheus metrics."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

LAG_EVENTS = Gauge(
    "tablehall_projection_lag_events", "Events in the global order a read model has not applied yet.", ["projection"]
)
LAG_SECONDS = Gauge(
    "tablehall_projection_lag_seconds",
    "Age of the oldest event a read model has not applied yet (0 when caught up).",
    ["projection"],
)
APPLIED = Counter("tablehall_projection_events_total", "Events applied to a read model.", ["projection"])
BATCH_SECONDS = Histogram(
    "tablehall_projection_batch_seconds",
    "Time to apply one batch of events and its checkpoint.",
    ["projection"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
WATCHERS = Gauge("tablehall_projection_watchers", "Live WatchTable calls.")
FEEDS = Gauge("tablehall_projection_feeds", "Tables followed in memory for live viewers.")
QUARANTINED = Counter(
    "tablehall_projection_quarantined_total",
    "Tables a read model put in quarantine because it could not apply one of their events.",
    ["projection"],
)
FRAME_DELAY = Histogram(
    "tablehall_projection_frame_delay_seconds",
    "From the match deciding a command (its events' now_ms) to its live frames: rendered (once a"
    " version for every kind of viewer) and handed to a watcher's stream (once a watcher).",
    ["stage"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
FRAME_RENDERED = FRAME_DELAY.labels(stage="rendered")
FRAME_HANDED = FRAME_DELAY.labels(stage="handed")
