"""What the client does before it shows a table: play a new game against bots, or watch one."""

from __future__ import annotations

import getpass
import re
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from tablehall_sdk import Client, table_name


@dataclass(frozen=True)
class PlayPlan:
    """`tablehall play GAME --bots N`: sign in, create a table with N bots, start it."""

    game: str
    bots: int
    name: str
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class WatchPlan:
    """`tablehall watch TABLE`: sign in and follow the table as a spectator."""

    table: str
    name: str


@dataclass(frozen=True)
class Seated:
    table: str
    seat: int | None


def default_name() -> str:
    """A development user id from the login name (1-40 of [A-Za-z0-9_.-]) plus a short suffix."""
    try:
        base = getpass.getuser()
    except (KeyError, OSError):
        base = "player"
    base = re.sub(r"[^A-Za-z0-9_.-]", "", base)[:30] or "player"
    return f"{base}-{uuid.uuid4().hex[:4]}"


async def play(client: Client, plan: PlayPlan, say: Callable[[str, dict[str, Any]], None]) -> Seated:
    say("signing_in", {"name": plan.name})
    await client.sign_in_dev(plan.name)
    say("creating", {"bots": plan.bots})
    table = await client.create_table(plan.game, plan.options, seat_count=plan.bots + 1)
    for _ in range(plan.bots):
        table, _ = await client.add_bot(table.name)
    say("starting", {})
    table, _ = await client.start(table.name)
    seat = next(s.seat for s in table.seats if s.user_id == client.user_id)
    return Seated(table.name, seat)


# a table id is "t" and 15 hex digits; fewer: the start of one (the unique table whose id begins so)
FULL_ID = 16
LISTED_PAGES = 20


async def watch(client: Client, plan: WatchPlan, say: Callable[[str, dict[str, Any]], None]) -> Seated:
    say("signing_in", {"name": plan.name})
    await client.sign_in_dev(plan.name)
    return Seated(await resolve_table(client, plan.table), None)


async def resolve_table(client: Client, table: str) -> str:
    """`tables/{id}` for a table id, or for the start of one when exactly one listed table begins so."""
    name = table_name(table)
    short = name.removeprefix("tables/")
    if len(short) >= FULL_ID:
        return name
    found: list[str] = []
    token = ""
    for _ in range(LISTED_PAGES):
        page = await client.list_tables(include_started=True, page_size=100, page_token=token)
        found += [t.name for t in page.tables if t.name.removeprefix("tables/").startswith(short)]
        token = page.next_page_token
        if not token or len(found) > 1:
            break
    return found[0] if len(found) == 1 else name
