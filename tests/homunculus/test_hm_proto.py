"""The proto adapter round-trips every command, unset optional fields meaning -1."""

from __future__ import annotations

import msgspec
import pytest

from homunculus import commands as c
from homunculus.proto_codec import COMMAND_MESSAGE, command_from_proto, command_to_proto
from tablehall.homunculus.v1 import homunculus_pb2 as pb
from tablehall_rules import InvalidCommand
from tablehall_rules.table import CloseTable, RemovePlayer, SetController, SetPresence

COMMANDS: list[msgspec.Struct] = [
    c.PlayCard(0, "pawn", origin=0, target=12),
    c.PlayCard(-1, "wild", origin=40, target=55, choose_colour=0),
    c.PlayCard(-1, "wild4", choose_colour=3),
    c.PlayCard(2, "skip"),
    c.PlaceDomino(0, 6, [70, 71]),
    c.DrawCard(),
    c.ExchangeCard(1, "rook"),
    c.KeepCard(),
    c.FreeMove(0, 159),
    c.EndTurn(),
    c.SayUno(),
    c.CatchUno(),
    c.Surrender(),
    c.BuyItem("boots"),
    c.UseItem("teleport", origin=5, target=80),
    c.UseItem("chameleon", colour=2),
    RemovePlayer(seat=3),
    SetPresence(seat=1, present=False),
    SetController(seat=2, by_bot=True),
    CloseTable(reason="operator"),
    c.RollDice(),
    c.PayFine(),
    c.UsePass(),
    c.BuyLot(),
    c.DeclineLot(),
    c.Bid(17),
    c.PassBid(),
    c.Build(39),
    c.Mortgage(1),
    c.Redeem(5),
    c.OfferTrade(2, [1, 3], [39], give_gold=4, get_gold=0),
    c.AnswerTrade(True),
    c.AnswerTrade(False),
]


def test_every_command_type_has_a_wire_form() -> None:
    # RemoveSeat is the old name of RemovePlayer, read from stored streams only
    assert {type(x) for x in COMMANDS} == set(c.COMMAND_TYPES) - {c.RemoveSeat}


def test_an_old_remove_seat_message_reads_as_remove_player() -> None:
    """RemovePlayer took RemoveSeat's field number and shape: an old client's bytes still read."""
    old = pb.Command(remove_player=pb.RemovePlayer(seat=2)).SerializeToString()
    assert old == b"Z\x02\x08\x02"  # field 11, a message of field 1 = 2: RemoveSeat's bytes
    assert command_from_proto(COMMAND_MESSAGE.FromString(old)) == RemovePlayer(seat=2)


@pytest.mark.parametrize("command", COMMANDS, ids=lambda x: type(x).__name__)
def test_round_trip(command: msgspec.Struct) -> None:
    wire = command_to_proto(command).SerializeToString()
    assert command_from_proto(COMMAND_MESSAGE.FromString(wire)) == command


def test_empty_command_is_invalid() -> None:
    with pytest.raises(InvalidCommand):
        command_from_proto(COMMAND_MESSAGE())
