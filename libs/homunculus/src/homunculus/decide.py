"""`decide`: check a command against the state and make its events (never changes `state`)."""

from __future__ import annotations

import msgspec

from homunculus import cards as k
from homunculus import commands as c
from homunculus import events as e
from homunculus.board import find_move, no_such_move
from homunculus.cards import Card
from homunculus.flow import Flow
from homunculus.rules import cards_play, dominoes_play, shop
from homunculus.rules import ring_commands as ring
from homunculus.rules.cards_play import not_in_hand
from homunculus.rules.draws import draw_cards
from homunculus.rules.end import check_finish
from homunculus.rules.landing import resolve_move
from homunculus.rules.table import TABLE
from homunculus.rules.turn import close_uno, end_turn, put_out, wrong_phase
from homunculus.state import ACTION, AFTER_DRAW, CONTINUE, FREE_MOVE, State
from tablehall_rules import DecideContext, GameOver, NotYourTurn, illegal, invalid
from tablehall_rules.table import decide_table, is_table_command

STRIKES_OUT = 3  # three turns in a row ended by the clock


def decide(state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
    if state.finished:
        raise GameOver()
    if is_table_command(command) or isinstance(command, c.RemoveSeat):
        flow = Flow(state, ctx)
        decide_table(flow, c.upcast(command), TABLE)
        return flow.events
    seat = ctx.seat
    if seat is None or not 0 <= seat < state.players:
        raise invalid("NO_SEAT", "A player's command needs a seat.", "Команде игрока нужно место.")
    if not state.alive[seat]:
        raise illegal("ELIMINATED", "You are out of the game.", "Вы выбыли из игры.")
    flow = Flow(state, ctx)
    if isinstance(command, c.SayUno | c.CatchUno):
        _reaction(flow, seat, command)
        return flow.events
    if isinstance(command, c.Surrender):
        flow.emit(e.Acted(seat))
        close_uno(flow)
        put_out(flow, seat, "surrender")
        return flow.events
    if isinstance(command, ring.OUT_OF_TURN_TYPES):
        _ring_out_of_turn(flow, seat, command)
        return flow.events
    if seat != state.turn:
        raise NotYourTurn()
    # a run-out clock's default comes checked by the match (open, past its deadline, the default)
    timed_out = ctx.timed_out.key if ctx.timed_out is not None else ""
    if timed_out and state.phase in ring.RING_PHASES:
        # a ring decision ended by the clock is no strike (the turn's action counts once)
        ring.check_turn(state, seat, command)
        close_uno(flow)
        ring.apply_turn(flow, seat, command)
        check_finish(flow)
        return flow.events
    _turn_command(state, seat, command)  # refusals before any event
    flow.emit(e.Acted(seat, timed_out))
    close_uno(flow)
    _apply_turn(flow, seat, command, bool(timed_out))
    if timed_out and flow.state.alive[seat] and flow.state.afk.strikes[seat] >= STRIKES_OUT:
        put_out(flow, seat, "clock")
    return flow.events


def _reaction(flow: Flow, seat: int, command: msgspec.Struct) -> None:
    window = flow.state.uno
    if window is None:
        raise illegal("NO_UNO_WINDOW", "Nobody is left with one card now.", "Сейчас ни у кого не одна карта.")
    if isinstance(command, c.SayUno):
        if seat != window.seat:
            raise illegal(
                "NOT_YOUR_UNO", "Only the player with one card says «Уно!».", "«Уно!» говорит тот, у кого одна карта."
            )
        flow.emit(e.Acted(seat))
        flow.emit(e.UnoClosed(seat, said=True))
        return
    if flow.state.allied(seat, window.seat):
        raise illegal("CANNOT_CATCH", "Only an opponent may catch.", "Поймать может только соперник.")
    flow.emit(e.Acted(seat))
    flow.emit(e.UnoClosed(window.seat, caught_by=seat))
    draw_cards(flow, window.seat, 2, "catch")


def _turn_command(state: State, seat: int, command: msgspec.Struct) -> None:
    """Raise the refusal of a turn command (checked on the unchanged state)."""
    phase = state.phase
    if isinstance(command, c.PlayCard):
        if phase not in (ACTION, CONTINUE, AFTER_DRAW):
            raise wrong_phase(phase)
        cards_play.check_play(state, seat, command)
    elif isinstance(command, c.PlaceDomino):
        if phase not in (ACTION, CONTINUE):
            raise wrong_phase(phase)
        dominoes_play.check_place(state, seat, command)
    elif isinstance(command, c.DrawCard):
        if phase not in (ACTION, CONTINUE):
            raise wrong_phase(phase)
        if len(state.hands[seat]) >= k.HAND_LIMIT:
            raise illegal(
                "HAND_FULL",
                "With 10 cards you exchange a card instead of drawing.",
                "При 10 картах вы меняете карту вместо добора.",
            )
    elif isinstance(command, c.ExchangeCard):
        if phase not in (ACTION, CONTINUE):
            raise wrong_phase(phase)
        if len(state.hands[seat]) < k.HAND_LIMIT:
            raise illegal(
                "HAND_NOT_FULL", "Exchange only with 10 cards; draw instead.", "Менять можно только при 10 картах."
            )
        if Card(command.colour, command.value) not in state.hands[seat]:
            raise not_in_hand()
    elif isinstance(command, c.KeepCard):
        if phase != AFTER_DRAW:
            raise wrong_phase(phase)
    elif isinstance(command, c.FreeMove):
        if phase != FREE_MOVE:
            raise wrong_phase(phase)
        if find_move(state, seat, command.origin, command.target) is None:
            raise no_such_move()
    elif isinstance(command, c.EndTurn):
        if phase not in (CONTINUE, FREE_MOVE):
            raise wrong_phase(phase)
    elif isinstance(command, c.BuyItem | c.UseItem):
        if phase not in (ACTION, CONTINUE):
            raise wrong_phase(phase)
        if isinstance(command, c.BuyItem):
            shop.check_buy(state, seat, command)
        else:
            shop.check_use(state, seat, command)
    elif isinstance(command, ring.TURN_TYPES):
        ring.check_turn(state, seat, command)
    else:
        raise invalid("UNKNOWN_COMMAND", "Unknown command.", "Неизвестная команда.")


def _apply_turn(flow: Flow, seat: int, command: msgspec.Struct, timed_out: bool) -> None:
    s = flow.state
    if isinstance(command, c.PlayCard):
        card, move = cards_play.check_play(s, seat, command)
        cards_play.play_card(flow, seat, card, move, command.choose_colour)
    elif isinstance(command, c.PlaceDomino):
        dominoes_play.place(flow, seat, command)
    elif isinstance(command, c.DrawCard):
        cards_play.draw_one(flow, seat, keep=timed_out)
    elif isinstance(command, c.ExchangeCard):
        cards_play.exchange(flow, seat, Card(command.colour, command.value))
    elif isinstance(command, c.BuyItem):
        shop.buy(flow, seat, command.item)
        return
    elif isinstance(command, c.UseItem):
        shop.use(flow, seat, command, shop.check_use(s, seat, command))
        check_finish(flow)
        return
    elif isinstance(command, ring.TURN_TYPES):
        ring.apply_turn(flow, seat, command)
    elif isinstance(command, c.FreeMove):
        move = find_move(s, seat, command.origin, command.target)
        assert move is not None
        resolve_move(flow, seat, move)
        end_turn(flow)
    else:  # KeepCard, EndTurn
        end_turn(flow)
    check_finish(flow)


def _ring_out_of_turn(flow: Flow, seat: int, command: msgspec.Struct) -> None:
    """A bid, a pass or a trade answer: any seat it concerns, out of turn too."""
    state = flow.state
    ring.check_out_of_turn(state, seat, command)
    if flow.timed_out is None:  # a bid or a trade answer ended by the clock is no act
        flow.emit(e.Acted(seat))
    close_uno(flow)
    ring.apply_out_of_turn(flow, seat, command)
    check_finish(flow)
