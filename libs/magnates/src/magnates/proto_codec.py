"""Магнаты' commands <-> `tablehall.magnates.v1.Command` (the only module importing its *_pb2)."""

from magnates.commands import COMMAND_TYPES
from magnates.tables import PIECES
from tablehall.magnates.v1 import magnates_pb2 as pb
from tablehall_stream.proto_codec import EnumField, ProtoCodec

PIECE = EnumField({kind: f"PIECE_{kind.upper()}" for kind in PIECES})
CODEC = ProtoCodec(pb.Command, COMMAND_TYPES, fields={"piece": PIECE})
COMMAND_MESSAGE = pb.Command
command_from_proto = CODEC.from_proto
command_to_proto = CODEC.to_proto
