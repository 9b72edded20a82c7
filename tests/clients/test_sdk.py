"""The SDK against every service in process: lobby, match, projection, timer (real PostgreSQL)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from support.clientkit import PUZZIPOLIA_OPTIONS, BotSeats, Server, started_with_bots, unique
from support.lobbykit import eventually

from tablehall_sdk import (
    Client,
    Command,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    Role,
    Unauthenticated,
)


async def test_sign_in_create_list_join_start_view_and_submit(server: Server) -> None:
    async with Client(server.address) as ann, Client(server.address) as bob:
        me = await ann.sign_in_dev(unique("ann"), "Ann")
        await bob.sign_in_dev(unique("bob"))
        assert me.user_id == ann.user_id and await ann.who_am_i() == me.user_id
        table = await ann.create_table("puzzipolia", PUZZIPOLIA_OPTIONS, seat_count=3)
        assert table.status == "WAITING" and table.options["round_limit"] == 2
        assert table.seats[0].user_id == me.user_id
        listed = await bob.list_tables("puzzipolia")
        assert table.name in [t.name for t in listed.tables]
        table, seat = await bob.join(table.table_id)  # the bare id works as well as tables/{id}
        assert seat == 1
        table, bot_seat = await ann.add_bot(table.name)
        assert bot_seat == 2 and table.seats[2].is_bot
        table, seed = await ann.start(table.name)
        assert table.status == "PLAYING" and len(seed) == 64

        view = await ann.view(table.name)
        assert view.role is Role.SEAT and view.seat == 0 and view.game == "puzzipolia"
        assert {c.kind for c in view.legal} == {"roll_for_order", "propose_end", "leave"}
        assert view.state["phase"] == "order" and {d.seat for d in view.decisions} == {0, 1, 2}
        done = await ann.submit(table.name, 0, Command("puzzipolia", "roll_for_order"), request_id="roll-ann")
        assert done.version > view.version and not done.duplicate and done.request_id == "roll-ann"
        again = await ann.submit(table.name, 0, Command("puzzipolia", "roll_for_order"), request_id="roll-ann")
        assert again.duplicate and again.version == done.version
        spectator = await bob.view(table.name, Role.SPECTATOR)
        assert spectator.seat is None and spectator.legal == ()


async def test_refusals_are_typed_with_reason_and_both_languages(server: Server) -> None:
    async with Client(server.address) as ann, Client(server.address) as bob:
        with pytest.raises(Unauthenticated) as missing:
            await ann.list_tables()
        assert missing.value.reason == "TOKEN_MISSING"
        await ann.sign_in_dev(unique("ann"))
        await bob.sign_in_dev(unique("bob"))
        with pytest.raises(InvalidArgument) as bad:
            await ann.create_table("puzzipolia", {"start_money": 7})
        assert bad.value.reason == "BAD_OPTION" and bad.value.text("ru") and bad.value.text("en")
        table = await ann.create_table("puzzipolia", PUZZIPOLIA_OPTIONS, seat_count=2)
        await ann.add_bot(table.name)
        with pytest.raises(PermissionDenied) as not_host:
            await bob.start(table.name)
        assert not_host.value.reason == "NOT_THE_HOST"
        assert not_host.value.text("ru") != not_host.value.text("en")
        await ann.start(table.name)
        with pytest.raises(FailedPrecondition) as illegal:
            await ann.submit(table.name, 0, Command("puzzipolia", "buy"))
        assert illegal.value.reason and illegal.value.messages.keys() >= {"en", "ru"}
        with pytest.raises(InvalidArgument) as not_a_command:
            await ann.submit(table.name, 0, Command("puzzipolia", "fly", {"to": 3}))
        assert not_a_command.value.reason == "BAD_COMMAND"
        with pytest.raises(NotFound) as nowhere:
            await ann.get_table("tables/t-nowhere")
        assert nowhere.value.reason == "TABLE_NOT_FOUND"


async def test_journal_and_live_view_follow_a_game_to_its_end(server: Server) -> None:
    async with Client(server.address) as ann:
        await ann.sign_in_dev(unique("ann"))
        table, _ = await started_with_bots(ann)
        watched: list[Any] = []
        by_command: list[Any] = []

        async def watch(into: list[Any], per_command: bool) -> None:
            async for update in ann.watch(table.name, per_command=per_command):
                into.append(update)

        watcher = asyncio.gather(watch(watched, False), watch(by_command, True))
        bots = BotSeats(server.address, table)
        bots.start()
        try:
            for _ in range(2000):
                view = await ann.view(table.name)
                if view.finished:
                    break
                if 0 in {d.seat for d in view.decisions}:
                    progress = [c for c in view.legal if c.kind not in ("leave", "propose_end", "propose_trade")]
                    await ann.submit(table.name, 0, _plain(progress))
                else:
                    await asyncio.sleep(0.02)
            await asyncio.wait_for(watcher, 120)  # a hang guard, not a deadline
        finally:
            await bots.stop()
        assert watched[0].snapshot and watched[-1].finished and watched[-1].outcome
        versions = [u.version for u in watched]
        assert versions == list(range(versions[0], versions[0] + len(versions)))  # no gap, no repeat
        live = [line.code for u in watched for line in u.journal]
        # a change per command: fewer updates, the same views where both have one, every line once
        assert by_command[-1].finished and len(by_command) < len(watched)
        start = max(watched[0].version, by_command[0].version)  # both watchers see what follows
        views = {u.version: u.state for u in watched}
        later = [u for u in by_command if u.version > start]
        assert later and all(u.state == views[u.version] for u in later)
        assert [(ln.version, ln.code) for u in by_command for ln in u.journal if ln.version > start] == [
            (ln.version, ln.code) for u in watched for ln in u.journal if ln.version > start
        ]
        lines = await eventually(lambda: ann.journal(table.name), lambda got: bool(got) and got[-1].code == live[-1])
        assert [line.code for line in lines][-len(live) :] == live  # the read model holds what the feed showed
        assert all(line.ru and line.en for line in lines)


def _plain(legal: list[Command]) -> Command:
    """A person who moves the game on: pays, buys, rolls, ends the turn, passes auctions."""
    order = ("pay_debt", "collect_debt", "buy", "roll_for_order", "roll", "choose_67", "end_turn", "pass_auction")
    by_kind = {c.kind: c for c in legal}
    for kind in order:
        if kind in by_kind:
            return by_kind[kind]
    return legal[0]


async def test_list_games_describes_every_game_the_server_offers(server: Server) -> None:
    async with Client(server.address) as ann:
        await ann.sign_in_dev(unique("ann"))
        games = {g.id: g for g in await ann.list_games()}
        puzzipolia = games["puzzipolia"]
        assert puzzipolia.name("ru") == "Пузиполия" and puzzipolia.name("en") != puzzipolia.id
        assert 2 <= puzzipolia.min_seats <= puzzipolia.max_seats
        assert "round_limit" in puzzipolia.options_schema["properties"]
        assert "testgame" in games and games["testgame"].supports_teams


async def test_check_answers_without_changing_the_table(server: Server) -> None:
    async with Client(server.address) as ann:
        await ann.sign_in_dev(unique("ann"))
        table, _ = await started_with_bots(ann, 1)
        before = (await ann.view(table.name)).version
        yes = await ann.check(table.name, 0, Command("puzzipolia", "roll_for_order"))
        no = await ann.check(table.name, 0, Command("puzzipolia", "buy"))
        assert yes.accepted and yes.refusal is None and yes.version == before
        assert not no.accepted and isinstance(no.refusal, FailedPrecondition) and no.refusal.reason
        assert no.refusal.text("ru") != no.refusal.text("en")
        assert (await ann.view(table.name)).version == before


async def test_chat_is_sent_and_read_after_a_token(server: Server) -> None:
    async with Client(server.address) as ann:
        await ann.sign_in_dev(unique("ann"))
        table, _ = await started_with_bots(ann, 1)
        empty, token = await ann.chat(table.name)
        assert empty == [] and token == ""
        sent = await ann.send_chat(table.name, "удачи!")
        assert sent.text == "удачи!" and sent.seat == 0
        first, token = await ann.chat(table.name, after=token)
        assert [m.text for m in first] == ["удачи!"] and token == str(sent.number)
        await ann.send_chat(table.name, "gl")
        second, token = await ann.chat(table.name, after=token)
        assert [m.text for m in second] == ["gl"]
        assert (await ann.chat(table.name, after=token))[0] == []


async def test_principal_private_entry_and_a_seat_reclaimed(server: Server) -> None:
    """`principal` is WhoAmI; `enter` takes a private table's PIN; `reclaim_seat` answers for a
    seat no bot plays with the lobby's refusal (a seat handed over is the web tests' case)."""
    async with Client(server.address) as ann, Client(server.address) as bob:
        me = await ann.sign_in_dev(unique("ann"), "Ann")
        await bob.sign_in_dev(unique("bob"))
        who = await ann.principal()
        assert who.user_id == me.user_id and who.name == "Ann" and not who.operator and "player" in who.roles
        table = await ann.create_table("puzzipolia", PUZZIPOLIA_OPTIONS, seat_count=2, private=True, pin="2468")
        with pytest.raises(PermissionDenied) as wrong:
            await bob.enter(table.name, pin="1357")
        assert wrong.value.reason == "WRONG_PIN"
        entered = await bob.enter(table.name, pin="2468")
        assert entered.name == table.name and entered.private
        await ann.add_bot(table.name)
        table, _ = await ann.start(table.name)
        assert not table.seats[0].played_by_bot
        with pytest.raises(FailedPrecondition) as mine:
            await ann.reclaim_seat(table.name)
        assert mine.value.reason == "SEAT_NOT_HANDED" and mine.value.text("ru")
