"""Reads of the read models (SQL only; access rules live in `app`)."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any

import asyncpg
import msgspec

from tablehall_platform.errors import BadRequest
from tablehall_platform.input_policy import INT32_MAX, token_int
from tablehall_rules import JournalEntry, SeatInfo
from tablehall_stream.journal_lines import JournalLine

DEFAULT_PAGE = 50
MAX_PAGE = 500


@dataclass(frozen=True)
class Summary:
    table_id: str
    first_position: int
    status: str
    game: str
    rules_version: str
    seats: list[SeatInfo]
    options: dict[str, Any]
    version: int
    spectator_delay: int
    started_at_ms: int
    ended_at_ms: int
    lobby: dict[str, Any]
    last_event_type: str

    @property
    def finished(self) -> bool:
        return self.status == "finished"


@dataclass(frozen=True)
class Standing:
    version: int
    places: list[list[int]]
    final: bool
    scores: dict[str, Any]


@dataclass(frozen=True)
class PlayerGame:
    table_id: str
    game: str
    seat: int
    place: int
    players: int
    reason: str
    ended_at_ms: int


def page_size(requested: int) -> int:
    if requested < 0:
        raise BadRequest("INVALID_PAGE_SIZE", "page_size must be 0 or more.", ru="page_size не может быть < 0.")
    return min(requested or DEFAULT_PAGE, MAX_PAGE)


def encode_token(*parts: int) -> str:
    return base64.urlsafe_b64encode(",".join(map(str, parts)).encode()).decode()


def decode_token(token: str, parts: int, high: int = INT32_MAX) -> tuple[int, ...] | None:
    """The integers of a page token we gave, each within -1..`high`; INVALID_PAGE_TOKEN otherwise."""
    if not token:
        return None
    try:
        text = base64.urlsafe_b64decode(token.encode()).decode()
    except (binascii.Error, UnicodeDecodeError, ValueError) as exc:
        raise BadRequest("INVALID_PAGE_TOKEN", "The page token is not one of ours.", ru="Чужой page_token.") from exc
    values = tuple(token_int(x, low=-1, high=high) for x in text.split(","))
    if len(values) != parts:
        raise BadRequest("INVALID_PAGE_TOKEN", "The page token is not one of ours.", ru="Чужой page_token.")
    return values


_SUMMARY = (
    "SELECT table_id, first_position, status, game, rules_version, seats::text, options::text, version,"
    " spectator_delay, started_at_ms, ended_at_ms, lobby::text, last_event_type FROM proj_tables"
)


def _summary(r: asyncpg.Record) -> Summary:
    return Summary(
        r[0],
        r[1],
        r[2],
        r[3],
        r[4],
        msgspec.json.decode(r[5], type=list[SeatInfo]),
        msgspec.json.decode(r[6]),
        r[7],
        r[8],
        r[9],
        r[10],
        msgspec.json.decode(r[11]),
        r[12],
    )


class Queries:
    def __init__(self, pool: Any) -> None:
        self.pool = pool

    async def summary(self, table_id: str) -> Summary | None:
        r = await self.pool.fetchrow(f"{_SUMMARY} WHERE table_id = $1", table_id)
        return None if r is None else _summary(r)

    async def tables(self, status: str, game: str, size: int, before: int | None) -> list[Summary]:
        rows = await self.pool.fetch(
            f"{_SUMMARY} WHERE ($1 = '' OR status = $1) AND ($2 = '' OR game = $2) AND first_position < $3"
            " ORDER BY first_position DESC LIMIT $4",
            status,
            game,
            before if before is not None else 2**63 - 1,
            size,
        )
        return [_summary(r) for r in rows]

    async def journal(
        self, table_id: str, upto: int, seat: int | None, everything: bool, after: tuple[int, int], size: int
    ) -> list[JournalLine]:
        rows = await self.pool.fetch(
            "SELECT version, idx, code, params::text, ru, en, audience FROM proj_journal"
            " WHERE table_id = $1 AND version <= $2 AND (version, idx) > ($3, $4)"
            " AND ($5 OR audience IS NULL OR $6 = ANY(audience))"
            " ORDER BY version, idx LIMIT $7",
            table_id,
            upto,
            after[0],
            after[1],
            everything,
            seat if seat is not None else -1,
            size,
        )
        return [JournalLine(r[0], r[1], JournalEntry(r[2], msgspec.json.decode(r[3]), r[4], r[5], r[6])) for r in rows]

    async def standing(self, table_id: str, upto: int) -> Standing | None:
        r = await self.pool.fetchrow(
            "SELECT version, places::text, final, scores::text FROM proj_standings"
            " WHERE table_id = $1 AND version <= $2 ORDER BY version DESC LIMIT 1",
            table_id,
            upto,
        )
        if r is None:
            return None
        return Standing(r[0], msgspec.json.decode(r[1]), r[2], msgspec.json.decode(r[3]))

    async def player_games(self, user_id: str, size: int, before: int | None) -> tuple[list[PlayerGame], int | None]:
        rows = await self.pool.fetch(
            "SELECT table_id, game, seat, place, players, reason, ended_at_ms, ended_position FROM proj_player_games"
            " WHERE user_id = $1 AND ended_position < $2 ORDER BY ended_position DESC, seat LIMIT $3",
            user_id,
            before if before is not None else 2**63 - 1,
            size,
        )
        games = [PlayerGame(r[0], r[1], r[2], r[3], r[4], r[5], r[6]) for r in rows]
        last = rows[-1][7] if len(rows) == size else None
        return games, last
