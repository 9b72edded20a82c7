"""Пузиполия's table rules through the lobby and the match service (gRPC, PostgreSQL):
the host removes a bot from a running game, a spectator takes a bot's seat, and the
host's ■ (end for all) reaches the game whether the host sits at the table or not."""

from __future__ import annotations

import json
import random
from typing import Any

import grpc
from support.lobbykit import Lobby, refused, rid
from support.matchkit import Tokens

from puzzipolia import bot
from puzzipolia import commands as c
from puzzipolia.proto_codec import command_to_proto
from puzzipolia.state import Bundle
from tablehall.lobby.v1 import lobby_pb2
from tablehall.match.v1 import match_pb2
from tablehall_lobby.events import table_stream
from tablehall_stream.proto_games import legal_commands_of


async def _table(lobby: Lobby, tokens: Tokens, people: tuple[str, ...], bots: int, host_seated: bool = True) -> str:
    made = await lobby.stub.CreateTable(
        lobby_pb2.CreateTableRequest(
            game="puzzipolia", options_json='{"round_limit": 3}', seat_count=len(people) + bots + 1, request_id=rid()
        ),
        metadata=tokens("host"),
    )
    name = made.table.name
    if not host_seated:
        await lobby.stub.LeaveSeat(lobby_pb2.LeaveSeatRequest(table=name, request_id=rid()), metadata=tokens("host"))
    for person in people:
        await lobby.stub.JoinTable(lobby_pb2.JoinTableRequest(table=name, request_id=rid()), metadata=tokens(person))
    for _ in range(bots):
        await lobby.stub.AddBot(lobby_pb2.AddBotRequest(table=name, request_id=rid()), metadata=tokens("host"))
    await lobby.stub.StartTable(lobby_pb2.StartTableRequest(table=name, request_id=rid()), metadata=tokens("host"))
    return str(name)


async def _events(lobby: Lobby, name: str, kind: str) -> list[dict[str, Any]]:
    events = await lobby.store.read_stream(table_stream(name[7:]))
    return [json.loads(e.payload) for e in events if e.type == kind]


async def _types(lobby: Lobby, name: str) -> list[str]:
    return [e.type for e in await lobby.store.read_stream(table_stream(name[7:]))]


async def _view(lobby: Lobby, tokens: Tokens, name: str, user: str) -> dict[str, Any]:
    got = await lobby.match_stub.GetTableView(match_pb2.GetTableViewRequest(table=name), metadata=tokens(user))
    view: dict[str, Any] = json.loads(got.view.view_json)
    return view


async def _play(lobby: Lobby, tokens: Tokens, name: str, user: str, command: c.Command) -> None:
    await lobby.stub.SubmitSeatCommand(
        lobby_pb2.SubmitSeatCommandRequest(
            table=name, command=match_pb2.GameCommand(puzzipolia=command_to_proto(command)), request_id=rid()
        ),
        metadata=tokens(user),
    )


async def _host_end(lobby: Lobby, tokens: Tokens, name: str, user: str = "host") -> lobby_pb2.ProposeEndForAllResponse:
    reply: lobby_pb2.ProposeEndForAllResponse = await lobby.stub.ProposeEndForAll(
        lobby_pb2.ProposeEndForAllRequest(table=name, request_id=rid()), metadata=tokens(user)
    )
    return reply


async def test_a_bot_removed_from_a_running_game_leaves_it_as_a_removed_player(lobby: Lobby, tokens: Tokens) -> None:
    name = await _table(lobby, tokens, ("bob",), bots=2)
    await lobby.stub.RemoveSeat(
        lobby_pb2.RemoveSeatRequest(table=name, seat=2, request_id=rid()), metadata=tokens("host")
    )
    eliminated = await _events(lobby, name, "puzzipolia.PlayerEliminated")
    assert [(x["seat"], x["reason"]) for x in eliminated] == [(2, "removed")]
    types = await _types(lobby, name)
    assert types.index("puzzipolia.PlayerEliminated") < types.index("lobby.BotRemoved")
    view = await _view(lobby, tokens, name, "bob")
    assert [p["status"] for p in view["players"]] == ["playing", "playing", "left", "playing"]
    assert all(d["seat"] != 2 for d in view["decisions"])  # nothing left for the bot to play


async def test_a_spectator_who_takes_a_bots_seat_plays_it_as_a_person(lobby: Lobby, tokens: Tokens) -> None:
    """«Места ботов — зрителям»: the seat is a person's from then on: it votes, and the host's
    ■ is a vote (not the end at once, as with only bots besides the host)."""
    name = await _table(lobby, tokens, (), bots=2)
    await lobby.stub.SetSpectatorPolicy(
        lobby_pb2.SetSpectatorPolicyRequest(table=name, bot_seats_to_spectators=True, request_id=rid()),
        metadata=tokens("host"),
    )
    await lobby.stub.EnterTable(lobby_pb2.EnterTableRequest(table=name, request_id=rid()), metadata=tokens("sam"))
    taken = await lobby.stub.TakeBotSeat(
        lobby_pb2.TakeBotSeatRequest(table=name, seat=1, request_id=rid()), metadata=tokens("sam")
    )
    assert taken.table.seats[1].user_id == "sam"
    mine = await lobby.stub.GetSeatView(lobby_pb2.GetSeatViewRequest(table=name), metadata=tokens("sam"))
    view = json.loads(mine.view.view_json)
    assert mine.view.seat == 1 and view["me"]["seat"] == 1
    assert [p["is_bot"] for p in view["players"]] == [False, False, True]
    await _play(lobby, tokens, name, "host", c.ProposeEnd())
    (opened,) = await _events(lobby, name, "puzzipolia.VoteOpened")
    assert (opened["proposer"], opened["voters"]) == (0, [1])
    await _play(lobby, tokens, name, "sam", c.VoteEnd(yes=True))
    assert (await _events(lobby, name, "puzzipolia.GameEnded"))[0]["reason"] == "vote"


