"""Пузиполия's commands <-> `tablehall.puzzipolia.v1.Command` (the only module importing its *_pb2)."""

from typing import Any

from puzzipolia.commands import COMMAND_TYPES
from tablehall.puzzipolia.v1 import puzzipolia_pb2 as pb
from tablehall_stream.proto_codec import EnumField, FieldCodec, ProtoCodec


class HostSeat:
    """`HostProposeEnd.host_seat`: unset in the message for a host without a seat (-1)."""

    def read(self, inner: Any, name: str, path: str) -> Any:
        return inner.host_seat if inner.HasField("host_seat") else -1

    def write(self, inner: Any, name: str, value: Any) -> None:
        if value >= 0:
            inner.host_seat = value


FIELDS: dict[str, FieldCodec] = {
    "steps": EnumField({6: "STEPS67_SIX", 7: "STEPS67_SEVEN"}),
    "yes": EnumField({True: "ANSWER_YES", False: "ANSWER_NO"}, proto_name="answer"),
    "host_seat": HostSeat(),
}
CODEC = ProtoCodec(pb.Command, COMMAND_TYPES, fields=FIELDS)
COMMAND_MESSAGE = pb.Command
command_from_proto = CODEC.from_proto
command_to_proto = CODEC.to_proto
