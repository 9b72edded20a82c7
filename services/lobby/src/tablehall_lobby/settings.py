"""The lobby's own settings (environment variables).

| variable | default | meaning |
|---|---|---|
| TABLEHALL_MATCH_ADDRESS | this process's server | the match service when the lobby is served alone |
| TABLEHALL_OPERATORS | (none) | comma list of user ids with the operator role (OIDC ids are `issuer|sub`) |
| TABLEHALL_LOBBY_HEARTBEAT_SECONDS | `15` | presence stream heartbeat |
| TABLEHALL_CHAT_MESSAGES, TABLEHALL_CHAT_WINDOW_SECONDS | `5`, `10` | chat rate limit per user and table |
| TABLEHALL_PIN_ATTEMPTS, TABLEHALL_PIN_WINDOW_SECONDS | `5`, `300` | PIN attempts per user and table |
| TABLEHALL_PIN_FREE_FAILURES, TABLEHALL_PIN_MAX_DELAY_SECONDS | `3`, `900` | wrong PINs per table (anyone) before PIN entry closes for a doubling delay, and its cap |
| TABLEHALL_LOBBY_SWEEP_SECONDS | `5` | how often running tables' listing rows catch up with their streams |
| TABLEHALL_DEV_SIGN_INS_PER_NAME, TABLEHALL_DEV_SIGN_INS_PER_PEER | `10`, `60` | development sign-ins per name (any case) and per peer address (`identity.SignInThrottle`) |
| TABLEHALL_DEV_SIGN_IN_WINDOW_SECONDS | `60` | their window |
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


@dataclass(frozen=True)
class LobbySettings:
    match_address: str = field(default_factory=lambda: _env("TABLEHALL_MATCH_ADDRESS", ""))
    operators: tuple[str, ...] = field(
        default_factory=lambda: tuple(u.strip() for u in _env("TABLEHALL_OPERATORS", "").split(",") if u.strip())
    )
    heartbeat_seconds: float = field(default_factory=lambda: float(_env("TABLEHALL_LOBBY_HEARTBEAT_SECONDS", "15")))
    chat_messages: int = field(default_factory=lambda: int(_env("TABLEHALL_CHAT_MESSAGES", "5")))
    chat_window_seconds: float = field(default_factory=lambda: float(_env("TABLEHALL_CHAT_WINDOW_SECONDS", "10")))
    pin_attempts: int = field(default_factory=lambda: int(_env("TABLEHALL_PIN_ATTEMPTS", "5")))
    pin_window_seconds: int = field(default_factory=lambda: int(_env("TABLEHALL_PIN_WINDOW_SECONDS", "300")))
    pin_free_failures: int = field(default_factory=lambda: int(_env("TABLEHALL_PIN_FREE_FAILURES", "3")))
    pin_max_delay_seconds: float = field(default_factory=lambda: float(_env("TABLEHALL_PIN_MAX_DELAY_SECONDS", "900")))
    sweep_seconds: float = field(default_factory=lambda: float(_env("TABLEHALL_LOBBY_SWEEP_SECONDS", "5")))
