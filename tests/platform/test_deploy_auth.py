"""Deployments sign users in with OIDC only; the development provider warns."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from tablehall_lobby import service as lobby_service
from tablehall_platform.config import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_the_kubernetes_manifests_run_with_the_oidc_provider_only() -> None:
    text = "\n".join(p.read_text() for p in sorted((ROOT / "deploy" / "k8s").glob("*.yaml")))
    text = re.sub(r"(?m)^\s*#.*$", "", text)  # comments may name the variable
    values = re.findall(r"TABLEHALL_AUTH_PROVIDERS\W+(?:value:\s*)?\"?([A-Za-z, ]*)", text)
    assert values and all(v.strip() == "oidc" for v in values), values
    assert "DevSignIn" not in text and "TABLEHALL_TOKEN_SECRET" not in text


def test_the_development_provider_prints_a_warning(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = replace(Settings(), auth_providers=("dev",), data_dir=tmp_path)
    assert lobby_service.dev_provider(settings) is not None
    assert "WARNING: development sign-in is ON" in capsys.readouterr().err
    assert lobby_service.dev_provider(replace(settings, auth_providers=("oidc",))) is None
    assert "WARNING" not in capsys.readouterr().err
