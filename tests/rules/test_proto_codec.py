"""`tablehall_stream.proto_codec.ProtoCodec`: a game's Command message <-> its structs, by name."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

from tablehall_rules import InvalidCommand
from tablehall_rules.table import CloseTable, SetPresence
from tablehall_stream.proto_codec import EnumField, ProtoCodec, snake

F = descriptor_pb2.FieldDescriptorProto


def _build() -> Any:
    """A small game proto made here: a bid, a trade with a nested bundle, a piece enum, presence, close."""
    fp = descriptor_pb2.FileDescriptorProto(name="kit_codec_test.proto", package="kit.test.v1", syntax="proto3")
    for name, values in (
        ("Piece", ["PIECE_UNSPECIFIED", "PIECE_ROOK", "PIECE_QUEEN"]),
        ("Presence", ["PRESENCE_UNSPECIFIED", "PRESENCE_PRESENT", "PRESENCE_ABSENT"]),
        ("CloseReason", ["CLOSE_REASON_UNSPECIFIED", "CLOSE_REASON_OPERATOR", "CLOSE_REASON_IDLE"]),
    ):
        enum = fp.enum_type.add(name=name)
        for number, value in enumerate(values):
            enum.value.add(name=value, number=number)

    def message(name: str, *fields: tuple[str, int, str | None, bool]) -> None:
        msg = fp.message_type.add(name=name)
        for number, (fname, ftype, type_name, repeated) in enumerate(fields, start=1):
            field = msg.field.add(
                name=fname, number=number, type=ftype, label=F.LABEL_REPEATED if repeated else F.LABEL_OPTIONAL
            )
            if type_name is not None:
                field.type_name = type_name

    message("Bid", ("amount", F.TYPE_INT32, None, False))
    message("Bundle", ("lots", F.TYPE_INT32, None, True), ("money", F.TYPE_INT32, None, False))
    message(
        "ProposeTrade", ("to_seat", F.TYPE_INT32, None, False), ("give", F.TYPE_MESSAGE, ".kit.test.v1.Bundle", False)
    )
    message("BuyPiece", ("piece", F.TYPE_ENUM, ".kit.test.v1.Piece", False))
    message(
        "SetPresence", ("seat", F.TYPE_INT32, None, False), ("presence", F.TYPE_ENUM, ".kit.test.v1.Presence", False)
    )
    message("CloseTable", ("reason", F.TYPE_ENUM, ".kit.test.v1.CloseReason", False))
    command = fp.message_type.add(name="Command")
    command.oneof_decl.add(name="kind")
    for number, (fname, tname) in enumerate(
        [
            ("bid", "Bid"),
            ("propose_trade", "ProposeTrade"),
            ("buy_piece", "BuyPiece"),
            ("set_presence", "SetPresence"),
            ("close_table", "CloseTable"),
        ],
        start=1,
    ):
        command.field.add(
            name=fname,
            number=number,
            type=F.TYPE_MESSAGE,
            type_name=f".kit.test.v1.{tname}",
            label=F.LABEL_OPTIONAL,
            oneof_index=0,
        )
    pool = descriptor_pool.DescriptorPool()
    pool.Add(fp)
    cls: Any = message_factory.GetMessageClass(pool.FindMessageTypeByName("kit.test.v1.Command"))
    return cls


Command = _build()


class Bid(msgspec.Struct, frozen=True, tag="Bid"):
    amount: int


class Bundle(msgspec.Struct, frozen=True):
    lots: list[int]
    money: int


class ProposeTrade(msgspec.Struct, frozen=True, tag="ProposeTrade"):
    to_seat: int
    give: Bundle


class BuyPiece(msgspec.Struct, frozen=True, tag="BuyPiece"):
    piece: str


TYPES = (Bid, ProposeTrade, BuyPiece, SetPresence, CloseTable)
CODEC = ProtoCodec(Command, TYPES, fields={"BuyPiece.piece": EnumField({"rook": "PIECE_ROOK", "queen": "PIECE_QUEEN"})})


def test_snake_names() -> None:
    assert [snake(n) for n in ("BuyCompany", "Choose67", "Roll", "SetPresence")] == [
        "buy_company",
        "choose_67",
        "roll",
        "set_presence",
    ]


@pytest.mark.parametrize(
    "command",
    [
        Bid(amount=40),
        ProposeTrade(to_seat=2, give=Bundle(lots=[1, 3], money=50)),
        BuyPiece(piece="queen"),
        SetPresence(seat=1, present=False),
        SetPresence(seat=0, present=True),
        CloseTable(reason="idle"),
    ],
)
def test_round_trip(command: msgspec.Struct) -> None:
    msg = CODEC.to_proto(command)
    assert CODEC.from_proto(Command.FromString(msg.SerializeToString())) == command


def test_enums_travel_as_their_names() -> None:
    msg: Any = CODEC.to_proto(SetPresence(seat=1, present=False))
    assert msg.set_presence.presence == 2  # PRESENCE_ABSENT
    bought: Any = CODEC.to_proto(BuyPiece(piece="rook"))
    assert bought.buy_piece.piece == 1


@pytest.mark.parametrize(
    ("msg", "reason"),
    [
        (Command(), "EMPTY_COMMAND"),
        (Command(buy_piece={}), "BAD_FIELD"),
        (Command(set_presence={"seat": 1}), "BAD_FIELD"),
        (Command(close_table={}), "BAD_FIELD"),
    ],
)
def test_bad_messages_are_refused(msg: object, reason: str) -> None:
    with pytest.raises(InvalidCommand) as refused:
        CODEC.from_proto(msg)  # type: ignore[arg-type]
    assert refused.value.reason == reason


def test_a_command_the_proto_lacks_is_refused() -> None:
    class Other(msgspec.Struct, frozen=True, tag="Other"):
        pass

    with pytest.raises(InvalidCommand) as refused:
        CODEC.to_proto(Other())
    assert refused.value.reason == "UNKNOWN_COMMAND"
    with pytest.raises(InvalidCommand):
        CODEC.to_proto(BuyPiece(piece="king"))


def test_a_proto_field_with_no_struct_is_caught_when_the_codec_is_made() -> None:
    with pytest.raises(TypeError, match="names no command struct"):
        ProtoCodec(Command, (Bid,))
    with pytest.raises(TypeError, match="give it an EnumField"):
        ProtoCodec(Command, TYPES)
