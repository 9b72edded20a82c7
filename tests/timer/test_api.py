"""The timer's read API over gRPC, and a rebuilt schedule equal to a followed one."""

from __future__ import annotations

import grpc
import pytest
from support.matchkit import Tokens, race_command, start_race
from support.timerkit import Env, RunningTimer, set_presence, wait_until

from tablehall.match.v1 import match_pb2
from tablehall.timer.v1 import timer_pb2
from tablehall_platform.errors import error_info
from tablehall_stream.names import stream_id

OPERATOR = ("root", ("operator",))


def reason(caught: pytest.ExceptionInfo[grpc.aio.AioRpcError]) -> tuple[grpc.StatusCode, str]:
    info = error_info(caught.value)
    return caught.value.code(), info.reason if info else ""


async def test_a_tables_clocks_are_shown_with_when_the_timer_acts(env: Env, tokens: Tokens) -> None:
    timer = await env.start_timer(idle_close_seconds=600)
    table = await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 60000}')
    request = timer_pb2.GetTableClocksRequest(table=table)

    async def known() -> timer_pb2.GetTableClocksResponse | None:
        try:
            return await timer.stub.GetTableClocks(request, metadata=tokens("carol"))
        except grpc.aio.AioRpcError:
            return None

    reply = await wait_until(known, what="the timer to follow the table")
    clocks = reply.clocks
    (clock,) = clocks.clocks
    assert clocks.table == table and clocks.state == timer_pb2.TABLE_STATE_RUNNING
    assert (clock.decision_key, clock.seat, clock.kind, clock.clock) == ("turn-0", 0, "turn", "decision")
    assert clock.deadline_unix_ms == clock.opened_at_unix_ms + 60000 == clock.fires_at_unix_ms
    assert clocks.idle_close_at_unix_ms == clocks.last_move_unix_ms + 600_000

    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await timer.stub.GetTableClocks(timer_pb2.GetTableClocksRequest(table="tables/no-such"), metadata=tokens("a"))
    assert reason(caught) == (grpc.StatusCode.NOT_FOUND, "TABLE_NOT_SCHEDULED")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await timer.stub.GetTableClocks(timer_pb2.GetTableClocksRequest(table="Tables/X"), metadata=tokens("a"))
    assert reason(caught) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_TABLE_NAME")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await timer.stub.GetTableClocks(request)
    assert reason(caught) == (grpc.StatusCode.UNAUTHENTICATED, "TOKEN_MISSING")


async def test_every_tables_clocks_are_listed_page_by_page_for_operators(env: Env, tokens: Tokens) -> None:
    timer = await env.start_timer()
    tables = sorted([await start_race(env.match.stub, tokens, options='{"clock_ms": 60000}') for _ in range(3)])

    async def listed_all() -> bool:
        reply = await timer.stub.ListTableClocks(timer_pb2.ListTableClocksRequest(), metadata=tokens(*OPERATOR))
        return len(reply.tables) == 3

    await wait_until(listed_all, what="three tables")
    seen: list[str] = []
    token = ""
    while True:
        reply = await timer.stub.ListTableClocks(
            timer_pb2.ListTableClocksRequest(page_size=2, page_token=token), metadata=tokens(*OPERATOR)
        )
        seen += [t.table for t in reply.tables]
        token = reply.next_page_token
        if not token:
            break
    assert seen == tables

    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await timer.stub.ListTableClocks(timer_pb2.ListTableClocksRequest(), metadata=tokens("alice"))
    assert reason(caught) == (grpc.StatusCode.PERMISSION_DENIED, "NOT_ALLOWED")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await timer.stub.ListTableClocks(
            timer_pb2.ListTableClocksRequest(page_token="garbage"), metadata=tokens(*OPERATOR)
        )
    assert reason(caught) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN")
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await timer.stub.ListTableClocks(timer_pb2.ListTableClocksRequest(page_size=5000), metadata=tokens(*OPERATOR))
    assert reason(caught) == (grpc.StatusCode.INVALID_ARGUMENT, "INVALID_PAGE_SIZE")


async def test_a_schedule_rebuilt_from_postgres_equals_the_one_followed_live(env: Env, tokens: Tokens) -> None:
    live = await env.start_timer()
    tables = [await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 60000}') for _ in range(3)]
    first, second, third = tables
    # moves, presence changes and an AFK seat, in every mix
    await env.match.stub.SubmitCommand(
        match_pb2.SubmitCommandRequest(table=first, seat=0, command=race_command("roll"), request_id="r1"),
        metadata=tokens("alice"),
    )
    await set_presence(env.match.store, second, 0, "alice", False)
    await set_presence(env.match.store, second, 1, "bob", False)
    await set_presence(env.match.store, second, 1, "bob", True)
    await set_presence(env.match.store, third, 0, "alice", False)
    await set_presence(env.match.store, third, 1, "bob", False)
    await env.match.stub.ControlTable(
        match_pb2.ControlTableRequest(
            table=first, request_id="p", presence=match_pb2.SetPresence(seat=1, present=False)
        ),
        metadata=tokens("lobby", ("service",)),
    )
    closed = await start_race(env.match.stub, tokens)
    await env.match.stub.ControlTable(
        match_pb2.ControlTableRequest(
            table=closed, request_id="c", close=match_pb2.CloseTable(reason=match_pb2.CLOSE_REASON_OPERATOR)
        ),
        metadata=tokens(*OPERATOR),
    )
    closed_id = closed.split("/")[1]

    # the closed table's events come last in the global order
    (*_, closed_last) = await env.match.store.read_stream(stream_id(closed_id))

    async def caught_up() -> bool:
        return live.service.app.scheduler.position >= closed_last.position

    await wait_until(caught_up, what="the live timer to catch up")
    rebuilt = await env.start_timer()

    def shape(timer: RunningTimer) -> dict[str, tuple[object, ...]]:
        return {
            k: (t.humans, frozenset(t.absent), t.resumed_at_ms, t.last_move_ms, t.decisions, t.standing_still)
            for k, t in timer.service.app.scheduler.tables.items()
        }

    followed = shape(live)
    assert followed == shape(rebuilt)
    assert set(followed) == {t.split("/")[1] for t in tables}
    assert followed[second.split("/")[1]][5] is False and followed[third.split("/")[1]][5] is True
