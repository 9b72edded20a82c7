"""The Grafana dashboard references only metrics the services register, and
Prometheus's scrape configuration finds every Tablehall pod's /metrics."""

from __future__ import annotations

import json

import pytest
import yaml
from support.deploykit import Base, dashboard_exprs, pod_labels, promql_metrics, registered_metrics

from tablehall_cli.runtime import SERVICES

# the key metrics of the dashboard (issue 19): command latency by game, events
# appended, projection lag, timers pending, bot think time, tables per instance
KEY_METRICS = {
    "tablehall_command_seconds_bucket",
    "tablehall_events_appended_total",
    "tablehall_projection_lag_events",
    "tablehall_projection_lag_seconds",
    "tablehall_timer_deadlines_pending",
    "tablehall_bot_think_seconds_bucket",
    "tablehall_tables_in_memory",
}


@pytest.fixture(scope="module")
def dashboard(base: Base) -> dict[str, object]:
    parsed: dict[str, object] = json.loads(base.generated("tablehall-dashboard")["tablehall.json"])
    return parsed


def test_metric_names_are_read_from_promql() -> None:
    expr = 'histogram_quantile(0.99, sum by (game, le) (rate(tablehall_x_bucket{namespace=~"$ns", a="b c"}[$__rate_interval])))'
    assert promql_metrics(expr) == {"tablehall_x_bucket"}
    assert promql_metrics("sum(rate(a_total[5m])) / ignoring(pod) b + on (x) group_left c offset 5m") == {
        "a_total",
        "b",
        "c",
    }
    assert promql_metrics('max by (pod) (process_resident_memory_bytes{job="tablehall"}) > 1e9') == {
        "process_resident_memory_bytes"
    }


def test_the_dashboard_uses_only_metrics_the_services_register(dashboard: dict[str, object]) -> None:
    registered = registered_metrics(list(SERVICES.values()))
    used = set().union(*(promql_metrics(e) for e in dashboard_exprs(dashboard)))
    assert used, "the dashboard has no queries"
    assert used - registered == set()
    assert used >= KEY_METRICS


def test_the_dashboard_is_a_grafana_dashboard(base: Base, dashboard: dict[str, object]) -> None:
    assert dashboard["uid"] == "tablehall" and isinstance(dashboard["schemaVersion"], int)
    panels = dashboard["panels"]
    assert isinstance(panels, list)
    ids = [p["id"] for p in panels]
    assert len(ids) == len(set(ids))
    for panel in panels:
        assert {"type", "title", "gridPos"} <= set(panel)
        for target in panel.get("targets", []):
            assert target["datasource"]["uid"] == "${datasource}" and target["refId"]
    # Grafana's dashboard sidecar loads ConfigMaps with this label
    assert base.find("ConfigMap", "tablehall-dashboard")["metadata"]["labels"] == {"grafana_dashboard": "1"}


def test_prometheus_scrapes_the_metrics_port_of_every_tablehall_pod(base: Base) -> None:
    config = yaml.safe_load(base.generated("tablehall-prometheus")["prometheus.yml"])
    job = next(j for j in config["scrape_configs"] if j["job_name"] == "tablehall")
    assert job["kubernetes_sd_configs"] == [{"role": "pod"}]
    keeps = {tuple(r["source_labels"]): r["regex"] for r in job["relabel_configs"] if r.get("action") == "keep"}
    assert keeps == {
        ("__meta_kubernetes_pod_label_app_kubernetes_io_name",): "tablehall",
        ("__meta_kubernetes_pod_container_port_name",): "metrics",
    }
    targets = {r["target_label"] for r in job["relabel_configs"] if "target_label" in r}
    assert {"pod", "service", "namespace"} <= targets  # what the dashboard groups by
    settings = base.find("ConfigMap", "tablehall-config")["data"]
    assert settings["TABLEHALL_METRICS_HOST"] == "0.0.0.0"
    served = [
        d
        for d in base.kinds("Deployment")
        if d["spec"]["template"]["spec"]["containers"][0].get("args", [])[:1] == ["serve"]
    ]
    assert len(served) == len(SERVICES)
    for deployment in served:
        assert pod_labels(deployment)["app.kubernetes.io/name"] == "tablehall"
        ports = {
            p["name"]: p["containerPort"] for p in deployment["spec"]["template"]["spec"]["containers"][0]["ports"]
        }
        assert ports["metrics"] == int(settings["TABLEHALL_METRICS_PORT"])