async def test_the_host_ends_for_all_unseated_or_out_of_the_game(lobby: Lobby, tokens: Tokens) -> None:
    name = await _table(lobby, tokens, ("bob", "carl"), bots=0, host_seated=False)
    await refused(_host_end(lobby, tokens, name, "bob"), grpc.StatusCode.PERMISSION_DENIED, "NOT_THE_HOST")
    reply = await _host_end(lobby, tokens, name)
    (opened,) = await _events(lobby, name, "puzzipolia.VoteOpened")
    assert (opened["proposer"], opened["voters"]) == (None, [0, 1]) and reply.version > 0
    await _play(lobby, tokens, name, "bob", c.VoteEnd(yes=True))
    await _play(lobby, tokens, name, "carl", c.VoteEnd(yes=True))
    assert (await _events(lobby, name, "puzzipolia.GameEnded"))[0]["reason"] == "vote"
    await refused(_host_end(lobby, tokens, name), grpc.StatusCode.FAILED_PRECONDITION, "MATCH_FINISHED")

    # a seated host who left the game (⚑) still may; with only bots playing on, the game ends at once
    name = await _table(lobby, tokens, (), bots=2)
    await _play(lobby, tokens, name, "host", c.Leave())
    await _host_end(lobby, tokens, name)
    (opened,) = await _events(lobby, name, "puzzipolia.VoteOpened")
    assert (opened["proposer"], opened["voters"]) == (None, [])
    assert (await _events(lobby, name, "puzzipolia.GameEnded"))[0]["reason"] == "vote"


async def test_a_host_still_playing_proposes_as_a_player(lobby: Lobby, tokens: Tokens) -> None:
    name = await _table(lobby, tokens, ("bob",), bots=1)
    await _host_end(lobby, tokens, name)
    (opened,) = await _events(lobby, name, "puzzipolia.VoteOpened")
    assert (opened["proposer"], opened["voters"]) == (0, [1])


async def test_an_offer_can_be_declined_or_withdrawn_during_an_auction(lobby: Lobby, tokens: Tokens) -> None:
    """The seat that answers an offer while it is the auction's high bidder has DeclineTrade among
    its legal moves (not only ⚑), and the proposer WithdrawTrade: the engine accepts both then."""
    name = await _table(lobby, tokens, ("bob",), bots=0)
    users = {0: "host", 1: "bob"}
    rng = random.Random(2)

    async def seat_view(seat: int) -> tuple[dict[str, Any], list[c.Command]]:
        got = await lobby.match_stub.GetTableView(
            match_pb2.GetTableViewRequest(table=name), metadata=tokens(users[seat])
        )
        legal = legal_commands_of(got.view)
        return json.loads(got.view.view_json), legal  # type: ignore[return-value]

    async def submit(seat: int, command: c.Command) -> None:
        await lobby.match_stub.SubmitCommand(
            match_pb2.SubmitCommandRequest(
                table=name,
                seat=seat,
                command=match_pb2.GameCommand(puzzipolia=command_to_proto(command)),
                request_id=rid(),
            ),
            metadata=tokens(users[seat]),
        )

    for _ in range(400):
        view, _ = await seat_view(0)
        assert view["result"] is None, "the game ended before an auction with an offer open"
        active = view["active_seat"]
        if view["phase"] == "roll" and not view["me"]["offers"] and not view["debts"]:
            other = 1 - active
            await submit(other, c.ProposeTrade(to_seat=active, give=Bundle(money=10), get=Bundle(money=20)))
            await submit(active, c.Roll())
            view, _ = await seat_view(active)
            if view["phase"] == "buy":
                await submit(active, c.DeclineBuy())
                view, _ = await seat_view(active)
                await submit(active, c.Bid(amount=10))
                view, legal = await seat_view(active)
                assert view["auction"]["high_bidder"] == active
                offer_id = view["me"]["offers"][0]["id"]
                assert c.DeclineTrade(offer_id=offer_id) in legal
                assert c.AcceptTrade(offer_id=offer_id) not in legal
                _, theirs = await seat_view(other)
                assert c.WithdrawTrade(offer_id=offer_id) in theirs
                await submit(active, c.DeclineTrade(offer_id=offer_id))
                assert (await _events(lobby, name, "puzzipolia.OfferDeclined"))[-1]["offer_id"] == offer_id
                return
            mine = [o for o in (await seat_view(other))[0]["me"]["offers"] if o["proposer"] == other]
            for offer in mine:
                await submit(other, c.WithdrawTrade(offer_id=offer["id"]))
            continue
        # anything else: whoever has a decision plays it as the bot would
        seat = next(d["seat"] for d in view["decisions"])
        seen, legal = await seat_view(seat)
        await submit(seat, bot.choose(seen, legal, rng))
    raise AssertionError("no auction came up")
