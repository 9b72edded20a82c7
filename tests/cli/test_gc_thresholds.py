"""A server's collector thresholds: GC_THRESHOLDS unless TABLEHALL_GC_THRESHOLDS names others,
and a malformed value stops the server with a message instead of being half-read."""

from __future__ import annotations

import pytest

from tablehall_cli.runtime import GC_THRESHOLDS, gc_thresholds


def test_the_default_unless_the_environment_names_three(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TABLEHALL_GC_THRESHOLDS", raising=False)
    assert gc_thresholds() == GC_THRESHOLDS
    monkeypatch.setenv("TABLEHALL_GC_THRESHOLDS", "40000, 5,30")
    assert gc_thresholds() == (40_000, 5, 30)


@pytest.mark.parametrize("text", ["50000,20", "50000,20,20,1", "50000,0,20", "50000,-5,20", "a,b,c", "1e5,2,2"])
def test_a_malformed_value_is_refused(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setenv("TABLEHALL_GC_THRESHOLDS", text)
    with pytest.raises(ValueError, match="TABLEHALL_GC_THRESHOLDS"):
        gc_thresholds()
