"""Clocks run out, the AFK ladder, presence and idle tables: the timer against a real match."""

from __future__ import annotations

import json
import time

import grpc
from prometheus_client import REGISTRY
from support.matchkit import Tokens, race_command, start_race
from support.timerkit import Env, events_of, set_presence, timeouts, wait_until

from tablehall.match.v1 import match_pb2
from tablehall.timer.v1 import timer_pb2

LOBBY = ("lobby", ("service",))


async def view_of(env: Env, tokens: Tokens, table: str) -> match_pb2.TableView:
    reply = await env.match.stub.GetTableView(match_pb2.GetTableViewRequest(table=table), metadata=tokens("alice"))
    return reply.view


async def timed_out(env: Env, table: str, key: str) -> dict[str, object] | None:
    """The metadata of the default move made for `key`, once it is in the stream."""
    for event in await events_of(env.match.store, table):
        if event.metadata.get("timeout") and event.metadata.get("decision_key") == key:
            return event.metadata
    return None


async def roll(env: Env, tokens: Tokens, table: str, seat: int, user: str, request_id: str) -> None:
    await env.match.stub.SubmitCommand(
        match_pb2.SubmitCommandRequest(table=table, seat=seat, command=race_command("roll"), request_id=request_id),
        metadata=tokens(user),
    )


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_a_clock_runs_out_and_the_default_move_is_made(env: Env, tokens: Tokens) -> None:
    made_before = sample("tablehall_timer_fired_total", outcome="made")
    timed_before = sample("tablehall_timer_lateness_seconds_count")
    timer = await env.start_timer()
    table = await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 300}')
    (decision,) = (await view_of(env, tokens, table)).decisions
    made = await wait_until(lambda: timed_out(env, table, decision.key), what="the default move")
    assert made["seat"] == 0 and str(made["actor"]).endswith("service:timer")
    assert made["command"] == {"type": "Pass"}
    assert isinstance(made["now_ms"], int) and made["now_ms"] >= decision.deadline_unix_ms
    # the default passed the turn to seat 1: the decisions its command left open, read at its own
    # version (a busy machine's timer can be late enough that seat 1's 300 ms clock has run out too
    # before the test looks at the table now)
    events = await events_of(env.match.store, table)
    left_open = [e.metadata["pending"] for e in events if e.metadata.get("command_id") == made["command_id"]][-1]
    assert [(d["key"], d["seat"]) for d in left_open] == [("turn-1", 1)]
    assert timeouts(events)[decision.key] == 1
    assert timer.service.app.scheduler.stats["made"] >= 1
    assert sample("tablehall_timer_fired_total", outcome="made") >= made_before + 1
    assert sample("tablehall_timer_lateness_seconds_count") >= timed_before + 1
    assert sample("tablehall_timer_deadlines_pending") >= 1  # the next decision is armed


async def test_an_afk_player_gets_two_second_clocks_and_leaves_afk_by_acting(env: Env, tokens: Tokens) -> None:
    await env.start_timer()
    table = await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 800}')
    await wait_until(lambda: timed_out(env, table, "turn-0"), what="alice's first clock")
    view = await view_of(env, tokens, table)
    assert json.loads(view.view_json)["afk"] == [True, False]
    assert [(d.key, d.seat, d.clock_ms) for d in view.decisions] == [("turn-1", 1, 800)]
    await roll(env, tokens, table, 1, "bob", "b1")
    (afk_clock,) = (await view_of(env, tokens, table)).decisions
    assert (afk_clock.key, afk_clock.seat, afk_clock.clock_ms) == ("turn-2", 0, 2000)
    made = await wait_until(lambda: timed_out(env, table, "turn-2"), within=60, what="alice's 2 s clock")
    assert isinstance(made["now_ms"], int) and made["now_ms"] >= afk_clock.deadline_unix_ms
    await roll(env, tokens, table, 1, "bob", "b2")
    (still_afk,) = (await view_of(env, tokens, table)).decisions
    assert (still_afk.key, still_afk.clock_ms) == ("turn-4", 2000)
    await roll(env, tokens, table, 0, "alice", "a1")  # acting herself ends AFK
    await roll(env, tokens, table, 1, "bob", "b3")
    view = await view_of(env, tokens, table)
    assert json.loads(view.view_json)["afk"] == [False, False]
    assert [(d.key, d.seat, d.clock_ms) for d in view.decisions] == [("turn-6", 0, 800)]


