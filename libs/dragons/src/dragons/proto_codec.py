"""Драконы' commands <-> `tablehall.dragons.v1.Command` (the only module importing its *_pb2)."""

from dragons.commands import COMMAND_TYPES
from tablehall.dragons.v1 import dragons_pb2
from tablehall_stream.proto_codec import EnumField, ProtoCodec

ANSWER = EnumField({True: "DOMINO_ANSWER_TAKE", False: "DOMINO_ANSWER_DECLINE"}, proto_name="answer")
CODEC = ProtoCodec(dragons_pb2.Command, COMMAND_TYPES, fields={"TakeDomino.take": ANSWER})
COMMAND_MESSAGE = dragons_pb2.Command
command_from_proto = CODEC.from_proto
command_to_proto = CODEC.to_proto
