"""`tablehall play` checks the options against the game's schema (ListGames carries it) before it
makes a table: an unknown or bad option is one message that lists what the game takes, the exit
is non-zero, and no table is made (no empty game frame); `--clock` works for every game."""

from __future__ import annotations

import asyncio
import json

import pytest
from support.clientkit import Server, tokens

from tablehall.lobby.v1 import lobby_pb2, lobby_pb2_grpc
from tablehall_cli.main import build_parser
from tablehall_sdk import Client
from tablehall_terminal.cli import options_for, play_main


async def _tables(server: Server) -> int:
    import grpc

    async with grpc.aio.insecure_channel(server.address) as channel:
        reply = await lobby_pb2_grpc.LobbyServiceStub(channel).ListTables(
            lobby_pb2.ListTablesRequest(include_started=True, page_size=100), metadata=tokens("op", ("operator",))
        )
    return len(reply.tables)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--option", "round_limt=2"], "Unknown option 'round_limt'."),
        (["--option", "start_money=7"], "Option start_money: 7 is not allowed; it takes 1000, 1500, 2000, 3000."),
        (["--clock", "7"], "Option decision_clock_s: 7 is not allowed; it takes 20, 30, 45, 60, 90."),
    ],
)
async def test_a_bad_option_lists_the_games_options_and_makes_no_table(
    server: Server, args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["play", "puzzipolia", "--server", server.address, "--lang", "en", "--name", "optcheck", *args]
    parsed = build_parser().parse_args(argv)
    with pytest.raises(SystemExit) as exited:
        await asyncio.to_thread(play_main, parsed)
    message = str(exited.value.code)
    assert exited.value.code not in (0, None)
    assert said in message
    assert "The options of puzzipolia:" in message and "--option round_limit=…  0–1000 (default 0)" in message
    assert await _tables(server) == 0


async def test_clock_is_each_games_own_clock_option(server: Server) -> None:
    async with Client(server.address) as client:
        await client.sign_in_dev("clocks")
        games = {g.id: g for g in await client.list_games()}
    parser = build_parser()
    chosen = {}
    for game_id, game in sorted(games.items()):
        if game_id == "testgame":
            continue
        args = parser.parse_args(["play", game_id, "--clock", "60"])
        chosen[game_id] = options_for(game, args)
    assert chosen == {
        "dragons": {"decision_clock_s": 60},
        "homunculus": {"clock_ms": 60_000},
        "magnates": {"clock_ms": 60_000},
        "nim": {"clock_ms": 60_000},
        "puzzipolia": {"decision_clock_s": 60},
    }
    assert json.dumps(chosen)  # plain options, as CreateTable takes them
