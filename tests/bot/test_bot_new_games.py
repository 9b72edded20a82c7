"""Bots play Драконы and Магнаты to the end through every service (`tablehall up`: lobby,
match, timer, bot, projection, publisher), one strong and the others easy, and the finished
stream verifies (every command re-decided, every draw recomputed)."""

from __future__ import annotations

import json
import os
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

GAMES = [("dragons", "{}", 2), ("magnates", '{"round_limit": 4}', 3)]
# a bound, not a speed claim: how long a bots' game may take on a busy machine before giving up
GAME_BOUND_S = 600


@pytest.fixture
async def database(fresh_database_url) -> str:  # type: ignore[no-untyped-def]
    return str(await fresh_database_url())


@pytest.mark.parametrize(("game", "options", "seats"), GAMES, ids=[g[0] for g in GAMES])
def test_bots_play_a_new_game_to_the_end_and_it_verifies(
    game: str, options: str, seats: int, database: str, nats_url: str, tmp_path: Path
) -> None:
    with bots_up(database, nats_url, tmp_path) as up:
        port = up.port
        people = DevProvider.from_secrets_dir(Path(os.environ["TABLEHALL_SECRETS_DIR"]))
        host = [("authorization", f"Bearer {people.issue(f'host-{port}')}")]
        operator = [("authorization", f"Bearer {people.issue('op', roles=('player', 'operator'))}")]
        channel = grpc.insecure_channel(f"127.0.0.1:{port}")
        lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        match = match_pb2_grpc.MatchServiceStub(channel)
        made = lobby.CreateTable(
            lobby_pb2.CreateTableRequest(game=game, options_json=options, seat_count=seats, request_id=rid()),
            metadata=host,
        )
        table = made.table.name
        lobby.LeaveSeat(lobby_pb2.LeaveSeatRequest(table=table, request_id=rid()), metadata=host)
        for i in range(seats):
            level = lobby_pb2.BOT_DIFFICULTY_STRONG if i == 0 else lobby_pb2.BOT_DIFFICULTY_EASY
            lobby.AddBot(lobby_pb2.AddBotRequest(table=table, request_id=rid(), difficulty=level), metadata=host)
        lobby.StartTable(lobby_pb2.StartTableRequest(table=table, request_id=rid()), metadata=host)
        deadline = time.monotonic() + GAME_BOUND_S
        while True:
            view = match.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=operator).view
            if view.finished:
                break
            assert up.proc.poll() is None, up.err()[-3000:]
            assert time.monotonic() < deadline, f"{game}: no end by version {view.version}"
            time.sleep(0.5)
        outcome = json.loads(view.outcome_json)
        assert sorted(s for place in outcome["places"] for s in place) == list(range(seats))
        projection = projection_pb2_grpc.ProjectionServiceStub(channel)
        verdict = projection.VerifyTable(projection_pb2.VerifyTableRequest(table=table), metadata=operator)
        assert verdict.verified, verdict.message
        assert verdict.version == view.version
        channel.close()
