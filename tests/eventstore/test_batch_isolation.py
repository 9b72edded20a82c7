"""Issue 13: in a group commit a failing request fails alone; the others commit."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from typing import Any

import pytest

from tablehall_eventstore import AppendRequest, EventStore, GroupCommitter, InvalidAppend, NewEvent


def _event(n: int) -> NewEvent:
    return NewEvent("E", 1, b'{"n": %d}' % n, {"n": n})


async def test_a_request_the_database_refuses_fails_alone_in_its_batch(store: EventStore) -> None:
    committer = GroupCommitter(store, max_batch=64)
    batches: list[int] = []
    real = store.append_checked

    async def spy(requests: Sequence[AppendRequest], checked: Sequence[Any]) -> Any:
        batches.append(len(requests))
        return await real(requests, checked)

    store.append_checked = spy  # type: ignore[method-assign]
    try:
        prefix = uuid.uuid4().hex[:8]
        honest = [
            committer.append(f"{prefix}-honest-{i}", 0, [_event(i)], command_id=f"{prefix}:{i}") for i in range(8)
        ]
        # not JSON: passes every check before the database, fails the cast inside the transaction
        bad = committer.append(f"{prefix}-bad", 0, [NewEvent("E", 1, b"{not json")], command_id=f"{prefix}:bad")
        results = await asyncio.gather(*honest, bad, return_exceptions=True)
    finally:
        store.append_checked = real  # type: ignore[method-assign]
        await committer.close()
    assert batches[0] == 9  # all nine went into one transaction first
    assert isinstance(results[-1], Exception)
    for i, result in enumerate(results[:-1]):
        assert not isinstance(result, BaseException), result
        assert await store.stream_version(f"{prefix}-honest-{i}") == 1
    assert await store.stream_version(f"{prefix}-bad") == 0


@pytest.mark.parametrize("command_id", ["x" * 3000, "a\x00b"])
async def test_a_nul_or_oversized_command_id_is_refused_before_it_joins_a_batch(
    store: EventStore, command_id: str
) -> None:
    committer = GroupCommitter(store, max_batch=64)
    prefix = uuid.uuid4().hex[:8]
    try:
        honest = [committer.append(f"{prefix}-h{i}", 0, [_event(i)], command_id=f"{prefix}:{i}") for i in range(8)]
        bad = committer.append(f"{prefix}-bad", 0, [_event(0)], command_id=command_id)
        results = await asyncio.gather(*honest, bad, return_exceptions=True)
    finally:
        await committer.close()
    assert isinstance(results[-1], InvalidAppend)
    assert all(not isinstance(r, BaseException) for r in results[:-1])
    assert [await store.stream_version(f"{prefix}-h{i}") for i in range(8)] == [1] * 8


async def test_a_nul_in_metadata_is_refused_by_a_single_append(store: EventStore) -> None:
    with pytest.raises(InvalidAppend):
        await store.append(f"s-{uuid.uuid4().hex[:8]}", 0, [NewEvent("E", 1, b"{}", {"actor": "eve\x00"})])
