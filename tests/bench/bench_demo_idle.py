"""CPU that `make run` uses while nobody watches or plays: `tablehall up` with its demo table.

Runs `tablehall up` as on a fresh machine (embedded PostgreSQL and NATS in a
temporary folder), lets it warm up, then measures the CPU time of tablehall,
nats-server and PostgreSQL (with its reaped backends) over a window.

    .venv/bin/python tests/bench/bench_demo_idle.py [--seconds 180] [--warmup 30]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from support.upkit import base_env, start_up  # noqa: E402

from tablehall_platform.embedded import nats_servers_on, stop_pid  # noqa: E402
from tablehall_platform.infra import free_port  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int, with_children: bool = False) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])  # utime, stime
    if with_children:
        ticks += int(fields[13]) + int(fields[14])  # cutime, cstime: reaped children
    return ticks / TICK


def postgres_cpu(postmaster: int) -> float:
    total = cpu_seconds(postmaster, with_children=True)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == postmaster:
                total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=180)
    parser.add_argument("--warmup", type=float, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        env = base_env(tmp / "data")
        env["TABLEHALL_EMBEDDED"] = "1"
        env["TABLEHALL_LOG_LEVEL"] = "warning"
        for name in ("TABLEHALL_DATABASE_URL", "TABLEHALL_NATS_URL"):
            env.pop(name, None)
        up = start_up(env, tmp, free_port())
        try:
            time.sleep(args.warmup)
            nats_pid = nats_servers_on((tmp / "data" / "nats").resolve())[0]
            postmaster = int((tmp / "data" / "postgres" / "postmaster.pid").read_text().split()[0])

            def sample() -> tuple[float, float, float]:
                return cpu_seconds(up.proc.pid), cpu_seconds(nats_pid), postgres_cpu(postmaster)

            before, started = sample(), time.monotonic()
            time.sleep(args.seconds)
            after, wall = sample(), time.monotonic() - started
        finally:
            os.killpg(up.proc.pid, signal.SIGINT)
            try:
                up.proc.wait(60)
            except subprocess.TimeoutExpired:
                up.proc.kill()
            for pid in nats_servers_on((tmp / "data" / "nats").resolve()):
                stop_pid(pid)
        used = [a - b for a, b in zip(after, before, strict=True)]
        print(f"demo idle over {wall:.0f} s (after {args.warmup:.0f} s warm-up), CPU share of one core:")
        for name, seconds in zip(("tablehall", "nats-server", "postgres"), used, strict=True):
            print(f"  {name:12} {seconds:7.2f} s  {100 * seconds / wall:5.1f} %")
        print(f"  {'total':12} {sum(used):7.2f} s  {100 * sum(used) / wall:5.1f} %")


if __name__ == "__main__":
    main()
