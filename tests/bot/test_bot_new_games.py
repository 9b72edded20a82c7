"""Bots play Драконы and Магнаты to the end through every service (`tablehall up`: lobby,
match, timer, bot, projection, publisher), one strong and the others easy, and the finished
stream verifies (every command re-decided, every draw recomputed). A scripted person plays
Драконы against a bot the same way, building its commands only from ListLegalCommands."""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import pytest
from google.protobuf import json_format
from support.lobbykit import rid
from support.upkit import Up, bots_up

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


@dataclass
class Served:
    channel: grpc.Channel
    host: list[tuple[str, str]]
    operator: list[tuple[str, str]]
    proc: Up


@contextmanager
def served(database: str, nats_url: str, tmp_path: Path) -> Iterator[Served]:
    """`tablehall up` on its own database (bots think 30 ms), with a host's and an operator's tokens."""
    with bots_up(database, nats_url, tmp_path) as up:
        people = DevProvider.from_secrets_dir(Path(os.environ["TABLEHALL_SECRETS_DIR"]))
        host = [("authorization", f"Bearer {people.issue(f'host-{up.port}')}")]
        operator = [("authorization", f"Bearer {people.issue('op', roles=('player', 'operator'))}")]
        with grpc.insecure_channel(f"127.0.0.1:{up.port}") as channel:
            yield Served(channel, host, operator, up)


def finished_and_verified(up: Served, table: str, seats: int) -> match_pb2.TableView:
    """The table's view once it is over (the bound: GAME_BOUND_S); its stream verifies."""
    match = match_pb2_grpc.MatchServiceStub(up.channel)
    deadline = time.monotonic() + GAME_BOUND_S
    while True:
        view = match.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=up.operator).view
        if view.finished:
            break
        assert up.proc.proc.poll() is None, up.proc.err()[-3000:]
        assert time.monotonic() < deadline, f"no end by version {view.version}"
        time.sleep(0.5)
    outcome = json.loads(view.outcome_json)
    assert sorted(s for place in outcome["places"] for s in place) == list(range(seats))
    projection = projection_pb2_grpc.ProjectionServiceStub(up.channel)
    verdict = projection.VerifyTable(projection_pb2.VerifyTableRequest(table=table), metadata=up.operator)
    assert verdict.verified, verdict.message
    assert verdict.version == view.version
    return view


@pytest.mark.parametrize(("game", "options", "seats"), GAMES, ids=[g[0] for g in GAMES])
def test_bots_play_a_new_game_to_the_end_and_it_verifies(
    game: str, options: str, seats: int, database: str, nats_url: str, tmp_path: Path
) -> None:
    with served(database, nats_url, tmp_path) as up:
        lobby = lobby_pb2_grpc.LobbyServiceStub(up.channel)
        made = lobby.CreateTable(
            lobby_pb2.CreateTableRequest(game=game, options_json=options, seat_count=seats, request_id=rid()),
            metadata=up.host,
        )
        table = made.table.name
        lobby.LeaveSeat(lobby_pb2.LeaveSeatRequest(table=table, request_id=rid()), metadata=up.host)
        for i in range(seats):
            level = lobby_pb2.BOT_DIFFICULTY_STRONG if i == 0 else lobby_pb2.BOT_DIFFICULTY_EASY
            lobby.AddBot(lobby_pb2.AddBotRequest(table=table, request_id=rid(), difficulty=level), metadata=up.host)
        lobby.StartTable(lobby_pb2.StartTableRequest(table=table, request_id=rid()), metadata=up.host)
        finished_and_verified(up, table, seats)


def test_a_scripted_person_plays_dragons_against_a_bot_from_the_listed_commands(
    database: str, nats_url: str, tmp_path: Path
) -> None:
    """The person's commands come only from ListLegalCommands (the descriptors spelled out by
    the match service): it closes a contour whenever one is listed, places the black die where
    the list says, and otherwise picks at random; the bot service plays the other seat."""
    rng = random.Random(17)
    with served(database, nats_url, tmp_path) as up:
        lobby = lobby_pb2_grpc.LobbyServiceStub(up.channel)
        match = match_pb2_grpc.MatchServiceStub(up.channel)
        table = lobby.CreateTable(
            lobby_pb2.CreateTableRequest(game="dragons", options_json="{}", seat_count=2, request_id=rid()),
            metadata=up.host,
        ).table.name
        lobby.AddBot(
            lobby_pb2.AddBotRequest(table=table, request_id=rid(), difficulty=lobby_pb2.BOT_DIFFICULTY_EASY),
            metadata=up.host,
        )
        lobby.StartTable(lobby_pb2.StartTableRequest(table=table, request_id=rid()), metadata=up.host)
        played, contours, deadline = 0, 0, time.monotonic() + GAME_BOUND_S
        while True:
            view = match.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=up.host).view
            if view.finished:
                break
            assert time.monotonic() < deadline, f"no end by version {view.version}"
            if not any(d.seat == view.seat for d in view.decisions):
                time.sleep(0.1)
                continue
            listed = match.ListLegalCommands(
                match_pb2.ListLegalCommandsRequest(table=table, seat=view.seat, page_size=1000), metadata=up.host
            )
            if listed.version != view.version or not listed.commands:
                continue  # the table moved on (a clock ran out) between the two reads
            closing = [c for c in listed.commands if _has_contour(json_format.MessageToDict(c))]
            command = rng.choice(closing) if closing else rng.choice(list(listed.commands))
            contours += bool(closing)
            try:
                match.SubmitCommand(
                    match_pb2.SubmitCommandRequest(table=table, seat=view.seat, command=command, request_id=rid()),
                    metadata=up.host,
                )
                played += 1
            except grpc.RpcError as exc:  # only a table that moved on since the listing may refuse
                assert exc.code() == grpc.StatusCode.FAILED_PRECONDITION, exc
        view = finished_and_verified(up, table, 2)
        assert played > 60, played  # the person's share of 22 rounds (plus the start and dominoes)
        assert json.loads(view.outcome_json)["reason"] == "rounds"


def _has_contour(data: Any) -> bool:
    """Whether a listed command (its JSON, as a client reads it) declares a contour."""
    if isinstance(data, dict):
        return bool(data.get("contour")) or any(_has_contour(v) for v in data.values())
    return False
