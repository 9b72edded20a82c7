"""Test game commands <-> protobuf (the only module importing its *_pb2)."""

from __future__ import annotations

import msgspec

from tablehall_rules import InvalidCommand
from testgame.game import Call, Close, Concede, Pass, Roll
from testgame.proto import testgame_pb2

# the message GameCommand.other carries for this game
COMMAND_MESSAGE = testgame_pb2.Command


def command_from_proto(msg: testgame_pb2.Command) -> msgspec.Struct:
    kind = msg.WhichOneof("kind")
    if kind == "roll":
        return Roll()
    if kind == "pass":
        return Pass()
    if kind == "call":
        return Call()
    if kind == "concede":
        return Concede(msg.concede.seat)
    if kind == "close":
        return Close(msg.close.reason)
    raise InvalidCommand("EMPTY_COMMAND", "The command names no action.", "В команде нет действия.")


def command_to_proto(command: msgspec.Struct) -> testgame_pb2.Command:
    if isinstance(command, Roll):
        return testgame_pb2.Command(roll=testgame_pb2.Roll())
    if isinstance(command, Pass):
        message = testgame_pb2.Command()
        getattr(message, "pass").SetInParent()  # `pass` is a Python keyword: no keyword argument
        return message
    if isinstance(command, Call):
        return testgame_pb2.Command(call=testgame_pb2.Call())
    if isinstance(command, Concede):
        return testgame_pb2.Command(concede=testgame_pb2.Concede(seat=command.seat))
    if isinstance(command, Close):
        return testgame_pb2.Command(close=testgame_pb2.Close(reason=command.reason))
    raise TypeError(f"not a test game command: {command!r}")
