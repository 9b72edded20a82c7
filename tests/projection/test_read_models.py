"""Read models: exactly-once checkpoints, rebuilds, summaries, journals, standings, history, lag."""

from __future__ import annotations

import json
from collections.abc import Sequence

import grpc
import msgspec
import pytest
from prometheus_client import REGISTRY
from support.matchkit import Tokens
from support.projectionkit import Stack, caught_up, dump_models, finish, new_race, play, start_stack, stop_stack

from tablehall.common.v1 import table_pb2
from tablehall.match.v1 import match_pb2
from tablehall.projection.v1 import projection_pb2 as pb
from tablehall_eventstore import NewEvent, RecordedEvent
from tablehall_platform.errors import error_info
from tablehall_projection import service as projection_service


class Crash(Exception):
    """A simulated process death between applying a batch and checkpointing it."""


async def test_a_crash_between_apply_and_checkpoint_loses_and_doubles_nothing(empty_db: str, tokens: Tokens) -> None:
    stack = await start_stack(empty_db)
    try:
        for _ in range(3):
            await finish(stack, tokens, await new_race(stack, tokens), timeouts=True)
        await caught_up(stack)
        reference = await dump_models(stack.store)
        await stack.projection.close()  # the live projectors stop; ours take over
        head = await stack.store.pool.fetchval("SELECT max(position) FROM events")
        # a second set of projectors on the same log, crashing at the worst moment, batch after batch
        await stack.store.pool.execute("TRUNCATE proj_tables, proj_journal, proj_standings, proj_player_games")
        await stack.store.pool.execute("UPDATE projection_checkpoints SET position = 0")
        crashes = 0

        def crash_every_other(events: Sequence[RecordedEvent]) -> None:
            nonlocal crashes
            crashes += 1
            if crashes % 2:
                raise Crash

        for projector in projection_service.projectors(stack.store, batch=7).values():
            projector.after_apply = crash_every_other
            while (checkpoint := await projector.checkpoint()) < head:
                rows_before = await dump_models(stack.store)
                with pytest.raises(Crash):
                    await projector.step()
                assert await projector.checkpoint() == checkpoint  # nothing committed...
                assert await dump_models(stack.store) == rows_before  # ...not even part of the batch
                assert await projector.step() > 0  # "restart": the same batch again, once
        assert crashes > 10
        assert await dump_models(stack.store) == reference
    finally:
        await stop_stack(stack)


async def test_a_rebuild_from_zero_yields_the_live_read_models(empty_db: str, tokens: Tokens) -> None:
    stack = await start_stack(empty_db)
    try:
        tables = [await new_race(stack, tokens, players=n) for n in (1, 2, 3, 4)]
        for table in tables[:3]:
            await finish(stack, tokens, table, timeouts=True)
        await play(stack, tokens, tables[3], 9)
        await caught_up(stack)
        live = await dump_models(stack.store)
        await stack.projection.close()
        assert live["proj_player_games"] and live["proj_journal"] and live["proj_standings"]
        for projector in projection_service.projectors(stack.store, batch=5).values():
            assert await projector.rebuild() > 0
        assert await dump_models(stack.store) == live
    finally:
        await stop_stack(stack)


async def test_summaries_follow_lobby_and_match_events(stack: Stack, tokens: Tokens) -> None:
    table = "tables/t-lobby-" + msgspec.json.encode(id(stack)).decode()[-6:]
    sid = "table-" + table.split("/")[1]
    created = {"name": "Friday race", "host": "alice", "password": "hunter2", "game": "testgame"}
    await stack.store.append(sid, 0, [NewEvent("lobby.TableCreated", 1, msgspec.json.encode(created))])
    await stack.store.append(sid, 1, [NewEvent("lobby.SomethingNew", 3, b"[1, 2]")])
    await caught_up(stack)
    reply = await stack.proj.GetTable(pb.GetTableRequest(table=table), metadata=tokens("carol"))
    summary = reply.table
    assert summary.status == table_pb2.TABLE_STATUS_WAITING and summary.game == "testgame" and summary.version == 2
    assert json.loads(summary.lobby_json) == {"name": "Friday race", "host": "alice", "game": "testgame"}
    assert summary.last_event_type == "lobby.SomethingNew"
    race = await new_race(stack, tokens, players=3)
    await finish(stack, tokens, race)
    await caught_up(stack)
    got = (await stack.proj.GetTable(pb.GetTableRequest(table=race), metadata=tokens("carol"))).table
    assert got.status == table_pb2.TABLE_STATUS_FINISHED and [s.user_id for s in got.seats] == ["alice", "bob", "carol"]
    assert got.ended_at_unix_ms >= got.started_at_unix_ms > 0 and json.loads(got.options_json)["target"] == 30
    pages: list[str] = []
    token = ""
    while True:
        page = await stack.proj.ListTables(
            pb.ListTablesRequest(
                page_size=1, page_token=token, status=table_pb2.TABLE_STATUS_FINISHED, game="testgame"
            ),
            metadata=tokens("carol"),
        )
        pages += [t.table for t in page.tables]
        assert all(t.status == table_pb2.TABLE_STATUS_FINISHED for t in page.tables)
        token = page.next_page_token
        if not token:
            break
    assert pages[0] == race and len(pages) == len(set(pages))
    open_tables = await stack.proj.ListTables(
        pb.ListTablesRequest(status=table_pb2.TABLE_STATUS_WAITING), metadata=tokens("x")
    )
    assert table in [t.table for t in open_tables.tables]
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stack.proj.ListTables(pb.ListTablesRequest(page_token="%%%"), metadata=tokens("carol"))
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stack.proj.GetTable(pb.GetTableRequest(table="tables/none-here"), metadata=tokens("carol"))
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND


