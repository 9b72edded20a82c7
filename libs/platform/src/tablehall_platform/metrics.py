"""Prometheus metrics shared by the services (one registry per process)."""

from __future__ import annotations

import functools
import gc
import time
from collections.abc import Callable
from typing import Any

from prometheus_client import Counter, Gauge, Histogram, start_http_server

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.03, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

COMMAND_LATENCY = Histogram(
    "tablehall_command_seconds",
    "Time from receiving a command to answering it, by game and outcome.",
    ["game", "outcome"],
    buckets=LATENCY_BUCKETS,
)
EVENTS_APPENDED = Counter("tablehall_events_appended_total", "Events appended, by game.", ["game"])
TABLES_IN_MEMORY = Gauge("tablehall_tables_in_memory", "Tables whose state this match instance holds.")
REBUILD_SECONDS = Histogram(
    "tablehall_table_rebuild_seconds",
    "Time to rebuild a table from its snapshot and events.",
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0),
)
REBUILD_EVENTS = Counter("tablehall_rebuild_events_total", "Events replayed while rebuilding tables.")
# a collection stops the whole process: its pauses, not only their total, say what watchers wait
GC_PAUSE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
GC_PAUSES = Histogram(
    "tablehall_gc_pause_seconds",
    "Each pause of Python's cyclic garbage collector, by generation collected (`_sum`: the time in all).",
    ["generation"],
    buckets=GC_PAUSE_BUCKETS,
)

GC_CPU = Counter(
    "tablehall_gc_cpu_seconds_total",
    "CPU the collecting thread spent in Python's cyclic garbage collector, by generation collected:"
    " against tablehall_gc_pause_seconds_sum (wall time), what a pause spent waiting for a core.",
    ["generation"],
)


def children(metric: Any) -> Callable[..., Any]:
    """`metric.labels(...)`, each child looked up once: prometheus_client's labels() validates
    and locks on every call, a few per cent of a command's CPU on a hot path."""
    return functools.cache(metric.labels)


# the labelled children on the command path
command_latency = children(COMMAND_LATENCY)
events_appended = children(EVENTS_APPENDED)


class _CollectionTimer:
    """A gc callback observing each collection's pause in GC_PAUSES."""

    def __init__(self) -> None:
        self.children = [GC_PAUSES.labels(str(g)) for g in range(3)]
        self.cpu = [GC_CPU.labels(str(g)) for g in range(3)]
        self.started = 0.0
        self.started_cpu = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.started = time.perf_counter()
            self.started_cpu = time.thread_time()  # the collection runs in the thread that started it
        else:
            generation = info["generation"]
            self.children[generation].observe(time.perf_counter() - self.started)
            self.cpu[generation].inc(max(0.0, time.thread_time() - self.started_cpu))


_COLLECTION_TIMER = _CollectionTimer()


def time_collections() -> None:
    """Time each of the collector's pauses in GC_PAUSES (a profile puts them on whatever line allocated)."""
    if _COLLECTION_TIMER not in gc.callbacks:
        gc.callbacks.append(_COLLECTION_TIMER)


def serve_metrics(port: int, host: str = "127.0.0.1") -> None:
    """Expose /metrics over HTTP (port 0: off)."""
    if port:
        start_http_server(port, addr=host)
