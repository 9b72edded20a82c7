"""Гомункул's commands <-> `tablehall.homunculus.v1.Command` (the only module importing its *_pb2)."""

from homunculus.commands import COMMAND_TYPES
from tablehall.homunculus.v1 import homunculus_pb2 as pb
from tablehall_stream.proto_codec import ProtoCodec, Unset

# PlayCard's optional cells and colour: unset is the struct's -1
FIELDS = {f"PlayCard.{name}": Unset(-1) for name in ("origin", "target", "choose_colour")}
CODEC = ProtoCodec(pb.Command, COMMAND_TYPES, fields=FIELDS)
COMMAND_MESSAGE = pb.Command
command_from_proto = CODEC.from_proto
command_to_proto = CODEC.to_proto