async def test_a_dropped_presence_goes_afk_at_once(env: Env, tokens: Tokens) -> None:
    await env.start_timer()
    table = await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 60000}')
    started = time.time()
    # what the lobby does when alice's presence stream drops
    await set_presence(env.match.store, table, 0, "alice", False)
    reply = await env.match.stub.ControlTable(
        match_pb2.ControlTableRequest(
            table=table, request_id="presence-1", presence=match_pb2.SetPresence(seat=0, present=False)
        ),
        metadata=tokens(*LOBBY),
    )
    assert reply.applied
    (decision,) = (await view_of(env, tokens, table)).decisions
    assert (decision.key, decision.clock_ms) == ("turn-0", 2000)
    await wait_until(lambda: timed_out(env, table, "turn-0"), within=25, what="the AFK clock")
    assert time.time() - started < 30  # far sooner than the 60 s decision clock


async def test_no_clock_fires_while_nobody_is_present(env: Env, tokens: Tokens) -> None:
    timer = await env.start_timer()
    table = await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 1000}')
    await set_presence(env.match.store, table, 0, "alice", False)
    await set_presence(env.match.store, table, 1, "bob", False)

    async def standing_still() -> bool:
        request = timer_pb2.GetTableClocksRequest(table=table)
        try:
            reply = await timer.stub.GetTableClocks(request, metadata=tokens("alice"))
        except grpc.aio.AioRpcError as exc:  # not followed yet
            assert exc.code() == grpc.StatusCode.NOT_FOUND
            return False
        return bool(reply.clocks.state == timer_pb2.TABLE_STATE_STANDING_STILL)

    await wait_until(standing_still, what="the table to stand still")
    (decision,) = (await view_of(env, tokens, table)).decisions
    while time.time() * 1000 < decision.deadline_unix_ms + 800:
        await wait_until(standing_still, what="the table to keep standing still")
    assert not timeouts(await events_of(env.match.store, table))
    back_at = int(time.time() * 1000)
    await set_presence(env.match.store, table, 1, "bob", True)
    made = await wait_until(lambda: timed_out(env, table, "turn-0"), what="the clock after bob's return")
    # the clock restarted when somebody came back
    assert isinstance(made["now_ms"], int) and made["now_ms"] >= back_at + decision.clock_ms


async def test_an_idle_table_closes_after_the_idle_limit(env: Env, tokens: Tokens) -> None:
    await env.start_timer(idle_close_seconds=1.0)
    quiet = await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 60000}')
    empty = await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 60000}')
    for seat, user in enumerate(("alice", "bob")):
        await set_presence(env.match.store, empty, seat, user, False)
    busy = await start_race(env.match.stub, tokens, options='{"target": 1000, "clock_ms": 60000}')
    await roll(env, tokens, busy, 0, "alice", "a1")

    async def ended(table: str) -> list[object] | None:
        events = await events_of(env.match.store, table)
        found: list[object] = list(events)
        return found if events[-1].type == "match.Ended" else None

    for table in (quiet, empty, busy):
        events = await wait_until(lambda t=table: ended(t), what=f"{table} to close")  # type: ignore[misc]
        moves = [e.metadata["now_ms"] for e in events if e.metadata.get("seat") is not None]
        started = json.loads(events[0].payload)["started_at_ms"]
        last_move = max([started, *moves])
        close = next(e for e in events if e.metadata.get("command") == {"type": "Close", "reason": "idle"})
        assert close.metadata["actor"].endswith("service:timer")
        assert close.metadata["now_ms"] >= last_move + 1000
