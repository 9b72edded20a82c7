"""The kit's base layer: the working copy, the platform's table commands and the AFK ladder behind them."""

from __future__ import annotations

import msgspec
import pytest

from tablehall_rules import DecideContext, DrawSource, Flow, IllegalCommand, InvalidCommand, clone, illegal
from tablehall_rules.afk import AfkLadder
from tablehall_rules.table import (
    CloseTable,
    ControllerChanged,
    PresenceChanged,
    RemovePlayer,
    SeatedGame,
    SetController,
    SetPresence,
    TableRules,
    decide_table,
    evolve_table,
)


class Ended(msgspec.Struct, frozen=True, tag="Ended"):
    reason: str
    at_ms: int = 0


class Out(msgspec.Struct, frozen=True, tag="Out"):
    seat: int


class Tiny(msgspec.Struct):
    afk: AfkLadder
    out: list[int] = msgspec.field(default_factory=list)
    ended: str = ""
    bots: list[int] = msgspec.field(default_factory=list)


def tiny_evolve(state: Tiny, event: msgspec.Struct) -> Tiny:
    if evolve_table(state.afk, event):
        return state
    if isinstance(event, Out):
        state.out.append(event.seat)
    elif isinstance(event, Ended):
        state.ended = event.reason
    return state


class TinyFlow(Flow[Tiny]):
    evolve_event = staticmethod(tiny_evolve)


class TinyRules(TableRules[Tiny]):
    def check_controller(self, state: Tiny, seat: int, by_bot: bool) -> None:
        if seat in state.bots:
            raise illegal("BOT_SEAT", "A bot's own seat.", "Место бота.")

    def on_remove(self, flow: Flow[Tiny], seat: int) -> None:
        flow.emit(Out(seat))

    def on_close(self, flow: Flow[Tiny], reason: str) -> None:
        flow.emit(Ended(reason=reason))


def ctx(now_ms: int = 1234) -> DecideContext:
    return DecideContext(seat=None, now_ms=now_ms, rng=DrawSource(b"\0" * 32))


def fresh() -> Tiny:
    return Tiny(afk=AfkLadder.for_seats(3), bots=[2])


def decide(state: Tiny, command: msgspec.Struct) -> list[msgspec.Struct]:
    before = msgspec.json.encode(state)
    flow = TinyFlow(state, ctx())
    decide_table(flow, command, TinyRules())
    assert msgspec.json.encode(state) == before, "decide changed its input"
    return flow.events


def test_the_working_copy_is_a_deep_copy_and_stamps_events() -> None:
    state = fresh()
    flow = TinyFlow(state, ctx(now_ms=77))
    flow.emit(Ended(reason="operator"))
    assert flow.events == [Ended(reason="operator", at_ms=77)]
    assert flow.state.ended == "operator" and state.ended == ""
    copy = clone(state)
    copy.afk.afk[0] = True
    assert state.afk.afk[0] is False


def test_events_without_a_stamp_field_are_kept_as_they_are() -> None:
    flow = TinyFlow(fresh(), ctx())
    flow.emit(Out(1))
    assert flow.events == [Out(1)] and flow.state.out == [1]


def test_presence_drop_makes_the_seat_afk_and_return_is_not_acting() -> None:
    state = fresh()
    events = decide(state, SetPresence(seat=1, present=False))
    assert events == [PresenceChanged(seat=1, present=False, at_ms=1234)]
    for e in events:
        tiny_evolve(state, e)
    assert state.afk.is_absent(1) and state.afk.is_afk(1)
    assert decide(state, SetPresence(seat=1, present=False)) == [], "the same presence twice is no event"
    back = decide(state, SetPresence(seat=1, present=True))
    for e in back:
        tiny_evolve(state, e)
    assert not state.afk.is_absent(1) and state.afk.is_afk(1)


def test_a_present_seat_reported_present_changes_nothing() -> None:
    assert decide(fresh(), SetPresence(seat=0, present=True)) == []


def test_hand_over_and_back() -> None:
    state = fresh()
    state.afk.afk[0] = True
    state.afk.strikes[0] = 2
    for e in decide(state, SetController(seat=0, by_bot=True)):
        tiny_evolve(state, e)
    assert state.afk.by_bot[0] and not state.afk.afk[0] and state.afk.strikes[0] == 0
    assert state.afk.clock_ms(0, 30_000) == 30_000
    assert decide(state, SetController(seat=0, by_bot=True)) == []
    assert decide(state, SetController(seat=0, by_bot=False)) == [ControllerChanged(seat=0, by_bot=False, at_ms=1234)]


def test_the_game_may_refuse_a_hand_over() -> None:
    with pytest.raises(IllegalCommand) as refused:
        decide(fresh(), SetController(seat=2, by_bot=True))
    assert refused.value.reason == "BOT_SEAT"


@pytest.mark.parametrize(
    "command", [SetPresence(seat=3, present=False), SetController(seat=-1, by_bot=True), RemovePlayer(seat=9)]
)
def test_no_such_seat(command: msgspec.Struct) -> None:
    with pytest.raises(InvalidCommand) as refused:
        decide(fresh(), command)
    assert refused.value.reason == "NO_SUCH_SEAT"


def test_removal_and_closing_are_the_games_rules() -> None:
    assert decide(fresh(), RemovePlayer(seat=1)) == [Out(1)]
    assert decide(fresh(), CloseTable(reason="idle")) == [Ended(reason="idle", at_ms=1234)]
    with pytest.raises(InvalidCommand) as refused:
        decide(fresh(), CloseTable(reason="bored"))
    assert refused.value.reason == "BAD_REASON"


@pytest.mark.parametrize(
    "command",
    [
        SetPresence(seat=0, present=False),
        SetController(seat=0, by_bot=True),
        RemovePlayer(seat=1),
        CloseTable(reason="idle"),
    ],
)
def test_a_seat_may_not_send_a_table_command(command: msgspec.Struct) -> None:
    flow = TinyFlow(fresh(), DecideContext(seat=0, now_ms=1, rng=DrawSource(b"\0" * 32)))
    with pytest.raises(IllegalCommand) as refused:
        decide_table(flow, command, TinyRules())
    assert refused.value.reason == "SYSTEM_ONLY" and flow.events == []


def test_a_game_without_a_removal_rule_is_a_programming_error() -> None:
    with pytest.raises(NotImplementedError):
        decide_table(TinyFlow(fresh(), ctx()), RemovePlayer(seat=0), TableRules())


def test_the_match_hooks_give_the_platform_commands() -> None:
    game = SeatedGame()
    assert game.presence_command(1, False) == SetPresence(seat=1, present=False)
    assert game.controller_command(1, True) == SetController(seat=1, by_bot=True)
    assert game.remove_command(2) == RemovePlayer(seat=2)
    assert game.close_command("idle") == CloseTable(reason="idle")
    assert game.close_command("anything else") == CloseTable(reason="operator")
    assert game.host_end_command(0) is None


def test_a_ladder_stored_before_absent_existed_reads_as_all_present() -> None:
    old = msgspec.json.encode({"afk": [False, True], "strikes": [0, 1], "by_bot": [False, False]})
    ladder = msgspec.json.decode(old, type=AfkLadder)
    assert not ladder.is_absent(1)
    ladder.presence(1, False)
    assert ladder.absent == [False, True]
