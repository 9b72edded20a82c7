"""Instructions per command of the match service or of the load client, under callgrind.

Instruction counts do not move with the machine's load, so they compare two builds on a shared
machine where wall-clock and CPU-time figures do not (docs/operations.md, «Where the CPU goes per
command»). Not part of `make test`; needs valgrind.

    .venv/bin/python tests/load/callgrind.py --transport stream            # the match service
    .venv/bin/python tests/load/callgrind.py --transport unary --client    # this load client

The service (or, with --client, this process) runs under `valgrind --tool=callgrind
--instr-atstart=no`; after a warm-up, `callgrind_control -i on` starts the count for a closed
loop of `bench_match.drive` over --tables tables, `-i off` ends it, and the instructions counted
are divided by the commands answered in that window. Under valgrind the measured process is
20-50 times slower, so the other side waits for it: batches of the group commit grow, and runs
of one build differ by a few per cent; compare builds by the mean of a few runs.

To compare with an older commit: `git archive REV | tar -x -C DIR`, copy the generated `*_pb2*.py`
files in, and run DIR's own tests/load/callgrind.py with this .venv's python and
`--tree DIR` (the service then imports DIR's code too).
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import importlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import uvloop

HERE = Path(__file__).resolve().parent


def _tree_paths(tree: Path) -> list[str]:
    return [
        str(tree / "tests"),
        str(tree / "tests" / "load"),
        str(tree / "tests" / "bench"),
        *sorted(glob.glob(str(tree / "libs" / "*" / "src"))),
        *sorted(glob.glob(str(tree / "services" / "*" / "src"))),
    ]


def _totals(out: str) -> int:
    """The instructions of every dump callgrind wrote to `out*`."""
    total = 0
    for path in glob.glob(out + "*"):
        for line in Path(path).read_text(errors="replace").splitlines():
            if line.startswith("totals:"):
                total += int(line.split()[1])
    return total


async def _control(*argv: str) -> None:
    await asyncio.to_thread(subprocess.run, ["callgrind_control", *argv], check=True, capture_output=True)


async def _measure(args: argparse.Namespace, paths: list[str], out: str) -> int:
    # the load harness of the tree measured (its folder is on sys.path by now): chosen at run time
    harness: Any = importlib.import_module("load")

    popen = harness.bm.subprocess.Popen

    def spawn_with(argv: list[str], env: dict[str, str] | None = None, **kw: Any) -> Any:
        if env is not None:  # the match service: the tree's code, under callgrind unless --client
            env = {**env, "PYTHONPATH": os.pathsep.join(paths)}
            if not args.client:
                argv = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}", *argv]
        return popen(argv, env=env, **kw)

    harness.bm.subprocess.Popen = spawn_with
    servers = await harness.find_servers(harness.ROOT / ".data" / "bench", "postgres")
    match = await harness.start_match(servers)
    counted = str(os.getpid()) if args.client else str(match.pids[0])
    try:
        tables = await harness.started_tables(match, args.tables)
        address = match.addresses[0]
        async with harness.grpc.aio.insecure_channel(address) as channel:
            stub = harness.match_pb2_grpc.MatchServiceStub(channel)
            await harness.bm.drive(address, stub, tables, args.warmup, transport=args.transport)
            await _control("-i", "on", counted)
            count, _ = await harness.bm.drive(address, stub, tables, args.seconds, transport=args.transport)
            await _control("-i", "off", counted)
            if args.client:
                await _control("-d", counted)
    finally:
        await harness.stop_match(match)  # the service's last dump is written as it exits
        servers.stop()
    return int(count)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--transport", choices=("stream", "unary"), default="stream")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0, help="the counted window")
    parser.add_argument("--warmup", type=float, default=10.0)
    parser.add_argument("--client", action="store_true", help="count this load client instead of the service")
    parser.add_argument("--tree", type=Path, default=HERE.parents[1], help="the source tree measured")
    parser.add_argument("--out", default="", help="callgrind's output file (default: a temporary one)")
    args = parser.parse_args()
    if args.client and not os.environ.get("TABLEHALL_UNDER_CALLGRIND"):
        # this process itself under callgrind, counting nothing until the window
        out = args.out or str(Path(tempfile.mkdtemp(prefix="callgrind-")) / "client.out")
        env = {**os.environ, "TABLEHALL_UNDER_CALLGRIND": out}
        argv = [sys.executable, __file__, *sys.argv[1:]]
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}", *argv]
        done = subprocess.run(cmd, env=env, capture_output=True, text=True)
        lines = [line for line in done.stdout.splitlines() if line.startswith("COMMANDS ")]
        if done.returncode != 0 or not lines:
            sys.exit(f"the measured client failed:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
        count = int(lines[-1].split()[1])
        total = _totals(out)
        print(
            f"client, {args.transport}, {args.tables} tables: {count} commands, {total:,} instructions"
            f" = {total / count:,.0f} per command"
        )
        return
    paths = _tree_paths(args.tree.resolve())
    sys.path[:0] = paths
    out = (
        os.environ.get("TABLEHALL_UNDER_CALLGRIND")
        or args.out
        or str(Path(tempfile.mkdtemp(prefix="callgrind-")) / "match.out")
    )
    count = uvloop.run(_measure(args, paths, out))
    if args.client:
        print(f"COMMANDS {count}", flush=True)  # the parent divides, once callgrind has written
        return
    total = _totals(out)
    print(
        f"match service, {args.transport}, {args.tables} tables: {count} commands, {total:,} instructions"
        f" = {total / max(count, 1):,.0f} per command"
    )


if __name__ == "__main__":
    main()
