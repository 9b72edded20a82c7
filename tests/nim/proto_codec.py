"""Ним's commands <-> `tablehall.nim.v1.Command` (the only module importing its *_pb2)."""

from nim.game import GAME
from nim.proto import nim_pb2
from tablehall_stream.proto_codec import ProtoCodec

CODEC = ProtoCodec(nim_pb2.Command, GAME.command_types)
COMMAND_MESSAGE = nim_pb2.Command
command_from_proto = CODEC.from_proto
command_to_proto = CODEC.to_proto
