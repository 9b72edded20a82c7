"""Each pause of the cyclic garbage collector is observed in `tablehall_gc_pause_seconds`, by the
generation collected: its `_sum` is the time spent collecting, its buckets the pauses' lengths
(one long pause stops every watcher of the process at once); `tablehall_gc_cpu_seconds_total` is
the CPU the collecting thread spent in them (the rest of a pause waited for a core)."""

from __future__ import annotations

import gc

from prometheus_client import REGISTRY

from tablehall_platform import metrics


def sample(name: str, generation: str, le: str | None = None) -> float:
    labels = {"generation": generation} if le is None else {"generation": generation, "le": le}
    value = REGISTRY.get_sample_value(name, labels)
    return value or 0.0


def test_a_full_collection_is_one_pause_of_the_oldest_generation() -> None:
    metrics.time_collections()
    metrics.time_collections()  # timed once however often it is asked
    count, total = sample("tablehall_gc_pause_seconds_count", "2"), sample("tablehall_gc_pause_seconds_sum", "2")
    cpu = sample("tablehall_gc_cpu_seconds_total", "2")
    garbage = []
    for _ in range(10_000):
        cycle: list[object] = []
        cycle.append(cycle)
        garbage.append(cycle)
    del garbage
    gc.collect()
    assert sample("tablehall_gc_pause_seconds_count", "2") >= count + 1  # (and any the allocations made)
    assert sample("tablehall_gc_pause_seconds_sum", "2") > total
    # 10,000 cycles to visit and free: some CPU, and never more than the pauses' wall time
    spent_cpu = sample("tablehall_gc_cpu_seconds_total", "2") - cpu
    assert 0 < spent_cpu <= sample("tablehall_gc_pause_seconds_sum", "2") - total + 1e-3
    # the pause is in the buckets: every bucket from its length up counted it
    assert sample("tablehall_gc_pause_seconds_bucket", "2", "+Inf") == sample("tablehall_gc_pause_seconds_count", "2")
