"""Reading deploy/: the kustomize base as kustomize renders it (resources plus the
generated ConfigMaps), the metrics the services register, the metric names of
PromQL expressions."""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from prometheus_client import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
K8S = ROOT / "deploy" / "k8s"

Obj = dict[str, Any]


@dataclass(frozen=True)
class Base:
    """The objects of deploy/k8s, generated ConfigMaps included (under their
    base names: kustomize's hash suffix is left out, as are its references)."""

    kustomization: Obj
    objects: list[Obj]

    def find(self, kind: str, name: str) -> Obj:
        for obj in self.objects:
            if obj["kind"] == kind and obj["metadata"]["name"] == name:
                return obj
        raise KeyError(f"{kind}/{name} is not in deploy/k8s")

    def kinds(self, kind: str) -> list[Obj]:
        return [obj for obj in self.objects if obj["kind"] == kind]

    def generated(self, name: str) -> dict[str, str]:
        """The files of one configMapGenerator entry: file name -> text."""
        data: dict[str, str] = self.find("ConfigMap", name)["data"]
        return data


def load_base() -> Base:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    objects: list[Obj] = []
    for resource in kustomization["resources"]:
        objects.extend(doc for doc in yaml.safe_load_all((K8S / resource).read_text()) if doc)
    for generator in kustomization.get("configMapGenerator", []):
        files = {Path(f).name: (K8S / f).read_text() for f in generator["files"]}
        labels = generator.get("options", {}).get("labels", {})
        objects.append(
            {
                "apiVersion": "v1",
                "kind": "ConfigMap",
                "metadata": {"name": generator["name"], **({"labels": labels} if labels else {})},
                "data": files,
            }
        )
    return Base(kustomization, objects)


def pod_labels(workload: Obj) -> dict[str, str]:
    labels: dict[str, str] = workload["spec"]["template"]["metadata"]["labels"]
    return labels


def selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return all(labels.get(k) == v for k, v in selector.items())


# ---- the Tablehall processes ----


def tablehall_workloads(base: Base) -> dict[str, Obj]:
    """`serve <service>` -> its Deployment."""
    found: dict[str, Obj] = {}
    for deployment in base.kinds("Deployment"):
        container = deployment["spec"]["template"]["spec"]["containers"][0]
        args = container.get("args", [])
        if args[:1] == ["serve"]:
            found[args[1]] = deployment
    return found


def container_of(workload: Obj) -> Obj:
    containers: list[Obj] = workload["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    return containers[0]


def grpc_services(service: str) -> set[str]:
    """The gRPC services `tablehall serve <service>` registers: those of proto package tablehall.<service>.v1."""
    names: set[str] = set()
    for proto in (ROOT / "proto" / "tablehall" / service / "v1").glob("*.proto"):
        module = importlib.import_module(f"tablehall.{service}.v1.{proto.stem}_pb2")
        names.update(s.full_name for s in module.DESCRIPTOR.services_by_name.values())
    return names


# ---- metrics ------------------------------------------------------------------

_SUFFIXES = {
    "counter": ("_total", "_created"),
    "gauge": ("",),
    "histogram": ("_bucket", "_sum", "_count", "_created"),
    "summary": ("", "_sum", "_count", "_created"),
    "info": ("_info",),
    "stateset": ("",),
    "gaugehistogram": ("_bucket", "_gsum", "_gcount"),
}


def registered_metrics(modules: list[str]) -> set[str]:
    """Every sample name Prometheus can scrape from a process that imported `modules`."""
    for module in modules:
        importlib.import_module(module)
    names: set[str] = set()
    for family in REGISTRY.collect():
        names.update(family.name + suffix for suffix in _SUFFIXES.get(family.type, ("",)))
        names.update(sample.name for sample in family.samples)
    return names


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')
_GROUPING = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)")
_BRACES = re.compile(r"\{[^}]*\}")
_RANGE = re.compile(r"\[[^\]]*\]")
_VARIABLE = re.compile(r"\$\{?\w+\}?")
_IDENT = re.compile(r"(?<![\w.])([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?")
_KEYWORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool", "offset"}
_KEYWORDS |= {"inf", "nan"}


def promql_metrics(expr: str) -> set[str]:
    """The metric names an expression selects (functions, labels, keywords and
    Grafana variables left out)."""
    text = _STRING.sub('""', expr)
    text = _VARIABLE.sub("1", text)
    text = _GROUPING.sub(" ", text)
    text = _BRACES.sub(" ", text)
    text = _RANGE.sub(" ", text)
    found = set()
    for match in _IDENT.finditer(text):
        name, call = match.group(1), match.group(2)
        if call or name.lower() in _KEYWORDS:
            continue
        found.add(name)
    return found


def dashboard_exprs(dashboard: Obj) -> list[str]:
    """Every PromQL expression of a Grafana dashboard (panels, rows' panels, variables)."""
    exprs: list[str] = []

    def walk(panels: list[Obj]) -> None:
        for panel in panels:
            exprs.extend(t["expr"] for t in panel.get("targets", []) if "expr" in t)
            walk(panel.get("panels", []))

    walk(dashboard.get("panels", []))
    for variable in dashboard.get("templating", {}).get("list", []):
        query = variable.get("query")
        text = query.get("query") if isinstance(query, dict) else None
        if variable.get("type") == "query" and isinstance(text, str):
            exprs.append(_label_values_metric(text))
    return exprs


def _label_values_metric(query: str) -> str:
    """`label_values(metric{...}, label)` -> `metric{...}` (Grafana's variable syntax, not PromQL)."""
    match = re.fullmatch(r"\s*label_values\((.*),\s*\w+\s*\)\s*", query)
    return match.group(1) if match else query
