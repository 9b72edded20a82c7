"""The protobuf adapter, the redacting view and the journal."""

from __future__ import annotations

import random

import msgspec
import pytest
from pz_helpers import given, of, owns, started, then, when

from puzzipolia import commands as c
from puzzipolia.events import EVENT_TYPES, CardDrawn, GameStarted
from puzzipolia.game import GAME
from puzzipolia.journal import entry
from puzzipolia.proto_codec import command_from_proto, command_to_proto
from puzzipolia.state import Bundle
from puzzipolia.view import build_squares
from tablehall.puzzipolia.v1 import puzzipolia_pb2 as pb
from tablehall_rules import DecideContext, InvalidCommand, StructCodec, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all

SAMPLES: list[msgspec.Struct] = [
    c.RollForOrder(),
    c.Roll(),
    c.EndTurn(),
    c.PayJailFine(),
    c.UseJailCard(),
    c.Choose67(steps=6),
    c.Choose67(steps=7),
    c.Buy(),
    c.DeclineBuy(),
    c.Bid(amount=120),
    c.PassAuction(),
    c.CloseAuction(),
    c.Build(square=39),
    c.SellBuilding(square=37),
    c.Mortgage(square=5),
    c.Unmortgage(square=12),
    c.PayDebt(),
    c.CollectDebt(),
    c.Surrender(),
    c.Leave(),
    c.ProposeTrade(
        to_seat=3,
        give=Bundle(lots=[1, 3], money=50, cards=["chance.jail_free"]),
        get=Bundle(lots=[39], money=0),
    ),
    c.AcceptTrade(offer_id=4),
    c.DeclineTrade(offer_id=5),
    c.WithdrawTrade(offer_id=6),
    c.ProposeEnd(),
    c.VoteEnd(yes=True),
    c.VoteEnd(yes=False),
    c.CloseVote(),
    c.SetPresence(seat=2, present=False),
    c.SetPresence(seat=2, present=True),
    c.SetController(seat=2, by_bot=True),
    c.SetController(seat=2, by_bot=False),
    c.RemovePlayer(seat=2),
    c.HostProposeEnd(),
    c.HostProposeEnd(host_seat=0),
    c.CloseTable(reason="operator"),
    c.CloseTable(reason="idle"),
    c.OperatorClose(),
    c.IdleClose(),
]


def test_samples_cover_every_command_type() -> None:
    assert {type(s) for s in SAMPLES} == set(GAME.command_types)


@pytest.mark.parametrize("command", SAMPLES, ids=lambda x: type(x).__name__)
def test_proto_round_trip(command: c.Command) -> None:
    message = command_to_proto(command)
    wire = pb.Command.FromString(message.SerializeToString())
    assert command_from_proto(wire) == command


def test_proto_refuses_an_empty_command_and_bad_enums() -> None:
    with pytest.raises(InvalidCommand) as info:
        command_from_proto(pb.Command())
    assert info.value.reason == "EMPTY_COMMAND"
    with pytest.raises(InvalidCommand):
        command_from_proto(pb.Command(choose_67=pb.Choose67()))
    with pytest.raises(InvalidCommand):
        command_from_proto(pb.Command(vote_end=pb.VoteEnd()))
    with pytest.raises(InvalidCommand):
        command_from_proto(pb.Command(set_presence=pb.SetPresence(seat=1)))


def test_json_codec_round_trips_commands_and_events() -> None:
    codec = StructCodec(list(GAME.command_types))
    for command in SAMPLES:
        assert codec.decode(codec.encode(command)) == command
    events = StructCodec(list(GAME.event_types))
    first = started()[0]
    assert events.decode(events.encode(first)) == first
    assert len({t.__name__ for t in EVENT_TYPES}) == len(EVENT_TYPES)


