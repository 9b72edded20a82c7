"""Retries keep the request id; the live view resumes from its last version after the server
goes away mid-stream and comes back."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
from support.clientkit import Server, migrate_everything, start_server, started_with_players, stop_server, unique

from tablehall.match.v1 import match_pb2, match_pb2_grpc
from tablehall_platform.infra import free_port
from tablehall_sdk import Client, Command, RetryPolicy, Update

ROLL = Command("puzzipolia", "roll_for_order")
HANG_S = 120  # a step that takes longer is stuck, on however busy a machine


async def test_live_view_and_commands_survive_a_server_restart(
    fresh_database_url: Callable[[], Awaitable[str]], nats_url: str, tmp_path: Path
) -> None:
    url = await migrate_everything(await fresh_database_url())
    running = await start_server(url, nats_url, tmp_path)
    address = running.address
    fast = RetryPolicy(attempts=100, first_delay=0.05, max_delay=0.2, reconnect_for=30)
    ann, bob, carol = (Client(address, retry=fast) for _ in range(3))
    try:
        for who, client in (("ann", ann), ("bob", bob), ("carol", carol)):
            await client.sign_in_dev(unique(who))
        table = await started_with_players(ann, [bob, carol])
        seen: list[Update] = []
        arrived = asyncio.Condition()

        async def watch() -> None:
            async for update in bob.watch(table):
                async with arrived:
                    seen.append(update)
                    arrived.notify_all()

        async def seen_at_least(count: int = 1, version: int = 0) -> None:
            async with arrived:  # a guard against a hang, not a deadline the test asserts
                await asyncio.wait_for(
                    arrived.wait_for(lambda: len(seen) >= count and seen[-1].version >= version), HANG_S
                )

        watcher = asyncio.create_task(watch())
        await seen_at_least(1)  # the snapshot first: the roll is then an update, not in the snapshot
        await ann.submit(table, 0, ROLL)
        await seen_at_least(2)
        before = seen[-1].version

        await stop_server(running, grace=0)  # the stream drops; the client keeps trying
        pending = asyncio.create_task(bob.submit(table, 1, ROLL, request_id="bob-roll"))
        await asyncio.sleep(0.5)
        assert not pending.done()  # retrying UNAVAILABLE while the server is away
        running = await start_server(url, nats_url, tmp_path, address=address)
        done = await asyncio.wait_for(pending, HANG_S)
        assert not done.duplicate and done.request_id == "bob-roll"
        again = await bob.submit(table, 1, ROLL, request_id="bob-roll")
        assert again.duplicate and again.version == done.version  # applied once

        await carol.submit(table, 2, ROLL)
        head = (await ann.view(table)).version
        await seen_at_least(version=head)
        watcher.cancel()
        versions = [u.version for u in seen]
        assert seen[0].snapshot and not any(u.snapshot for u in seen[1:])  # resumed, not restarted
        assert versions == list(range(versions[0], head + 1)) and head > before  # no gap, no repeat
    finally:
        for client in (ann, bob, carol):
            await client.close()
        await stop_server(running)


class AbortingMatch(match_pb2_grpc.MatchServiceServicer):  # type: ignore[misc]
    """In front of the real match service: answers ABORTED to the first two SubmitCommands."""

    def __init__(self, upstream: match_pb2_grpc.MatchServiceStub, aborts: int = 2) -> None:
        self.upstream = upstream
        self.aborts = aborts
        self.request_ids: list[str] = []

    async def SubmitCommand(
        self, request: match_pb2.SubmitCommandRequest, context: grpc.aio.ServicerContext
    ) -> match_pb2.SubmitCommandResponse:
        self.request_ids.append(request.request_id)
        if len(self.request_ids) <= self.aborts:
            await context.abort(grpc.StatusCode.ABORTED, "VERSION_CONFLICT")
        metadata = [(k, v) for k, v in context.invocation_metadata() if k == "authorization"]
        reply: match_pb2.SubmitCommandResponse = await self.upstream.SubmitCommand(request, metadata=metadata)
        return reply


async def test_aborted_commands_are_retried_with_the_same_request_id(server: Server) -> None:
    upstream = grpc.aio.insecure_channel(server.address)
    proxy = grpc.aio.server()
    aborting = AbortingMatch(match_pb2_grpc.MatchServiceStub(upstream))
    match_pb2_grpc.add_MatchServiceServicer_to_server(aborting, proxy)
    address = f"127.0.0.1:{free_port()}"
    proxy.add_insecure_port(address)
    await proxy.start()
    try:
        async with Client(server.address) as ann, Client(server.address) as bob:
            await ann.sign_in_dev(unique("ann"))
            await bob.sign_in_dev(unique("bob"))
            table = await started_with_players(ann, [bob])
            async with Client(address, ann.token) as through_proxy:
                done = await through_proxy.submit(table, 0, ROLL)
            assert aborting.request_ids == [done.request_id] * 3 and not done.duplicate
            assert (await ann.view(table)).version == done.version
    finally:
        await proxy.stop(0)
        await upstream.close()
