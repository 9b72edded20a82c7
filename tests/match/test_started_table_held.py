"""The instance that starts a match keeps the table it wrote (`TableHost.adopt`): the table it holds
is the one a load from the stream rebuilds (state, version, draw counter, seed, who may watch),
its first command needs no load, and where it may not hold it (another instance has the lease)
the first use loads it as before."""

from __future__ import annotations

import json

import msgspec
import pytest
from support.matchkit import LOBBY, Running, new_table, start_service, stop_service, token_maker

from tablehall.match.v1 import match_pb2
from tablehall_eventstore import NewEvent
from tablehall_match.live_table import LiveTable
from tablehall_stream.names import stream_id

TOKENS = token_maker()
# every game of the registry, on its smallest table
GAMES = {"puzzipolia": 2, "homunculus": 2, "dragons": 2, "magnates": 2, "testgame": 2}


async def _start(match: Running, game: str, seats: int, table: str | None = None) -> str:
    table = table or new_table()
    await match.stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game=game,
            options_json=json.dumps({}),
            seats=[match_pb2.Seat(seat=i, user_id=f"u{i}", name=f"U{i}") for i in range(seats)],
            request_id="start",
        ),
        metadata=TOKENS(*LOBBY),
    )
    return table


def _held(match: Running, table: str) -> LiveTable | None:
    return match.service.app.tables.get(table.removeprefix("tables/"))


def _same(held: LiveTable, loaded: LiveTable) -> None:
    assert held.snapshot() == loaded.snapshot()  # version, Started, draw counter, state, access, controllers
    assert held.seed == loaded.seed
    assert held.game.pending(held.state) == loaded.game.pending(loaded.state)


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_the_starting_instance_holds_the_table_a_load_rebuilds(match: Running, game: str) -> None:
    table = await _start(match, game, GAMES[game])
    held = _held(match, table)
    assert held is not None, "the instance that started the table does not hold it"
    table_id = table.removeprefix("tables/")
    match.service.app.evict(table_id)
    loaded = await match.service.app.table(table_id)
    assert loaded is not held
    _same(held, loaded)


async def test_the_lobbys_facts_before_the_start_are_in_the_held_table(match: Running) -> None:
    table = new_table()
    created = {"host_user_id": "u0", "private": True, "spectators_allowed": False}
    await match.store.append(
        stream_id(table.removeprefix("tables/")),
        0,
        [NewEvent("lobby.TableCreated", 1, msgspec.json.encode(created))],
    )
    await _start(match, "testgame", 2, table)
    held = _held(match, table)
    assert held is not None
    assert held.access.private and not held.access.spectators_allowed and held.access.host == "u0"
    table_id = table.removeprefix("tables/")
    match.service.app.evict(table_id)
    _same(held, await match.service.app.table(table_id))


async def test_the_first_command_of_a_held_table_reads_nothing_to_load_it(match: Running) -> None:
    table = await _start(match, "testgame", 2)
    held = _held(match, table)
    assert held is not None
    table_id = table.removeprefix("tables/")
    loads: list[str] = []
    original = match.service.app.host._load

    async def counted(table_id: str) -> LiveTable:
        loads.append(table_id)
        return await original(table_id)

    match.service.app.host._load = counted  # type: ignore[method-assign]
    view = await match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=TOKENS("u0"))
    assert view.view.version == held.version
    assert loads == []
    assert await match.service.app.table(table_id) is held


async def test_a_table_whose_lease_another_instance_holds_is_not_held(migrated: str) -> None:
    first, second = await start_service(migrated), await start_service(migrated)
    try:
        table = new_table()
        # the second instance takes the table's lease first (as a view asked of it before the start would)
        holder = await second.service.app.leases.acquire(stream_id(table.removeprefix("tables/")))
        assert holder.owner == second.service.app.leases.owner
        await _start(first, "testgame", 2, table)
        assert _held(first, table) is None
        loaded = await second.service.app.table(table.removeprefix("tables/"))
        assert loaded.started is not None and loaded.started.game == "testgame"
    finally:
        await stop_service(first)
        await stop_service(second)
