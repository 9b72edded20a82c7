"""Гомункул through every service (`tablehall up`: lobby, match, timer, bot, projection,
publisher): a four-player table of one scripted client and three bots (one strong, two easy),
and a 2-on-2 table of four bots, play to the end, and the finished streams verify (every
command re-decided, every draw recomputed).

The scripted client plays its seat as a person's client would: it lists its legal commands
(`ListLegalCommands`, spelled out from the descriptors) and submits one of them, «Уно!» and
«Поймать» first, never surrendering."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import grpc
import pytest
from support.lobbykit import rid
from support.upkit import bots_up

from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall.projection.v1 import projection_pb2, projection_pb2_grpc
from tablehall_platform.auth import DevProvider

# a bound, not a speed claim: how long a table may take on a busy machine before giving up
GAME_BOUND_S = 1200
RACES = ("say_uno", "catch_uno")

pytestmark = pytest.mark.slow


@pytest.fixture
async def database(fresh_database_url) -> str:  # type: ignore[no-untyped-def]
    return str(await fresh_database_url())


def _pick(commands: list[match_pb2.GameCommand], rng: random.Random) -> match_pb2.GameCommand | None:
    kinds = [(c, c.homunculus.WhichOneof("kind")) for c in commands]
    for command, kind in kinds:
        if kind in RACES:
            return command
    staying = [command for command, kind in kinds if kind != "surrender"]
    return rng.choice(staying) if staying else None


@pytest.mark.parametrize(
    ("options", "person"), [("{}", True), ('{"teams": true}', False)], ids=["one-client-three-bots", "two-on-two"]
)
def test_homunculus_table_plays_to_the_end_through_every_service_and_verifies(
    options: str, person: bool, database: str, nats_url: str, tmp_path: Path
) -> None:
    rng = random.Random(16)
    with bots_up(database, nats_url, tmp_path) as up:
        port = up.port
        people = DevProvider.from_secrets_dir(Path(os.environ["TABLEHALL_SECRETS_DIR"]))
        host = [("authorization", f"Bearer {people.issue(f'host-{port}')}")]
        operator = [("authorization", f"Bearer {people.issue('op', roles=('player', 'operator'))}")]
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        match = match_pb2_grpc.MatchServiceStub(channel)
        made = lobby.CreateTable(
            lobby_pb2.CreateTableRequest(game="homunculus", options_json=options, seat_count=4, request_id=rid()),
            metadata=host,
        )
        table = made.table.name
        if not person:
            lobby.LeaveSeat(lobby_pb2.LeaveSeatRequest(table=table, request_id=rid()), metadata=host)
        for i in range(3 if person else 4):
            level = lobby_pb2.BOT_DIFFICULTY_STRONG if i == 0 else lobby_pb2.BOT_DIFFICULTY_EASY
            lobby.AddBot(lobby_pb2.AddBotRequest(table=table, request_id=rid(), difficulty=level), metadata=host)
        lobby.StartTable(lobby_pb2.StartTableRequest(table=table, request_id=rid()), metadata=host)
        deadline = time.monotonic() + GAME_BOUND_S
        moves = 0
        while True:
            assert up.proc.poll() is None, up.err()[-3000:]
            assert time.monotonic() < deadline, f"no end by {moves} moves of the client"
            view = match.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=operator).view
            if view.finished:
                break
            if not person:
                time.sleep(0.5)
                continue
            listed = match.ListLegalCommands(
                match_pb2.ListLegalCommandsRequest(table=table, page_size=500), metadata=host
            )
            command = _pick(list(listed.commands), rng)
            if command is None:
                time.sleep(0.1)
                continue
            try:
                match.SubmitCommand(
                    match_pb2.SubmitCommandRequest(table=table, seat=0, command=command, request_id=rid()),
                    metadata=host,
                )
                moves += 1
            except grpc.RpcError as exc:  # the table moved on between the list and the command
                assert exc.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED), exc
        outcome = json.loads(view.outcome_json)
        assert sorted(s for place in outcome["places"] for s in place) == [0, 1, 2, 3]
        if person:
            assert moves > 0
        else:
            assert sorted(outcome["places"][0]) in ([0, 2], [1, 3], [0, 1, 2, 3]), outcome  # a team shares its place
        projection = projection_pb2_grpc.ProjectionServiceStub(channel)
        verdict = projection.VerifyTable(projection_pb2.VerifyTableRequest(table=table), metadata=operator)
        assert verdict.verified, verdict.message
        assert verdict.version == view.version
        channel.close()