async def _journal(stack: Stack, tokens: Tokens, table: str, user: str, **request: object) -> list[pb.JournalLine]:
    roles = ("operator",) if user == "op" else ("player",)
    lines: list[pb.JournalLine] = []
    token = ""
    while True:
        page = await stack.proj.ListJournal(
            pb.ListJournalRequest(table=table, page_size=4, page_token=token, **request), metadata=tokens(user, roles)
        )
        lines += page.lines
        token = page.next_page_token
        if not token:
            return lines


async def test_the_journal_shows_each_reader_only_what_they_may_see(stack: Stack, tokens: Tokens) -> None:
    table = await new_race(stack, tokens, options='{"target": 25, "spectator_delay": 4, "clock_ms": 100}')
    await play(stack, tokens, table, 8, timeouts=True)
    await caught_up(stack)
    alice = await _journal(stack, tokens, table, "alice")
    bob = await _journal(stack, tokens, table, "bob")
    carol = await _journal(stack, tokens, table, "carol")
    secret = [json.loads(x.params_json) for x in alice if x.code == "testgame.secret_dealt"]
    assert [p["seat"] for p in secret] == [0]
    assert [json.loads(x.params_json)["seat"] for x in bob if x.code == "testgame.secret_dealt"] == [1]
    assert not [x for x in carol if x.code == "testgame.secret_dealt"]
    assert [x.code for x in alice[:2]] == ["match.started", "testgame.started"]
    assert any(x.code == "match.timeout" for x in alice) and any(x.code == "testgame.rolled" for x in alice)
    # the spectator trails by the delay: four versions fewer
    version = await stack.store.stream_version("table-" + table.split("/")[1])
    assert max(x.version for x in carol) <= version - 4 < max(x.version for x in alice)
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _journal(stack, tokens, table, "op", role=match_pb2.VIEWER_ROLE_AUDITOR)
    assert error_info(caught.value).reason == "MATCH_NOT_FINISHED"  # type: ignore[union-attr]
    await finish(stack, tokens, table)
    await caught_up(stack)
    audit = await _journal(stack, tokens, table, "op", role=match_pb2.VIEWER_ROLE_AUDITOR)
    assert len([x for x in audit if x.code == "testgame.secret_dealt"]) == 2
    assert audit[-1].code == "match.ended" and "Seed revealed" in audit[-1].en
    carol = await _journal(stack, tokens, table, "carol")
    assert carol[-1].code == "match.ended"  # finished: no delay any more
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _journal(stack, tokens, table, "carol", role=match_pb2.VIEWER_ROLE_AUDITOR)
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED


async def test_standings_live_and_final_and_players_history(stack: Stack, tokens: Tokens) -> None:
    table = await new_race(stack, tokens, players=3)
    await play(stack, tokens, table, 4)
    await caught_up(stack)
    live = await stack.proj.GetStandings(pb.GetStandingsRequest(table=table), metadata=tokens("carol"))
    assert not live.final and sorted(s for p in live.places for s in p.seats) == [0, 1, 2]
    assert [p.place for p in live.places] == list(range(1, len(live.places) + 1))
    await finish(stack, tokens, table)
    await caught_up(stack)
    final = await stack.proj.GetStandings(pb.GetStandingsRequest(table=table), metadata=tokens("carol"))
    assert final.final and json.loads(final.scores_json)
    outcome_places = [list(p.seats) for p in final.places]
    games = await stack.proj.ListPlayerGames(pb.ListPlayerGamesRequest(), metadata=tokens("bob"))
    mine = next(g for g in games.games if g.table == table)
    assert mine.seat == 1 and mine.players == 3 and mine.game == "testgame"
    assert 1 in outcome_places[mine.place - 1]
    other = await stack.proj.ListPlayerGames(pb.ListPlayerGamesRequest(user_id="carol"), metadata=tokens("bob"))
    assert any(g.table == table and g.seat == 2 for g in other.games)


async def test_lag_is_measured_per_read_model(stack: Stack, tokens: Tokens) -> None:
    table = await new_race(stack, tokens)
    await play(stack, tokens, table, 3)
    await caught_up(stack)
    reply = await stack.proj.ListProjections(pb.ListProjectionsRequest(), metadata=tokens("op", ("operator",)))
    assert sorted(p.name for p in reply.projections) == ["journal", "standings", "tables"]
    assert all(p.lag_events == 0 and p.position == p.head_position > 0 for p in reply.projections)
    for name in ("journal", "standings", "tables"):
        assert REGISTRY.get_sample_value("tablehall_projection_lag_events", {"projection": name}) == 0
        assert REGISTRY.get_sample_value("tablehall_projection_lag_seconds", {"projection": name}) == 0
    # a projector that has not run yet sees every event behind it
    idle = projection_service.projectors(stack.store)["journal"]
    lag = await idle.lag()
    assert lag.events > 0 and lag.seconds > 0
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await stack.proj.ListProjections(pb.ListProjectionsRequest(), metadata=tokens("alice"))
    assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
