"""The kustomize base of deploy/k8s, read once for the module's tests."""

from __future__ import annotations

import pytest
from support.deploykit import Base, load_base


@pytest.fixture(scope="module")
def base() -> Base:
    return load_base()
