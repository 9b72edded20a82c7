"""deploy/k8s: every object valid against the Kubernetes schemas, and the
promises the manifests make (every process deployed, probes on gRPC health,
limits, autoscaling, budgets, drain times, NATS cluster) hold."""

from __future__ import annotations

import copy
import os
import re
import subprocess
from pathlib import Path

import kubernetes_validate
import pytest
from support.deploykit import (
    K8S,
    Base,
    Obj,
    container_of,
    grpc_services,
    pod_labels,
    selects,
    tablehall_workloads,
)

from tablehall_cli.runtime import SERVICES
from tablehall_match.grpc_port import DRAIN_SECONDS

# The oldest Kubernetes the manifests are for (gRPC probes are GA since 1.27,
# autoscaling/v2 and policy/v1 long before) and the newest the validator knows.
VERSIONS = ("1.30", kubernetes_validate.latest_version())
SCALED = {"match", "timer", "bot", "projection"}
# `tablehall serve` stops with server.stop(grace=5) after the components' drains
SERVER_STOP_GRACE = 5.0
# closing: the match flushes its appender and releases its leases
CLOSE_MARGIN = 5.0


@pytest.mark.parametrize("version", VERSIONS)
def test_every_object_is_valid_against_the_kubernetes_schemas(base: Base, version: str) -> None:
    for obj in base.objects:
        kubernetes_validate.validate(obj, version, strict=True)


def test_the_validator_refuses_a_broken_object(base: Base) -> None:
    broken = copy.deepcopy(base.find("Deployment", "tablehall-match"))
    container_of(broken)["readinessProbe"]["grpc"]["port"] = "grpc"  # a gRPC probe needs a number
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, VERSIONS[0], strict=True)
    unknown = copy.deepcopy(base.find("Service", "tablehall-match"))
    unknown["spec"]["replicas"] = 2
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(unknown, VERSIONS[0], strict=True)


