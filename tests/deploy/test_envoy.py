"""Envoy (deploy/k8s/envoy/envoy.yaml): one client address, every gRPC service
of the API routed by its name to the pods that serve it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from support.deploykit import ROOT, Base, grpc_services, selects, tablehall_workloads

from tablehall_cli.runtime import SERVICES

HCM = "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager"


@pytest.fixture(scope="module")
def envoy(base: Base) -> dict[str, Any]:
    config: dict[str, Any] = yaml.safe_load(base.generated("tablehall-envoy")["envoy.yaml"])
    return config


def api_services() -> dict[str, str]:
    """Every gRPC service in proto/ -> the Tablehall process that serves it."""
    found: dict[str, str] = {}
    for folder in sorted((ROOT / "proto" / "tablehall").iterdir()):
        for name in grpc_services(folder.name):
            found[name] = folder.name
    return found


def routes(envoy: dict[str, Any]) -> dict[str, dict[str, Any]]:
    listener = next(li for li in envoy["static_resources"]["listeners"] if li["name"] == "grpc")
    (manager,) = listener["filter_chains"][0]["filters"]
    assert manager["typed_config"]["@type"] == HCM
    assert manager["typed_config"]["http_filters"][-1]["name"] == "envoy.filters.http.router"
    (host,) = manager["typed_config"]["route_config"]["virtual_hosts"]
    return {r["match"]["prefix"]: r for r in host["routes"]}


def test_every_api_service_is_routed_by_name_to_its_process(base: Base, envoy: dict[str, Any]) -> None:
    services = api_services()
    assert set(services.values()) == set(SERVICES) - {"publisher"}
    table = routes(envoy)
    assert set(table) - {"/"} == {f"/{name}/" for name in services}
    clusters = {c["name"]: c for c in envoy["static_resources"]["clusters"]}
    workloads = tablehall_workloads(base)
    for name, process in services.items():
        route = table[f"/{name}/"]
        assert route["match"]["grpc"] == {}
        assert route["route"]["timeout"] == "0s"  # streams live as long as a game
        cluster = clusters[route["route"]["cluster"]]
        (endpoint,) = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"]
        address = endpoint["endpoint"]["address"]["socket_address"]
        service = base.find("Service", address["address"])
        assert service["spec"]["clusterIP"] == "None"  # every pod, not one connection to one
        (port,) = service["spec"]["ports"]
        assert port["port"] == address["port_value"]
        assert selects(service["spec"]["selector"], workloads[process]["spec"]["template"]["metadata"]["labels"])
        options = cluster["typed_extension_protocol_options"]["envoy.extensions.upstreams.http.v3.HttpProtocolOptions"]
        assert "http2_protocol_options" in options["explicit_http_config"]
        (check,) = cluster["health_checks"]
        assert check["grpc_health_check"]["service_name"] in grpc_services(process)


def test_every_other_request_goes_to_the_web_page_last(base: Base, envoy: dict[str, Any]) -> None:
    table = list(routes(envoy))
    assert table[-1] == "/"  # a prefix of every path: after every gRPC service's
    route = routes(envoy)["/"]
    assert "grpc" not in route["match"] and route["route"]["timeout"] == "0s"  # event streams stay open
    cluster = next(c for c in envoy["static_resources"]["clusters"] if c["name"] == route["route"]["cluster"])
    (endpoint,) = cluster["load_assignment"]["endpoints"][0]["lb_endpoints"]
    address = endpoint["endpoint"]["address"]["socket_address"]
    service = base.find("Service", address["address"])
    (port,) = service["spec"]["ports"]
    assert port["port"] == address["port_value"]
    web = base.find("Deployment", "tablehall-web")
    assert selects(service["spec"]["selector"], web["spec"]["template"]["metadata"]["labels"])
    (container,) = web["spec"]["template"]["spec"]["containers"]
    assert container["args"][:1] == ["web"]
    assert container["args"][container["args"].index("--upstream") + 1] == "tablehall:50051"  # through Envoy
    # the page reads the lobby's providers and its OIDC client from the pods' one ConfigMap
    assert {"configMapRef": {"name": "tablehall-config"}} in container["envFrom"]
    config = base.find("ConfigMap", "tablehall-config")["data"]
    assert config["TABLEHALL_AUTH_PROVIDERS"] == "oidc" and config["TABLEHALL_WEB_OIDC_CLIENT_ID"]
    (check,) = cluster["health_checks"]
    assert check["http_health_check"]["path"] == container["readinessProbe"]["httpGet"]["path"]


def test_the_envoy_pods_serve_the_listener_on_the_one_client_address(base: Base, envoy: dict[str, Any]) -> None:
    listener = next(li for li in envoy["static_resources"]["listeners"] if li["name"] == "grpc")
    port = listener["address"]["socket_address"]["port_value"]
    deployment = base.find("Deployment", "tablehall-envoy")
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    assert {p["name"]: p["containerPort"] for p in container["ports"]}["grpc"] == port
    config = Path(container["args"][container["args"].index("-c") + 1])
    mount = next(m for m in container["volumeMounts"] if m["mountPath"] == str(config.parent))
    volume = next(v for v in deployment["spec"]["template"]["spec"]["volumes"] if v["name"] == mount["name"])
    assert config.name in base.generated(volume["configMap"]["name"])
    front = base.find("Service", "tablehall")
    assert front["spec"]["type"] == "LoadBalancer"
    assert selects(front["spec"]["selector"], deployment["spec"]["template"]["metadata"]["labels"])
    # the admin interface stays on the loopback; /ready and /stats/prometheus are relayed
    assert envoy["admin"]["address"]["socket_address"]["address"] == "127.0.0.1"
