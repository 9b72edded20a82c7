"""A bot never acts on a decision that is no longer open, and never leaves a game on its own.

Пузиполия with two bot seats, the match service in process and the bot service's own
`BotApp` playing seat 0. The timer and the bot race on seat 0's order roll: the bot is still
thinking when the clock runs out and the timer plays the default; the move it then sends
(here the worst one, leaving, which the new state would still accept) is refused, and the
seat plays on. A move sent after the clock ran out is left to the timer, and a seat whose
only legal command is leaving gets no move from any bot player."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import msgspec
import pytest
from support.matchkit import Running, Tokens, new_table
from tablehall_bot import app as app_module
from tablehall_bot.app import BotApp, clock_ran_out
from tablehall_bot.feed import Feed
from tablehall_bot.match_client import MatchClient
from tablehall_bot.players import Choice, Difficulty, Player
from tablehall_bot.search.hooks import GameHooks
from tablehall_bot.seats import BotSeat
from tablehall_bot.settings import BotSettings
from tablehall_bot.tables import Tables

from puzzipolia import commands as c
from tablehall.match.v1 import match_pb2
from tablehall_rules import DecideContext, DrawSource, LegalMove, NoMove, SeatInfo, Viewer
from tablehall_rules.registry import get_game
from tablehall_stream.names import BOT_SERVICE

SEAT = 0


async def _start(match: Running, tokens: Tokens) -> str:
    table = new_table()
    await match.stub.StartMatch(
        match_pb2.StartMatchRequest(
            table=table,
            game="puzzipolia",
            options_json="{}",
            seats=[match_pb2.Seat(seat=i, user_id=f"bot-{i}", name=f"Bot {i + 1}", is_bot=True) for i in (0, 1)],
            request_id="start",
        ),
        metadata=tokens("lobby", ("service",)),
    )
    return table


def _bot(match: Running, tokens: Tokens) -> BotApp:
    # every thought in a worker thread, so the test can act while the bot thinks
    settings = BotSettings(
        match_address=match.address, lobby_address=match.address, think_ms=20, heuristics_in_thread=True
    )
    return BotApp(
        Tables(match.store, "easy"),
        MatchClient(match.address, tokens("bot", ("service",))),
        Feed("nats://127.0.0.1:1", "unused", 5.0),
        settings,
    )


async def _order_decision(match: Running, tokens: Tokens, table: str) -> match_pb2.Decision:
    view = await match.stub.GetTableView(
        match_pb2.GetTableViewRequest(table=table, seat=SEAT), metadata=tokens("bot", ("service",))
    )
    (decision,) = [d for d in view.view.decisions if d.seat == SEAT]
    return decision


async def _events(match: Running, table: str) -> list[Any]:
    return list(await match.store.read_stream(f"table-{table.split('/')[1]}"))


@pytest.fixture
def thinking(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, threading.Event]]:
    """The bot's first thought waits for the test, then picks leaving (a move the state after
    the timer's default still accepts); later thoughts are the real player's."""
    started, release = threading.Event(), threading.Event()
    real = Player.choose_on
    calls = [0]

    def choose_on(
        self: Player,
        view: dict[str, Any],
        seat: int,
        legal: Callable[[], list[msgspec.Struct]],
        moves: Sequence[LegalMove] | None = None,
    ) -> Any:
        calls[0] += 1
        if calls[0] > 1:
            return real(self, view, seat, legal, moves)
        started.set()
        assert release.wait(60), "the test never released the bot"
        return Choice(c.Leave())

    monkeypatch.setattr(Player, "choose_on", choose_on)
    yield started, release
    release.set()


async def test_the_timer_and_the_bot_race_on_one_decision_and_the_bot_never_leaves(
    match: Running, tokens: Tokens, thinking: tuple[threading.Event, threading.Event]
) -> None:
    started, release = thinking
    table = await _start(match, tokens)
    decision = await _order_decision(match, tokens, table)
    bot = _bot(match, tokens)
    try:
        seat = BotSeat(SEAT, "bot-0", "easy", False)
        playing = asyncio.create_task(bot.play(table.split("/")[1], "puzzipolia", seat))
        assert await asyncio.to_thread(started.wait, 60)
        # the clock runs out while the bot thinks; the timer plays the default for that decision
        match.service.app.clock = lambda: (decision.deadline_unix_ms + 1) / 1000
        await match.stub.SubmitDefaultCommand(
            match_pb2.SubmitDefaultCommandRequest(table=table, decision_key=decision.key, request_id="timer-1"),
            metadata=tokens("timer", ("service",)),
        )
        release.set()
        await asyncio.wait_for(playing, 60)
    finally:
        await bot.close()
    events = await _events(match, table)
    assert [e.type for e in events if e.type == "puzzipolia.PlayerEliminated"] == []
    # the timer's default is seat 0's only order roll; nothing the bot sent was applied for it
    rolls = [e for e in events if e.type == "puzzipolia.OrderRolled" and msgspec.json.decode(e.payload)["seat"] == SEAT]
    assert len(rolls) >= 1 and ":service:timer:" in rolls[0].metadata["command_id"]
    assert bot.match.last_error.endswith("That decision has been taken already.")


async def test_a_bot_does_not_decide_a_decision_whose_clock_it_sees_run_out(
    match: Running, tokens: Tokens, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Behind a backlog, a decision's clock has often run out when the bot reaches it: the match
    would refuse the move and the timer plays the default, so the bot does not decide it at all."""
    table = await _start(match, tokens)
    decision = await _order_decision(match, tokens, table)
    bot = _bot(match, tokens)
    thoughts: list[int] = []
    real = Player.choose_on

    def counted(self: Player, *args: Any, **kwargs: Any) -> Any:
        thoughts.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Player, "choose_on", counted)
    late = (decision.deadline_unix_ms + 1) / 1000
    monkeypatch.setattr(app_module, "time", _Clock(late))
    try:
        made = await bot.play(table.split("/")[1], "puzzipolia", BotSeat(SEAT, "bot-0", "easy", False))
    finally:
        await bot.close()
    assert made is False and thoughts == []
    events = await _events(match, table)
    assert [e.version for e in events if e.metadata.get("actor") == BOT_SERVICE] == []
    # the rule the match applies (`require_open`): run out at the deadline, not a moment before
    assert clock_ran_out([_pending(decision)], SEAT, decision.deadline_unix_ms - 1) is False
    assert clock_ran_out([_pending(decision)], SEAT, decision.deadline_unix_ms) is True
    assert clock_ran_out([_pending(decision)], SEAT + 1, decision.deadline_unix_ms) is False


