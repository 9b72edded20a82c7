"""Where a move's CPU goes in `tablehall up` (load part 5 `--profile`): py-spy samples the running
process, and each sampled stack is put down to the service that owns it and what it was doing.

The owner is the outermost frame of a service package (bot, match, projection, timer, lobby,
publisher). What it was doing: the game's entry the platform called (decide, evolve, view, legal,
pending, the bot's policy, the journal…), else the innermost library at work (gRPC, protobuf, the
PostgreSQL and NATS clients, logging, metrics), else the owner's own module. Samples of py-spy's
`--nonblocking` mode: the process is never paused, so the figures are of the running service.

Re-run: `.venv/bin/python tests/load/load.py --only games --games dragons --game-tables 100 --profile`
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

RATE = 200  # samples a second

# owner packages, by the folder in a frame's file path
OWNERS = (
    ("/tablehall_bot/", "bot"),
    ("/tablehall_match/", "match"),
    ("/tablehall_projection/", "projection"),
    ("/tablehall_timer/", "timer"),
    ("/tablehall_lobby/", "lobby"),
    ("/tablehall_eventstore/publisher", "publisher"),
    ("/tablehall_cli/publisher", "publisher"),
)
GAMES = ("puzzipolia", "homunculus", "dragons", "magnates")
# the entries a service calls on a game (a game's game.py method names them)
ENTRIES = {
    "decide": "decide",
    "evolve": "evolve",
    "view": "view",
    "legal": "legal",
    "pending": "pending",
    "outcome": "outcome",
    "journal": "journal",
    "bot_policy": "bot policy",
    "bot_policy_moves": "bot policy",
    "bot_ranking": "bot policy",
    "rollout_policy": "bot policy",
    "determinize": "bot policy",
}
# a game module's stem when the entry is not game.py (the platform calls a module directly)
STEMS = {
    "legal": "legal",
    "view": "view",
    "evolve": "evolve",
    "decide": "decide",
    "journal": "journal",
    "bot": "bot policy",
    "policy": "bot policy",
    "determinize": "bot policy",
    "proto_codec": "proto codec",
    "pending": "pending",
}
LIBRARIES = (
    ("/grpc/", "gRPC"),
    ("/google/protobuf/", "protobuf"),
    ("/asyncpg/", "PostgreSQL client"),
    ("/nats/", "NATS client"),
    ("/structlog/", "logging"),
    ("/logging/", "logging"),
    ("/prometheus_client/", "metrics"),
    ("/tablehall_stream/", "stream codecs"),
    ("/tablehall_eventstore/", "event store"),
    ("/tablehall_rules/legal", "legal"),
    ("/tablehall_rules/journal", "journal"),
    ("/tablehall_platform/redaction", "redaction"),
)
FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^()]*):\d+\)$")


@dataclass(frozen=True)
class Frame:
    func: str
    file: str


def parse_frame(text: str) -> Frame:
    m = FRAME.match(text.strip())
    return Frame(m["func"], m["file"]) if m else Frame(text.strip(), "")


def _game_of(file: str) -> str | None:
    for game in GAMES:
        if f"/{game}/" in file and "/tests/" not in file:
            return game
    return None


def classify(frames: list[Frame]) -> tuple[str, str]:
    """(owner, activity) of one stack, outermost frame first."""
    owner = "other"
    owner_at = -1
    for i, f in enumerate(frames):
        hit = next((name for part, name in OWNERS if part in f.file), None)
        if hit is not None:
            owner, owner_at = hit, i
            break
    for f in frames[owner_at + 1 :]:
        if _game_of(f.file) is not None:
            stem = Path(f.file).stem
            if stem == "game":  # py-spy names a method Class.method
                method = f.func.rpartition(".")[2]
                return owner, ENTRIES.get(method, method)
            return owner, STEMS.get(stem, stem)
        if "/tablehall_rules/legal" in f.file:
            return owner, "legal"
    for f in reversed(frames):
        hit = next((name for part, name in LIBRARIES if part in f.file), None)
        if hit is not None:
            return owner, hit
    if owner_at >= 0:
        own = [f for f in frames[owner_at:] if any(part in f.file for part, _ in OWNERS)]
        return owner, Path(own[-1].file).stem
    if any("asyncio" in f.file or "uvloop" in f.file for f in frames):
        return owner, "event loop"
    return owner, "other"


def tally(raw: str) -> Counter[tuple[str, str]]:
    """Samples by (owner, activity) from py-spy's raw format: `frame;frame;... count` a line."""
    counts: Counter[tuple[str, str]] = Counter()
    for line in raw.splitlines():
        stack, _, n = line.rpartition(" ")
        if not stack or not n.isdigit():
            continue
        # the first item is the thread ("process 123:..." / a thread name) when py-spy adds it
        frames = [parse_frame(part) for part in stack.split(";")]
        counts[classify(frames)] += int(n)
    return counts


class Sampler:
    """py-spy recording one process until stop()."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.out = Path(tempfile.mkdtemp(prefix="tablehall-profile-")) / "stacks.txt"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        exe = Path(os.environ.get("VIRTUAL_ENV", "")) / "bin" / "py-spy"
        exe = exe if exe.exists() else Path(__file__).resolve().parents[2] / ".venv" / "bin" / "py-spy"
        self.process = subprocess.Popen(
            [
                str(exe),
                "record",
                "--pid",
                str(self.pid),
                "--format",
                "raw",
                "--full-filenames",
                "--nonblocking",
                "--rate",
                str(RATE),
                "--output",
                str(self.out),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )

    def stop(self) -> str:
        assert self.process is not None
        self.process.send_signal(signal.SIGINT)
        _, err = self.process.communicate(timeout=60)
        if not self.out.exists():
            return f"# py-spy wrote nothing: {err.decode(errors='replace').strip()[-300:]}"
        return self.out.read_text()


def report(raw: str, moves: int, wall_s: float, game: str, cpu_us_per_move: float, who: str = "tablehall up") -> str:
    """Each part's share of the samples, times the process's measured CPU per move (py-spy says
    where the time goes; /proc says how much: threads waiting in native code are sampled too)."""
    if raw.startswith("# "):
        return "         profile: " + raw[2:]
    counts = tally(raw)
    total = sum(counts.values())
    if not total or not moves:
        return "         profile: no samples"
    lines = [
        f"         profile of {game}: {total:,} samples at {RATE}/s over {wall_s:.0f} s; each part's share of them"
        f" and of the {cpu_us_per_move:,.0f} µs of CPU {who} spent per move ({moves:,} moves):"
    ]
    by_owner: Counter[str] = Counter()
    for (owner, _), n in counts.items():
        by_owner[owner] += n
    for owner, owner_n in by_owner.most_common():
        parts = sorted(((a, n) for (o, a), n in counts.items() if o == owner), key=lambda x: -x[1])
        shown = ", ".join(f"{a} {n / total * cpu_us_per_move:.0f}" for a, n in parts[:8] if n / total >= 0.002)
        lines.append(
            f"           {owner:<10} {owner_n / total:6.1%} {owner_n / total * cpu_us_per_move:7.0f} µs: {shown}"
        )
    return "\n".join(lines)
