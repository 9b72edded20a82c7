"""The bot service's own settings (environment variables, each with a default).

| variable | default | meaning |
|---|---|---|
| TABLEHALL_MATCH_ADDRESS | this process's address | where the match service answers (`serve bot` alone needs it) |
| TABLEHALL_LOBBY_ADDRESS | this process's address | where the lobby answers (for the demo table) |
| TABLEHALL_BOT_THINK_MS | `200` | think time of a strong bot per decision |
| TABLEHALL_BOT_HANDED_DIFFICULTY | `easy` | how a bot plays a player's seat handed to it |
| TABLEHALL_BOT_CONCURRENCY | `8` | tables decided at once by this instance |
| TABLEHALL_BOT_ACK_WAIT_SECONDS | `5` | a notification not acknowledged in this time goes to another instance |
| TABLEHALL_BOT_CONSUMER | `tablehall-bot` | the JetStream durable consumer all bot instances share |
| TABLEHALL_BOT_DEMO | `0` | `1`: keep a demo table of four bots open (`tablehall up` sets it unless `--no-demo`) |
| TABLEHALL_BOT_DEMO_PACE_MS | `1000` | a demo table's bots wait this long before each move (a human pace; 0: full speed) |
| TABLEHALL_BOT_DEMO_THINK_MS | `40` | think time of a strong bot per decision at a paced (demo) table |
| TABLEHALL_BOT_HEURISTICS_IN_THREAD | `0` | `1`: easy and random players think in a worker thread like a strong one (they take about a millisecond: on the event loop a thread hop costs more than the thought) |
"""

from __future__ import annotations

import os
from dataclasses import dataclass

DIFFICULTIES = ("easy", "strong")


@dataclass(frozen=True)
class BotSettings:
    match_address: str
    lobby_address: str
    think_ms: int = 200
    handed_difficulty: str = "easy"
    concurrency: int = 8
    ack_wait_seconds: float = 5.0
    consumer: str = "tablehall-bot"
    demo: bool = False
    demo_pace_ms: int = 1000
    demo_think_ms: int = 40
    heuristics_in_thread: bool = False
    local_views: bool = True

    def __post_init__(self) -> None:
        if not self.match_address:
            raise ValueError("the bot service needs TABLEHALL_MATCH_ADDRESS when the match is not in this process")
        if not 1 <= self.demo_think_ms <= 60_000:
            raise ValueError(f"TABLEHALL_BOT_DEMO_THINK_MS must be 1..60000, got {self.demo_think_ms}")
        if not 1 <= self.think_ms <= 60_000:
            raise ValueError(f"TABLEHALL_BOT_THINK_MS must be 1..60000, got {self.think_ms}")
        if self.handed_difficulty not in DIFFICULTIES:
            raise ValueError(f"TABLEHALL_BOT_HANDED_DIFFICULTY must be one of {DIFFICULTIES}")
        if self.concurrency < 1:
            raise ValueError(f"TABLEHALL_BOT_CONCURRENCY must be at least 1, got {self.concurrency}")
        if not self.ack_wait_seconds > 0:
            raise ValueError("TABLEHALL_BOT_ACK_WAIT_SECONDS must be positive")
        if not 0 <= self.demo_pace_ms <= 5_000:
            # shorter than every clock a bot meets (the shortest: 8 s for the next bid of an auction)
            raise ValueError(f"TABLEHALL_BOT_DEMO_PACE_MS must be 0..5000, got {self.demo_pace_ms}")

    @classmethod
    def from_env(cls, own_address: str) -> BotSettings:
        env = os.environ
        return cls(
            match_address=env.get("TABLEHALL_MATCH_ADDRESS") or own_address,
            lobby_address=env.get("TABLEHALL_LOBBY_ADDRESS") or own_address,
            think_ms=int(env.get("TABLEHALL_BOT_THINK_MS", "200")),
            handed_difficulty=env.get("TABLEHALL_BOT_HANDED_DIFFICULTY", "easy"),
            concurrency=int(env.get("TABLEHALL_BOT_CONCURRENCY", "8")),
            ack_wait_seconds=float(env.get("TABLEHALL_BOT_ACK_WAIT_SECONDS", "5")),
            consumer=env.get("TABLEHALL_BOT_CONSUMER", "tablehall-bot"),
            demo=env.get("TABLEHALL_BOT_DEMO", "0") == "1",
            demo_pace_ms=int(env.get("TABLEHALL_BOT_DEMO_PACE_MS", "1000")),
            demo_think_ms=int(env.get("TABLEHALL_BOT_DEMO_THINK_MS", "40")),
            heuristics_in_thread=env.get("TABLEHALL_BOT_HEURISTICS_IN_THREAD", "0") == "1",
            local_views=env.get("TABLEHALL_BOT_LOCAL_VIEWS", "1") == "1",
        )
