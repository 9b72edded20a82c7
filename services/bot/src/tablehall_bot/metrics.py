"""The bot service's Prometheus metrics (in the process's one registry)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from tablehall_platform.metrics import children

DECISIONS = Counter(
    "tablehall_bot_decisions_total",
    "Bot decisions by game, difficulty and outcome: made (applied), duplicate (a retry answered), "
    "stale (the state moved on: decision taken, not our turn, version conflict), refused (the rules "
    "refused the move), failed (the match did not answer), late (the decision's clock had run out: the "
    "timer plays it; not decided at all when the bot saw so before deciding).",
    ["game", "difficulty", "outcome"],
)
THINK_SECONDS = Histogram(
    "tablehall_bot_think_seconds",
    "Time a bot spent choosing one move (search or heuristic), by game and difficulty.",
    ["game", "difficulty"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.5, 1.0, 2.0),
)
SEATS_PLAYED = Gauge(
    "tablehall_bot_seats_played",
    "Seats (bot seats and seats handed to a bot) at the unfinished tables this instance has acted at.",
)
TABLES_WAITING = Gauge(
    "tablehall_bot_tables_waiting",
    "Tables with a bot decision waiting for one of this instance's slots (TABLEHALL_BOT_CONCURRENCY): "
    "the backlog, taken earliest clock first.",
)
NOTIFICATIONS = Counter(
    "tablehall_bot_notifications_total", "Table notifications handled, by source (nats, catch_up).", ["source"]
)
VIEWS = Counter(
    "tablehall_bot_views_total",
    "Seat views a bot decided on, by source: local (rendered from the state folded in the bot), match "
    "(asked of the match: after a refusal, or where the stream could not be folded).",
    ["source"],
)


# the labelled children on a move's path
decisions = children(DECISIONS)
think_seconds = children(THINK_SECONDS)
notifications = children(NOTIFICATIONS)
views = children(VIEWS)
