"""Configuration by environment variables, each with a documented default.

| variable | default | meaning |
|---|---|---|
| TABLEHALL_DATABASE_URL | (found: see `infra`) | PostgreSQL DSN |
| TABLEHALL_NATS_URL | (found: see `infra`) | NATS server URL |
| TABLEHALL_DATA_DIR | `.data` | where embedded servers keep their data |
| TABLEHALL_DB_NAME | `tablehall` | database created on a found server |
| TABLEHALL_HOST | `127.0.0.1` | address gRPC servers listen on |
| TABLEHALL_PORT | `50051` | port of `tablehall up` (all services) |
| TABLEHALL_MATCH_PORT ... | 50052 ... | port of `tablehall serve <service>` |
| TABLEHALL_ADVERTISE_ADDRESS | host:port | the address other instances reach this one at (leases) |
| TABLEHALL_METRICS_HOST | `127.0.0.1` | address of the metrics endpoint |
| TABLEHALL_METRICS_PORT | `9464` | Prometheus metrics (0: off) |
| TABLEHALL_WEB_PORT | `8080` | the web page `tablehall up` serves on TABLEHALL_HOST (0: off; `tablehall web --port`) |
| TABLEHALL_SNAPSHOT_EVERY | `200` | snapshot a table every N events |
| TABLEHALL_SECRETS_DIR | `$XDG_DATA_HOME/tablehall` (`~/.local/share/tablehall`) | where the secrets below are kept when not given; the same from every folder, so `tablehall token` and the server agree |
| TABLEHALL_TOKEN_SECRET | (random, kept in the secrets folder) | HMAC key of the development identity provider |
| TABLEHALL_SERVICE_SECRET | (random, kept in the secrets folder) | HMAC key of the tokens services present to each other |
| TABLEHALL_INSTANCE_ID | host:port it serves on | this process's name in leases (a restart on the same address resumes its leases at once) |
| TABLEHALL_LEASE_SECONDS | `10` | how long a table's writer lease lasts unrenewed |
| TABLEHALL_LOG_LEVEL | `info` | structlog level |
| TABLEHALL_AUTH_PROVIDERS | `dev` | comma list of `dev`, `oidc`; empty: nobody gets in |
| TABLEHALL_OIDC_ISSUER, TABLEHALL_OIDC_JWKS_URL, TABLEHALL_OIDC_AUDIENCE | | the external OIDC issuer |
| TABLEHALL_OPERATORS | (none) | comma list of user ids with the operator role in every service (OIDC ids are `issuer|sub`) |
| TABLEHALL_NATS_PREFIX | `tablehall` | JetStream stream `<PREFIX>_EVENTS`, subjects `<prefix>.events.<stream>` (one per deployment sharing a NATS) |
| TABLEHALL_NATS_REPLICAS | `1` | JetStream replicas of the events stream when the publisher creates it (3 on a NATS cluster of three) |
| TABLEHALL_SIGNING_KEY_FILE | `<data dir>/signing-key.pem` | Ed25519 key that signs export files (generated on first use) |

The input policy and the limits every service applies at its edge (`input_policy`,
`stream_gate`, `grpcserver`) have their own settings: see docs/security.md, «Limits».
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

SERVICE_PORTS = {"publisher": 50050, "match": 50052, "lobby": 50053, "timer": 50054, "bot": 50055, "projection": 50056}


def _env(name: str, default: str) -> str:
    return os.environ.get(name, default)


def default_secrets_dir() -> Path:
    """TABLEHALL_SECRETS_DIR, else the user's data folder (XDG): never relative to the current folder."""
    given = os.environ.get("TABLEHALL_SECRETS_DIR")
    if given:
        return Path(given).expanduser().resolve()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base).expanduser().resolve() / "tablehall"


@dataclass(frozen=True)
class Settings:
    database_url: str | None = field(default_factory=lambda: os.environ.get("TABLEHALL_DATABASE_URL"))
    nats_url: str | None = field(default_factory=lambda: os.environ.get("TABLEHALL_NATS_URL"))
    data_dir: Path = field(default_factory=lambda: Path(_env("TABLEHALL_DATA_DIR", ".data")).resolve())
    secrets_dir: Path = field(default_factory=default_secrets_dir)
    db_name: str = field(default_factory=lambda: _env("TABLEHALL_DB_NAME", "tablehall"))
    host: str = field(default_factory=lambda: _env("TABLEHALL_HOST", "127.0.0.1"))
    port: int = field(default_factory=lambda: int(_env("TABLEHALL_PORT", "50051")))
    advertise_address: str = field(default_factory=lambda: _env("TABLEHALL_ADVERTISE_ADDRESS", ""))
    metrics_host: str = field(default_factory=lambda: _env("TABLEHALL_METRICS_HOST", "127.0.0.1"))
    metrics_port: int = field(default_factory=lambda: int(_env("TABLEHALL_METRICS_PORT", "9464")))
    web_port: int = field(default_factory=lambda: int(_env("TABLEHALL_WEB_PORT", "8080")))
    snapshot_every: int = field(default_factory=lambda: int(_env("TABLEHALL_SNAPSHOT_EVERY", "200")))
    # Transactions the match's group commit keeps open at once. One is best on a small
    # machine: while it commits the next batch fills, so batches grow with the load and
    # PostgreSQL spends less per command (see docs/architecture.md, Performance).
    commit_workers: int = field(default_factory=lambda: int(_env("TABLEHALL_COMMIT_WORKERS", "1")))
    token_secret: str | None = field(default_factory=lambda: os.environ.get("TABLEHALL_TOKEN_SECRET"))
    service_secret: str | None = field(default_factory=lambda: os.environ.get("TABLEHALL_SERVICE_SECRET"))
    instance_id: str = field(default_factory=lambda: _env("TABLEHALL_INSTANCE_ID", ""))
    lease_seconds: float = field(default_factory=lambda: float(_env("TABLEHALL_LEASE_SECONDS", "10")))
    log_level: str = field(default_factory=lambda: _env("TABLEHALL_LOG_LEVEL", "info"))
    auth_providers: tuple[str, ...] = field(
        default_factory=lambda: tuple(
            p.strip() for p in _env("TABLEHALL_AUTH_PROVIDERS", "dev").split(",") if p.strip()
        )
    )
    oidc_issuer: str = field(default_factory=lambda: _env("TABLEHALL_OIDC_ISSUER", ""))
    oidc_jwks_url: str = field(default_factory=lambda: _env("TABLEHALL_OIDC_JWKS_URL", ""))
    oidc_audience: str | None = field(default_factory=lambda: os.environ.get("TABLEHALL_OIDC_AUDIENCE"))
    # user ids an identity provider cannot mark as operators (OIDC users): every service's
    # authenticator gives them the role, so the lobby, the match and the projection agree
    operators: tuple[str, ...] = field(
        default_factory=lambda: tuple(u.strip() for u in _env("TABLEHALL_OPERATORS", "").split(",") if u.strip())
    )

    def service_port(self, service: str) -> int:
        return int(_env(f"TABLEHALL_{service.upper()}_PORT", str(SERVICE_PORTS[service])))
