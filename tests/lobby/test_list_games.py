"""ListGames: every game the server offers with its seats, teams and options schema;
a table shows the teams its options make."""

from __future__ import annotations

import json

from support.lobbykit import Lobby
from support.matchkit import Tokens

from tablehall.lobby.v1 import lobby_pb2


async def test_list_games_describes_every_installed_game(lobby: Lobby, tokens: Tokens) -> None:
    reply = await lobby.stub.ListGames(lobby_pb2.ListGamesRequest(), metadata=tokens("alice"))
    games = {g.id: g for g in reply.games}
    assert {"puzzipolia", "testgame"} <= set(games) and "ghost" not in games  # ghost's package is missing
    pz = games["puzzipolia"]
    assert (pz.min_seats, pz.max_seats, pz.title["ru"], pz.supports_teams) == (2, 16, "Пузиполия", False)
    schema = json.loads(pz.options_schema_json)
    assert schema["properties"]["start_money"]["enum"] == [1000, 1500, 2000, 3000]
    assert games["testgame"].supports_teams
    assert json.loads(games["testgame"].options_schema_json)["properties"]["teams"]["type"] == "boolean"


async def test_a_table_shows_the_teams_its_options_make(lobby: Lobby, tokens: Tokens) -> None:
    made = await lobby.stub.CreateTable(
        lobby_pb2.CreateTableRequest(game="testgame", options_json='{"teams": true}', seat_count=4, request_id="teams"),
        metadata=tokens("alice"),
    )
    assert [list(t.seats) for t in made.table.teams] == [[0, 2], [1, 3]]
    solo = await lobby.stub.CreateTable(
        lobby_pb2.CreateTableRequest(game="testgame", seat_count=2, request_id="solo"), metadata=tokens("alice")
    )
    assert not solo.table.teams
