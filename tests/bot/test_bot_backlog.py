"""Behind a backlog the bot takes the earliest clock first, keeps one notification a table, and
keeps the ones waiting from being handed out again (progress acks)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from tablehall_bot.app import UNKNOWN_CLOCK_MS, BotApp
from tablehall_bot.feed import Envelope, Notification
from tablehall_bot.gate import DeadlineGate
from tablehall_bot.seats import TableSeats, earliest_deadline_ms, open_decisions
from tablehall_bot.settings import BotSettings
from tablehall_bot.tables import Tables

HANG_S = 60  # a guard against a hang, never a deadline the test asserts


class Delivered:
    """A JetStream message as the bot uses it: what was done with it."""

    def __init__(self) -> None:
        self.acks = 0
        self.progress = 0

    async def ack(self) -> None:
        self.acks += 1

    async def in_progress(self) -> None:
        self.progress += 1


def _decision(seat: int, deadline_ms: int, reaction: bool = False) -> dict[str, Any]:
    opened = deadline_ms - 8_000
    decision = {"key": f"k{seat}", "seat": seat, "kind": "bid", "clock": "bid", "opened_at_ms": opened}
    return decision | {"clock_ms": 8_000} | ({"reaction": True} if reaction else {})


def _note(table: str, version: int, pending: list[dict[str, Any]] | None = None) -> tuple[Notification, Delivered]:
    metadata: dict[str, Any] = {} if pending is None else {"pending": pending}
    msg = Delivered()
    return Notification([Envelope(f"table-{table}", version, "g.E", metadata=metadata)], msg), msg  # type: ignore[arg-type]


async def _until(condition: Any) -> None:
    async def poll() -> None:
        while not condition():  # noqa: ASYNC110 - counters the app and the fake messages fill
            await asyncio.sleep(0.01)

    await asyncio.wait_for(poll(), HANG_S)


async def test_the_gate_lets_the_earliest_deadline_in_first_ties_in_arrival_order() -> None:
    gate = DeadlineGate(1)
    order: list[str] = []
    holding = asyncio.Event()

    async def enter(name: str, deadline: int) -> None:
        async with gate.slot(deadline):
            order.append(name)
            if name == "first":
                await holding.wait()

    first = asyncio.create_task(enter("first", 10**9))
    await _until(lambda: order == ["first"])
    tasks = [asyncio.create_task(enter(n, d)) for n, d in [("late", 300), ("soon", 100), ("mid", 200), ("soon2", 100)]]
    await _until(lambda: gate.waiting == 4)
    holding.set()
    await asyncio.gather(first, *tasks)
    assert order == ["first", "soon", "soon2", "mid", "late"]
    assert gate.waiting == 0


async def test_a_cancelled_wait_gives_up_its_place_and_loses_no_slot() -> None:
    gate = DeadlineGate(1)
    holding, entered = asyncio.Event(), []

    async def enter(name: str, deadline: int) -> None:
        async with gate.slot(deadline):
            entered.append(name)
            if name == "holder":
                await holding.wait()

    holder = asyncio.create_task(enter("holder", 0))
    await _until(lambda: entered == ["holder"])
    cancelled = asyncio.create_task(enter("cancelled", 1))
    after = asyncio.create_task(enter("after", 2))
    await _until(lambda: gate.waiting == 2)
    cancelled.cancel()
    holding.set()
    await asyncio.gather(holder, after)
    assert entered == ["holder", "after"] and cancelled.cancelled()
    async with gate.slot(5):  # the slot came back: a new comer enters at once
        entered.append("again")
    assert entered[-1] == "again"


def test_the_earliest_deadline_is_of_the_seats_asked_and_reaction_windows_have_none() -> None:
    pending = [_decision(0, 5_000), _decision(1, 9_000), _decision(2, 1_000, reaction=True)]
    decisions = open_decisions(pending)
    assert earliest_deadline_ms(decisions) == 5_000
    assert earliest_deadline_ms(decisions, {1, 2}) == 9_000
    assert earliest_deadline_ms(decisions, {2}) is None
    assert earliest_deadline_ms([]) is None
    seats = TableSeats(game="g", bot_users={1: "bot"}, players={0: "ann", 1: "bot"}, pending=pending)
    assert seats.bot_deadline_ms() == 9_000  # seat 0 is a person's: not the bot's clock


class Recording(BotApp):
    """The bot's application with the look at a table recorded instead of played."""

    def __init__(self, concurrency: int, ack_wait_s: float = 5.0) -> None:
        settings = BotSettings("unused", "unused", concurrency=concurrency, ack_wait_seconds=ack_wait_s)
        super().__init__(Tables(None, "easy"), None, None, settings)  # type: ignore[arg-type]
        self.looked: list[tuple[str, int | None]] = []
        self.release = asyncio.Event()

    async def handle(self, table: str, at_least: int | None = None) -> None:
        self.looked.append((table, at_least))
        if table == "busy":
            await self.release.wait()


async def test_behind_a_backlog_the_earliest_clock_goes_first() -> None:
    app = Recording(concurrency=1)
    now = int(time.time() * 1000)
    app.notify("busy", _note("busy", 1, [_decision(1, now + 8_000)])[0])
    await _until(lambda: app.looked == [("busy", 1)])
    app.notify("turn", _note("turn", 3, [_decision(1, now + UNKNOWN_CLOCK_MS + 60_000)])[0])
    app.notify("unknown", _note("unknown", 4)[0])  # no pending: no clock known here
    app.notify("bid", _note("bid", 9, [_decision(1, now + 8_000), _decision(2, now + 9_000)])[0])
    await _until(lambda: app._slots.waiting == 3)
    app.release.set()
    await _until(lambda: len(app.looked) == 4)
    assert app.looked == [("busy", 1), ("bid", 9), ("unknown", 4), ("turn", 3)]


async def test_a_table_keeps_its_newest_notification_and_the_older_are_acknowledged_at_once() -> None:
    app = Recording(concurrency=1)
    app.notify("busy", _note("busy", 1)[0])
    await _until(lambda: len(app.looked) == 1)
    older, older_msg = _note("t", 5)
    newer, newer_msg = _note("t", 7)
    late, late_msg = _note("t", 6)  # a redelivery of an older one, after the newer
    again, again_msg = _note("t", 7)  # the newer one handed out again: the same message
    app.notify("t", older)
    app.notify("t", newer)
    app.notify("t", late)
    app.notify("t", again)
    await _until(lambda: older_msg.acks == 1 and late_msg.acks == 1)
    assert newer_msg.acks == 0 and again_msg.acks == 0  # kept: acknowledged once the table has been looked at
    app.release.set()
    await _until(lambda: again_msg.acks == 1)
    assert app.looked == [("busy", 1), ("t", 7)]  # one look, up to the newest version notified
    assert (older_msg.acks, late_msg.acks, newer_msg.acks) == (1, 1, 0)  # the message acknowledged once


@pytest.mark.parametrize("ack_wait_s", [0.3])
async def test_a_notification_waiting_its_turn_is_kept_from_being_handed_out_again(ack_wait_s: float) -> None:
    app = Recording(concurrency=1, ack_wait_s=ack_wait_s)
    keeping = asyncio.create_task(app._keep_waiting_notifications())
    try:
        app.notify("busy", _note("busy", 1)[0])
        waiting, msg = _note("t", 2)
        app.notify("t", waiting)
        await _until(lambda: msg.progress >= 2)  # again and again while it waits
        assert msg.acks == 0
        app.release.set()
        await _until(lambda: msg.acks == 1)
    finally:
        keeping.cancel()