class _Clock:
    """`time` as `tablehall_bot.app` reads it, stopped at `now` (seconds)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now

    def perf_counter(self) -> float:
        return time.perf_counter()

    def monotonic(self) -> float:
        return time.monotonic()


def _pending(decision: match_pb2.Decision) -> Any:
    from tablehall_stream.proto_games import decision_from_proto

    return decision_from_proto(decision)


async def test_a_bot_leaves_a_decision_whose_clock_ran_out_to_the_timer(match: Running, tokens: Tokens) -> None:
    table = await _start(match, tokens)
    decision = await _order_decision(match, tokens, table)
    match.service.app.clock = lambda: (decision.deadline_unix_ms + 1) / 1000
    bot = _bot(match, tokens)
    try:
        await bot.play(table.split("/")[1], "puzzipolia", BotSeat(SEAT, "bot-0", "easy", False))
    finally:
        await bot.close()
    events = await _events(match, table)
    assert [e.version for e in events if e.metadata.get("actor") == BOT_SERVICE] == []
    assert "CLOCK_RAN_OUT" in bot.match.last_error
    # the decision is still the timer's to answer
    assert (await _order_decision(match, tokens, table)).key == decision.key


@pytest.mark.parametrize("difficulty", list(Difficulty))
def test_no_bot_player_leaves_when_leaving_is_all_that_is_legal(difficulty: Difficulty) -> None:
    game = get_game("puzzipolia")
    seats = [SeatInfo(i, f"u{i}", f"U{i}") for i in range(2)]
    state = None
    for event in game.start(game.parse_options({}), seats, DecideContext(None, 0, DrawSource(b"s" * 32))):
        state = game.evolve(state, event)
    view = game.view(state, Viewer.of_seat(0))
    player = Player(GameHooks(game), difficulty, random.Random(7), noise=1.0)
    with pytest.raises(NoMove):
        player.choose(view, 0, [c.Leave(), c.ProposeEnd()])


async def test_a_paced_demo_tables_strong_bots_think_briefly(match: Running, tokens: Tokens) -> None:
    """The idle cost of `make run` is its demo table's strong bots thinking: at a paced table they
    search for TABLEHALL_BOT_DEMO_THINK_MS (40) instead of TABLEHALL_BOT_THINK_MS (200)."""
    bot = _bot(match, tokens)
    try:
        assert bot.search_for("t-demo").think_ms == 20  # this test's think time (the default: 200)
        bot.pace("t-demo", 1.0)
        assert bot.search_for("t-demo").think_ms == BotSettings(match.address, match.address).demo_think_ms == 40
        assert bot.search_for("t-other").think_ms == 20
        bot.pace("t-demo", 0)
        assert bot.search_for("t-demo").think_ms == 20
    finally:
        await bot.close()


async def test_a_pass_over_a_table_moves_one_seat_and_the_next_pass_the_other(match: Running, tokens: Tokens) -> None:
    """Both bot seats roll for the order at once. A pass over the table moves for one of them and
    stops: the other decides on the state after that move (its events come back as a
    notification), not on the fold from before it, where a simultaneous decision the move
    changed (an auction's next bid) would be refused. The next pass moves for the other."""
    table = await _start(match, tokens)
    table_id = table.split("/")[1]
    view = await match.stub.GetTableView(
        match_pb2.GetTableViewRequest(table=table, seat=SEAT), metadata=tokens("bot", ("service",))
    )
    assert sorted(d.seat for d in view.view.decisions) == [0, 1]
    bot = _bot(match, tokens)

    def bot_moves(events: list[Any]) -> list[tuple[int, str]]:
        found = {
            (int(e.metadata["seat"]), str(e.metadata["command_id"]))
            for e in events
            if e.metadata.get("actor") == BOT_SERVICE
        }
        return sorted(found)

    try:
        await bot.handle(table_id)
        first = bot_moves(await _events(match, table))
        await bot.handle(table_id)
        both = bot_moves(await _events(match, table))
    finally:
        await bot.close()
    assert len(first) == 1
    assert sorted(seat for seat, _ in both) == [0, 1]
    assert bot.match.last_error == ""  # nothing of ours was refused