def test_every_manifest_file_is_in_the_kustomization(base: Base) -> None:
    listed = set(base.kustomization["resources"])
    assert {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"} == listed
    generated = {f for g in base.kustomization["configMapGenerator"] for f in g["files"]}
    on_disk = {str(p.relative_to(K8S)) for p in K8S.glob("*/*") if p.is_file()}
    assert on_disk == generated


def test_every_process_of_tablehall_is_deployed(base: Base) -> None:
    assert set(tablehall_workloads(base)) == set(SERVICES)


def test_probes_ask_grpc_health_of_the_services_each_process_serves(base: Base) -> None:
    for service, workload in tablehall_workloads(base).items():
        container = container_of(workload)
        port = int(container["args"][container["args"].index("--port") + 1])
        assert {p["name"]: p["containerPort"] for p in container["ports"]}["grpc"] == port
        served = grpc_services(service)
        for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
            grpc = container[probe]["grpc"]
            assert grpc["port"] == port, (service, probe)
            if probe == "livenessProbe":
                assert "service" not in grpc  # the server as a whole
            elif served:
                assert grpc["service"] in served, (service, probe)
            else:  # the publisher serves no gRPC API: the server's overall health
                assert "service" not in grpc, (service, probe)


def test_every_container_has_requests_and_limits(base: Base) -> None:
    for workload in [*base.kinds("Deployment"), *base.kinds("StatefulSet"), *base.kinds("Job")]:
        for container in workload["spec"]["template"]["spec"]["containers"]:
            resources = container["resources"]
            for bound in ("requests", "limits"):
                assert {"cpu", "memory"} <= set(resources[bound]), (workload["metadata"]["name"], bound)


def test_match_timer_bot_and_projection_scale_horizontally(base: Base) -> None:
    workloads = tablehall_workloads(base)
    targets = {h["spec"]["scaleTargetRef"]["name"]: h for h in base.kinds("HorizontalPodAutoscaler")}
    for service in SCALED:
        hpa = targets[workloads[service]["metadata"]["name"]]
        assert hpa["spec"]["scaleTargetRef"]["kind"] == "Deployment"
        assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
        # utilisation is a share of the request: without one the HPA cannot scale
        assert "cpu" in container_of(workloads[service])["resources"]["requests"]
    assert set(targets) == {workloads[s]["metadata"]["name"] for s in SCALED}


def test_every_workload_has_a_disruption_budget_that_lets_one_pod_go(base: Base) -> None:
    budgets = base.kinds("PodDisruptionBudget")
    for workload in [*base.kinds("Deployment"), *base.kinds("StatefulSet")]:
        labels = pod_labels(workload)
        mine = [b for b in budgets if selects(b["spec"]["selector"]["matchLabels"], labels)]
        assert len(mine) == 1, workload["metadata"]["name"]
        assert mine[0]["spec"].get("maxUnavailable") == 1


def _prestop_seconds(container: Obj) -> float:
    command = container.get("lifecycle", {}).get("preStop", {}).get("exec", {}).get("command", [])
    return float(command[1]) if command[:1] == ["sleep"] else 0.0


def test_termination_grace_covers_the_match_drain(base: Base) -> None:
    for service, workload in tablehall_workloads(base).items():
        container = container_of(workload)
        drain = DRAIN_SECONDS if service == "match" else 0.0
        needed = _prestop_seconds(container) + drain + SERVER_STOP_GRACE + CLOSE_MARGIN
        grace = workload["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
        assert grace >= needed, (service, grace, needed)
    # the match never loses two replicas at once to a rollout
    match = tablehall_workloads(base)["match"]
    assert match["spec"]["strategy"]["rollingUpdate"]["maxUnavailable"] == 0


def test_services_select_pods_and_reach_their_ports(base: Base) -> None:
    templates = [*base.kinds("Deployment"), *base.kinds("StatefulSet")]
    for service in base.kinds("Service"):
        pods = [w for w in templates if selects(service["spec"]["selector"], pod_labels(w))]
        assert len(pods) == 1, service["metadata"]["name"]
        named = {p["name"] for c in pods[0]["spec"]["template"]["spec"]["containers"] for p in c["ports"]}
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in named, (service["metadata"]["name"], port)


def test_every_referenced_config_map_and_secret_exists(base: Base) -> None:
    kinds = {"configMapRef": "ConfigMap", "secretRef": "Secret"}
    for workload in [*base.kinds("Deployment"), *base.kinds("StatefulSet"), *base.kinds("Job")]:
        spec = workload["spec"]["template"]["spec"]
        for container in spec["containers"]:
            for source in container.get("envFrom", []):
                for key, kind in kinds.items():
                    if key in source:
                        base.find(kind, source[key]["name"])
        for volume in spec.get("volumes", []):
            if "configMap" in volume:
                base.find("ConfigMap", volume["configMap"]["name"])
            if "secret" in volume:
                base.find("Secret", volume["secret"]["secretName"])


def test_postgresql_is_external_and_given_by_a_secret(base: Base) -> None:
    url = base.find("Secret", "tablehall-database")["stringData"]["TABLEHALL_DATABASE_URL"]
    assert url.startswith("postgresql://")
    assert not [w for w in base.kinds("StatefulSet") if "postgres" in str(container_of(w)["image"])]
    for workload in [*tablehall_workloads(base).values(), base.find("Job", "tablehall-migrate")]:
        refs = {s["secretRef"]["name"] for s in container_of(workload)["envFrom"] if "secretRef" in s}
        assert "tablehall-database" in refs, workload["metadata"]["name"]


def test_services_share_one_service_secret(base: Base) -> None:
    # each pod would make its own otherwise, and refuse the others' service tokens
    assert base.find("Secret", "tablehall-secrets")["stringData"]["TABLEHALL_SERVICE_SECRET"]
    for workload in tablehall_workloads(base).values():
        refs = {s["secretRef"]["name"] for s in container_of(workload)["envFrom"] if "secretRef" in s}
        assert "tablehall-secrets" in refs, workload["metadata"]["name"]


def test_nats_is_a_three_node_jetstream_cluster_synced_on_every_write(base: Base) -> None:
    nats = base.find("StatefulSet", "tablehall-nats")
    replicas = nats["spec"]["replicas"]
    assert replicas == 3
    conf = base.generated("tablehall-nats")["nats.conf"]
    assert re.search(r"jetstream\s*\{[^}]*sync_interval:\s*always", conf)
    headless = nats["spec"]["serviceName"]
    routes = re.findall(r"nats://([\w.-]+):6222", conf)
    assert routes == [f"{nats['metadata']['name']}-{i}.{headless}" for i in range(replicas)]
    assert base.find("Service", headless)["spec"]["clusterIP"] == "None"
    config = base.find("ConfigMap", "tablehall-config")["data"]
    # the events stream on three nodes: replicas as many as the servers
    assert int(config["TABLEHALL_NATS_REPLICAS"]) == replicas
    assert config["TABLEHALL_NATS_URL"] == "nats://tablehall-nats:4222"
    base.find("Service", "tablehall-nats")
    claims = nats["spec"]["volumeClaimTemplates"]
    mounts = {m["name"]: m["mountPath"] for m in container_of(nats)["volumeMounts"]}
    assert mounts[claims[0]["metadata"]["name"]] == "/data"
    assert "store_dir: /data/jetstream" in conf


def test_nats_accepts_both_configurations(base: Base, tmp_path: Path) -> None:
    from tablehall_platform.embedded import nats_binary

    cluster = tmp_path / "cluster.conf"
    cluster.write_text(base.generated("tablehall-nats")["nats.conf"])
    for conf, env in ((cluster, {"SERVER_NAME": "tablehall-nats-0"}), (K8S.parent / "nats" / "nats.conf", {})):
        checked = subprocess.run(
            [nats_binary(), "-t", "-c", str(conf)], env={**os.environ, **env}, capture_output=True, text=True
        )
        assert checked.returncode == 0, checked.stderr
        assert "is valid" in checked.stderr


def test_every_pod_has_its_own_instance_id_and_the_match_its_own_address(base: Base) -> None:
    # the default instance id is the listening address, 0.0.0.0:PORT in every pod: two timer
    # pods would own the same leases (the match's and the timer's owners are instance ids)
    for service, workload in tablehall_workloads(base).items():
        env = {e["name"]: e for e in container_of(workload)["env"]}
        assert env["TABLEHALL_INSTANCE_ID"]["valueFrom"] == {"fieldRef": {"fieldPath": "metadata.name"}}, service
    match = container_of(tablehall_workloads(base)["match"])
    env = {e["name"]: e for e in match["env"]}
    assert env["POD_IP"]["valueFrom"] == {"fieldRef": {"fieldPath": "status.podIP"}}
    port = {p["name"]: p["containerPort"] for p in match["ports"]}["grpc"]
    # other replicas forward a table's commands to the address its lease records
    assert env["TABLEHALL_ADVERTISE_ADDRESS"]["value"] == f"$(POD_IP):{port}"
