"""docker-compose.yml: every Tablehall process in its own container, all of
them sharing the secrets their calls to each other need."""

from __future__ import annotations

from typing import Any

import yaml
from support.deploykit import ROOT

from tablehall_cli.runtime import SERVICES


def test_compose_runs_every_process_with_shared_secrets() -> None:
    compose: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    served = {}
    for name, service in compose["services"].items():
        command = service.get("command", [])
        if command[:1] == ["serve"]:
            served[command[1]] = service
            assert service["build"] == ".", name
    assert set(served) == set(SERVICES)
    for name, service in served.items():
        env = service["environment"]
        # each container has its own /data: a secret not given would differ per container
        assert env["TABLEHALL_SERVICE_SECRET"] and env["TABLEHALL_TOKEN_SECRET"], name
        assert env["TABLEHALL_DATABASE_URL"].startswith("postgresql://"), name
    nats = compose["services"]["nats"]
    conf = (ROOT / "deploy" / "nats" / "nats.conf").read_text()
    assert "./deploy/nats/nats.conf:/etc/nats/nats.conf:ro" in nats["volumes"]
    assert "sync_interval: always" in conf
