"""docker-compose.yml: every Tablehall process in its own container, all of
them sharing the secrets their calls to each other need; Envoy the one client
address in front of them and of the web page."""

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


def test_compose_serves_the_web_page_through_the_front() -> None:
    """The web container speaks to the services through Envoy; Envoy routes each gRPC service
    to the container that serves it (on the port its command names) and every other path to
    the web page; the page offers the lobby's own sign-in providers."""
    compose: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    services = compose["services"]
    web, envoy = services["web"], services["envoy"]
    assert web["build"] == "." and web["command"][:3] == ["web", "--upstream", "envoy:50051"]
    port = int(web["command"][web["command"].index("--port") + 1])
    assert f"{port}:{port}" in web["ports"] and "50051:50051" in envoy["ports"]
    assert (
        web["environment"]["TABLEHALL_AUTH_PROVIDERS"] == services["lobby"]["environment"]["TABLEHALL_AUTH_PROVIDERS"]
    )
    mount = next(v for v in envoy["volumes"] if v.endswith(":/etc/envoy/envoy.yaml:ro"))
    config = yaml.safe_load((ROOT / mount.split(":")[0]).read_text())["static_resources"]
    where = {}
    for cluster in config["clusters"]:
        [endpoint] = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"]
        address = endpoint["endpoint"]["address"]["socket_address"]
        where[cluster["name"]] = (address["address"], address["port_value"])
    routes = config["listeners"][0]["filter_chains"][0]["filters"][0]["typed_config"]["route_config"]
    routed = {r["match"]["prefix"]: r["route"]["cluster"] for r in routes["virtual_hosts"][0]["routes"]}
    serving = {}  # compose service -> the port its `serve` command listens on
    for name, service in services.items():
        command = service.get("command", [])
        if command[:1] == ["serve"]:
            serving[name] = (command[1], int(command[command.index("--port") + 1]))
    for prefix, cluster in routed.items():
        host, port_value = where[cluster]
        if prefix == "/":
            assert (host, port_value) == ("web", port)
            continue
        package = prefix.strip("/").split(".")[1]  # /tablehall.<service>.v1.<Name>/
        assert serving[host] == (package, port_value), prefix
    assert set(serving[h][0] for h, _ in where.values() if h in serving) >= {"lobby", "match", "projection"}
