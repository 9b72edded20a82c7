"""Гомункул's commands <-> `tablehall.homunculus.v1.Command` (the only module importing its *_pb2)."""

from typing import Any

from homunculus.commands import COMMAND_TYPES
from tablehall.homunculus.v1 import homunculus_pb2 as pb
from tablehall_stream.proto_codec import ProtoCodec


class Unset:
    """An `optional` proto field left unset is the struct's -1 ("none")."""

    def read(self, inner: Any, name: str, path: str) -> Any:
        return getattr(inner, name) if inner.HasField(name) else -1

    def write(self, inner: Any, name: str, value: Any) -> None:
        if value != -1:
            setattr(inner, name, value)


UNSET = Unset()
FIELDS = {f"PlayCard.{name}": UNSET for name in ("origin", "target", "choose_colour")}
CODEC = ProtoCodec(pb.Command, COMMAND_TYPES, fields=FIELDS)
COMMAND_MESSAGE = pb.Command
command_from_proto = CODEC.from_proto
command_to_proto = CODEC.to_proto
