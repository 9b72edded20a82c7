"""`tablehall protos --out DIR`: every .proto file a client in another language needs, in one
folder: this checkout's `proto/tablehall/**` and Google's `google/rpc/{status,error_details,code}.proto`
(the refusals' details; taken from googleapis-common-protos, which the server depends on).
`make protos` writes them to `build/proto`."""

from __future__ import annotations

import shutil
from pathlib import Path

import google.rpc

ROOT = Path(__file__).resolve().parents[4]
GOOGLE_RPC = ("status.proto", "error_details.proto", "code.proto")


def proto_sources() -> list[tuple[Path, Path]]:
    """(source file, path under the output folder) of every proto a client needs."""
    ours = ROOT / "proto"
    files = [(p, p.relative_to(ours)) for p in sorted(ours.rglob("*.proto"))]
    google_rpc = Path(next(iter(google.rpc.__path__)))
    files += [(google_rpc / name, Path("google/rpc") / name) for name in GOOGLE_RPC]
    return files


def write_protos(out: Path) -> list[Path]:
    written = []
    for source, relative in proto_sources():
        target = out / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        written.append(target)
    return written


def main(out: str) -> int:
    written = write_protos(Path(out))
    print(f"{len(written)} proto files in {out} (protoc -I {out} …; google/protobuf/* come with protoc)")
    return 0
