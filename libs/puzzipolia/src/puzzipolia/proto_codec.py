"""Пузиполия's commands <-> `tablehall.puzzipolia.v1.Command` (the only module importing its *_pb2)."""

from puzzipolia.commands import COMMAND_TYPES
from tablehall.puzzipolia.v1 import puzzipolia_pb2 as pb
from tablehall_stream.proto_codec import EnumField, ProtoCodec, Unset

STEPS = EnumField({6: "STEPS67_SIX", 7: "STEPS67_SEVEN"})
ANSWER = EnumField({True: "ANSWER_YES", False: "ANSWER_NO"}, proto_name="answer")
# a host without a seat (-1) leaves `host_seat` unset
CODEC = ProtoCodec(pb.Command, COMMAND_TYPES, fields={"steps": STEPS, "yes": ANSWER, "host_seat": Unset(-1)})
COMMAND_MESSAGE = pb.Command
command_from_proto = CODEC.from_proto
command_to_proto = CODEC.to_proto
