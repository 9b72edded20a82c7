"""`tablehall protos --out DIR` (and `make protos`, into build/proto) gives a client in another
language every .proto it needs: ours and the google/rpc ones the refusals' details use, so
`protoc -I DIR` compiles them all with nothing else at hand."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tablehall_cli.main import main


def test_the_protos_folder_compiles_on_its_own(tmp_path: Path) -> None:
    out = tmp_path / "proto"
    assert main(["protos", "--out", str(out)]) == 0
    files = sorted(str(p.relative_to(out)) for p in out.rglob("*.proto"))
    assert {"google/rpc/status.proto", "google/rpc/error_details.proto", "tablehall/match/v1/match.proto"} <= set(files)
    generated = tmp_path / "gen"
    generated.mkdir()
    compiled = subprocess.run(
        [sys.executable, "-m", "grpc_tools.protoc", "-I", str(out), f"--python_out={generated}", *files],
        capture_output=True,
        text=True,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stderr
    assert (generated / "google/rpc/error_details_pb2.py").exists()
