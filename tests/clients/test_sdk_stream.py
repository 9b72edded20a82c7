"""The SDK's CommandStream: submits over one SubmitCommands stream, typed answers, reopened after
the server goes away."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from support.clientkit import (
    Server,
    migrate_everything,
    start_server,
    started_with_bots,
    started_with_players,
    stop_server,
    unique,
)

from tablehall_sdk import Client, Command, FailedPrecondition, PermissionDenied, RetryPolicy

ROLL = Command("puzzipolia", "roll_for_order")


async def test_a_stream_submits_for_several_tables_with_typed_answers(server: Server) -> None:
    async with Client(server.address) as ann:
        await ann.sign_in_dev(unique("ann"))
        first = (await started_with_bots(ann, 2))[0].name
        second = (await started_with_bots(ann, 2))[0].name
        before = (await ann.view(first)).version
        async with ann.command_stream() as commands:
            done_first, done_second = await asyncio.gather(
                commands.submit(first, 0, ROLL, request_id="r1"), commands.submit(second, 0, ROLL, request_id="r1")
            )
            assert done_first.version > before and not done_first.duplicate
            assert done_first.view.table == first and done_first.view.seat == 0
            assert not done_second.duplicate
            # the same request again: answered, not applied twice
            again = await commands.submit(first, 0, ROLL, request_id="r1")
            assert again.duplicate and again.version == done_first.version
            # refusals are the same typed errors as Client.submit's, and the stream goes on
            with pytest.raises(FailedPrecondition) as illegal:
                await commands.submit(first, 0, Command("puzzipolia", "buy"))
            assert illegal.value.reason and illegal.value.text("ru") != illegal.value.text("en")
            with pytest.raises(PermissionDenied) as not_mine:
                await commands.submit(first, 1, ROLL)
            assert not_mine.value.reason == "NOT_YOUR_SEAT"
            assert (await commands.submit(second, 0, Command("puzzipolia", "leave"))).version > done_second.version
        assert (await ann.view(first)).version == done_first.version  # the refusals changed nothing


async def test_a_stream_is_reopened_after_the_server_comes_back(
    fresh_database_url: Callable[[], Awaitable[str]], nats_url: str, tmp_path: Path
) -> None:
    url = await migrate_everything(await fresh_database_url())
    running = await start_server(url, nats_url, tmp_path)
    address = running.address
    fast = RetryPolicy(attempts=100, first_delay=0.05, max_delay=0.2, reconnect_for=30)
    ann, bob = Client(address, retry=fast), Client(address, retry=fast)
    try:
        await ann.sign_in_dev(unique("ann"))
        await bob.sign_in_dev(unique("bob"))
        table = await started_with_players(ann, [bob])
        async with bob.command_stream() as commands:
            await ann.submit(table, 0, ROLL)
            await stop_server(running, grace=0)  # the stream breaks
            pending = asyncio.create_task(commands.submit(table, 1, ROLL, request_id="bob-roll"))
            await asyncio.sleep(0.5)
            assert not pending.done()  # retrying while the server is away
            running = await start_server(url, nats_url, tmp_path, address=address)
            done = await asyncio.wait_for(pending, 120)  # a hang guard, not a deadline
            assert not done.duplicate and done.request_id == "bob-roll"
            again = await commands.submit(table, 1, ROLL, request_id="bob-roll")
            assert again.duplicate and again.version == done.version
    finally:
        await ann.close()
        await bob.close()
        await stop_server(running)
