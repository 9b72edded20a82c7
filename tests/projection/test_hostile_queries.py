"""Issue 13: malformed projection queries are INVALID_ARGUMENT, never UNKNOWN."""

from __future__ import annotations

import base64

import grpc
import pytest
from support.lobbykit import refused
from support.matchkit import Tokens
from support.projectionkit import Stack

from tablehall.projection.v1 import projection_pb2

Code = grpc.StatusCode


async def test_a_nul_user_id_in_list_player_games_is_refused(stack: Stack, tokens: Tokens) -> None:
    await refused(
        stack.proj.ListPlayerGames(projection_pb2.ListPlayerGamesRequest(user_id="bob\x00"), metadata=tokens("bob")),
        Code.INVALID_ARGUMENT,
        "INVALID_ID",
    )


@pytest.mark.parametrize("value", [str(2**31), str(2**63), "-5"])
async def test_a_journal_page_token_beyond_int32_is_refused(stack: Stack, tokens: Tokens, value: str) -> None:
    token = base64.urlsafe_b64encode(f"{value},0".encode()).decode()
    await refused(
        stack.proj.ListJournal(
            projection_pb2.ListJournalRequest(table="tables/t-x", page_token=token), metadata=tokens("bob")
        ),
        Code.INVALID_ARGUMENT,
        "INVALID_PAGE_TOKEN",
    )


@pytest.mark.parametrize("value", [str(2**63), str(2**70)])
async def test_a_listing_page_token_beyond_int64_is_refused(stack: Stack, tokens: Tokens, value: str) -> None:
    token = base64.urlsafe_b64encode(value.encode()).decode()
    for call in (
        stack.proj.ListTables(projection_pb2.ListTablesRequest(page_token=token), metadata=tokens("bob")),
        stack.proj.ListPlayerGames(projection_pb2.ListPlayerGamesRequest(page_token=token), metadata=tokens("bob")),
    ):
        await refused(call, Code.INVALID_ARGUMENT, "INVALID_PAGE_TOKEN")
