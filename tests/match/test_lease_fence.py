"""Reads are fenced as writes are: an instance that was paused past its lease
(SIGSTOP, a long GC, a stalled VM) does not answer from memory."""

from __future__ import annotations

import asyncio

from support.matchkit import Running, Tokens, race_command, start_race, start_service, stop_service

from tablehall.match.v1 import match_pb2


async def _roll(match: Running, tokens: Tokens, table: str, request_id: str) -> int:
    view = await match.stub.GetTableView(
        match_pb2.GetTableViewRequest(table=table), metadata=tokens("op", ("operator",))
    )
    seat = view.view.decisions[0].seat
    reply = await match.stub.SubmitCommand(
        match_pb2.SubmitCommandRequest(table=table, seat=seat, command=race_command("roll"), request_id=request_id),
        metadata=tokens(("alice", "bob")[seat]),
    )
    return int(reply.version)


async def test_an_instance_paused_past_its_lease_does_not_serve_its_old_copy(migrated: str, tokens: Tokens) -> None:
    first = await start_service(migrated, lease_seconds=5.0)
    second = await start_service(migrated, lease_seconds=5.0)
    try:
        table = await start_race(first.stub, tokens)
        table_id = table.split("/")[1]
        await first.service.app.table(table_id)
        old = await _roll(first, tokens, table, "before")
        # the first instance is paused: no renewals, and its clock runs past the lease
        first.service.stop_event.set()
        await asyncio.gather(*first.service.tasks)
        leases = first.service.app.leases
        paused_at = leases.clock()
        leases.clock = lambda: paused_at + 60.0
        await first.store.pool.execute("UPDATE table_leases SET expires_at = now() - interval '1 second'")
        # meanwhile the second instance takes the table over and moves it on
        head = old
        for i in range(3):
            head = await _roll(second, tokens, table, f"after{i}")
        assert head > old and table_id in second.service.app.tables
        # resumed, the first instance must not answer with its copy at `old`
        for user, roles in (("bot", ("service",)), ("alice", ("player",))):
            request = match_pb2.GetTableViewRequest(table=table, seat=0)
            view = await first.stub.GetTableView(request, metadata=tokens(user, roles))
            assert view.view.version == head
        assert table_id not in first.service.app.tables  # it forwarded to the new writer
    finally:
        await stop_service(first)
        await stop_service(second)