def test_no_view_shows_the_deck_order_but_the_auditor() -> None:
    state = given()
    order = state.decks["chance"]
    for viewer in (Viewer.spectator(), Viewer.of_seat(0), Viewer.of_seat(1)):
        shown = GAME.view(state, viewer)
        assert shown["decks"] == {"chance": {"size": 17}, "chest": {"size": 17}}
        assert "order" not in str(shown["decks"])
    assert GAME.view(state, Viewer.auditor())["decks"]["chance"]["order"] == order


def test_offers_are_seen_by_their_two_parties_only() -> None:
    state = given(*owns(0, 3))
    state = then(state, when(state, c.ProposeTrade(to_seat=1, give=Bundle(lots=[3]), get=Bundle(money=50))))
    assert GAME.view(state, Viewer.of_seat(0))["me"]["offers"][0]["get"]["money"] == 50
    assert GAME.view(state, Viewer.of_seat(1))["me"]["offers"][0]["id"] == 1
    other = GAME.view(state, Viewer.of_seat(2))
    # a third seat learns nothing of the offer, not even that there is one
    assert other["me"]["offers"] == [] and "open_offers" not in other
    assert all(d["kind"] != "offer_answer" for d in other["decisions"])
    assert "offers" not in GAME.view(state, Viewer.spectator())
    made = when(given(*owns(0, 3)), c.ProposeTrade(to_seat=1, give=Bundle(lots=[3]), get=Bundle(money=50)))
    assert entry(made[0], state).audience == [0, 1]


def test_the_view_lists_money_positions_jail_debts_and_open_decisions() -> None:
    state = given()
    shown = GAME.view(state, Viewer.of_seat(0))
    assert [p["money"] for p in shown["players"]] == [1500] * 3
    assert shown["decisions"][0]["kind"] == "roll" and shown["decisions"][0]["clock_ms"] == 30_000
    assert shown["me"]["collect"] is None and shown["phase"] == "roll"


def test_the_journal_hides_the_deck_order_of_the_start() -> None:
    first = started()[0]
    assert isinstance(first, GameStarted)
    line = entry(first, given())
    assert "decks" not in line.params and line.ru and line.en


def test_journal_lines_of_a_turn() -> None:
    state = given()
    events = when(state, c.Roll(), dice=[3, 4])  # Chance
    after = then(state, events)
    lines = [entry(e, after) for e in events]
    assert lines[0].en == "P0 rolls 3+4" and lines[0].ru == "P0 бросает 3+4"
    assert lines[1].en == "P0 moves from GO to Chance."
    drawn = of(events, CardDrawn)[0]
    assert drawn.card in lines[2].params["card"]


@pytest.mark.parametrize("seed", [3, 4])
def test_the_views_squares_shared_between_views_are_those_of_the_board_now(seed: int) -> None:
    """A view's squares are kept by the board's owners, buildings and mortgages and shared by
    every view until those change: along a random game they always equal the squares built anew
    from the state, and a purchase, a house or a mortgage shows at once."""
    game = GAME
    rng = random.Random(seed)
    state, _, source = kit.start(game, {"round_limit": 20}, kit.seats_for(4), rng.randbytes(32))
    now = kit.START_MS
    boards = set()
    for _ in range(1500):
        if game.outcome(state) is not None:
            break
        view = game.view(state, Viewer.of_seat(0))
        assert view["squares"] == build_squares(state)
        assert game.view(state, Viewer.spectator())["squares"] is view["squares"]
        boards.add((tuple(state.owners), tuple(state.houses), tuple(state.mortgaged)))
        decision = rng.choice(game.pending(state))
        now += 250
        legal = [
            x
            for x in expand_all(game.legal(state, decision.seat, now), StructCodec(game.command_types))
            if not isinstance(x, c.Leave)
        ]
        command = rng.choice(legal)
        for event in game.decide(state, command, DecideContext(decision.seat, now, source)):
            state = game.evolve(state, event)
    assert len(boards) > 10  # owners, buildings or mortgages changed along the game
