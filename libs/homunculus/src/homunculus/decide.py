"""`decide`: check a command against the state and make its events (never changes `state`)."""

from __future__ import annotations

import msgspec

from homunculus import cards as k
from homunculus import commands as c
from homunculus import errors as err
from homunculus import events as e
from homunculus.board import find_move
from homunculus.cards import Card
from homunculus.pending import default_command, turn_decision, turn_key
from homunculus.rules import cards_play, dominoes_play, shop
from homunculus.rules import ring_commands as ring
from homunculus.rules.landing import resolve_move
from homunculus.rules.turn import check_finish, close_uno, draw_cards, eliminate, end_turn, places_of, units
from homunculus.state import ACTION, AFTER_DRAW, CONTINUE, FREE_MOVE, State
from homunculus.tx import Tx
from tablehall_rules import DecideContext, GameOver, NotYourTurn

STRIKES_OUT = 3  # three turns in a row ended by the clock


def decide(state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
    if state.finished:
        raise GameOver()
    if isinstance(command, c.RemoveSeat | c.CloseTable):
        return _system(state, command, ctx)
    seat = ctx.seat
    if seat is None or not 0 <= seat < state.players:
        raise err.invalid("NO_SEAT", "A player's command needs a seat.", "Команде игрока нужно место.")
    if not state.alive[seat]:
        raise err.illegal("ELIMINATED", "You are out of the game.", "Вы выбыли из игры.")
    tx = Tx(state, ctx)
    if isinstance(command, c.SayUno | c.CatchUno):
        _reaction(tx, seat, command)
        return tx.events
    if isinstance(command, c.Surrender):
        tx.emit(e.Acted(seat))
        close_uno(tx)
        _out(tx, seat, "surrender")
        return tx.events
    if isinstance(command, ring.OUT_OF_TURN_TYPES):
        _ring_out_of_turn(tx, seat, command)
        return tx.events
    if seat != state.turn:
        raise NotYourTurn()
    timed_out = _check_timeout(state, command, ctx)
    if timed_out and state.phase in ring.RING_PHASES:
        # a ring decision ended by the clock is no strike (the turn's action counts once)
        ring.check_turn(state, seat, command)
        close_uno(tx)
        ring.apply_turn(tx, seat, command)
        check_finish(tx)
        return tx.events
    _turn_command(state, seat, command)  # refusals before any event
    tx.emit(e.Acted(seat, timed_out))
    close_uno(tx)
    _apply_turn(tx, seat, command, bool(timed_out))
    if timed_out and tx.state.alive[seat] and tx.state.afk.strikes[seat] >= STRIKES_OUT:
        _out(tx, seat, "clock")
    return tx.events


def _out(tx: Tx, seat: int, reason: str) -> None:
    was_turn = tx.state.turn == seat
    eliminate(tx, seat, reason)
    if was_turn and not tx.state.finished:
        end_turn(tx)


def _system(state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
    if ctx.seat is not None:
        raise err.illegal("SYSTEM_COMMAND", "Only the table sends this command.", "Эту команду подаёт только стол.")
    tx = Tx(state, ctx)
    if isinstance(command, c.RemoveSeat):
        if not 0 <= command.seat < state.players or not state.alive[command.seat]:
            raise err.illegal("NO_SUCH_PLAYER", "No such player in the game.", "Такого игрока в игре нет.")
        close_uno(tx)
        _out(tx, command.seat, "removed")
        return tx.events
    assert isinstance(command, c.CloseTable)
    close_uno(tx)
    tx.emit(e.Finished(places_of(tx, units(tx)), f"closed:{command.reason}"))
    return tx.events


def _check_timeout(state: State, command: msgspec.Struct, ctx: DecideContext) -> str:
    decision = ctx.timed_out
    if decision is None:
        return ""
    if decision.key != turn_key(state) or ctx.now_ms < turn_decision(state).deadline_ms:
        raise err.illegal("CLOCK_NOT_OUT", "This decision's clock has not run out.", "Время на решение не истекло.")
    if command != default_command(state, decision):
        raise err.illegal("NOT_THE_DEFAULT", "Not the default move of this decision.", "Это не ход по умолчанию.")
    return decision.key


def _reaction(tx: Tx, seat: int, command: msgspec.Struct) -> None:
    window = tx.state.uno
    if window is None:
        raise err.illegal("NO_UNO_WINDOW", "Nobody is left with one card now.", "Сейчас ни у кого не одна карта.")
    if isinstance(command, c.SayUno):
        if seat != window.seat:
            raise err.illegal(
                "NOT_YOUR_UNO", "Only the player with one card says «Уно!».", "«Уно!» говорит тот, у кого одна карта."
            )
        tx.emit(e.Acted(seat))
        tx.emit(e.UnoClosed(seat, said=True))
        return
    if tx.state.allied(seat, window.seat):
        raise err.illegal("CANNOT_CATCH", "Only an opponent may catch.", "Поймать может только соперник.")
    tx.emit(e.Acted(seat))
    tx.emit(e.UnoClosed(window.seat, caught_by=seat))
    draw_cards(tx, window.seat, 2, "catch")


def _turn_command(state: State, seat: int, command: msgspec.Struct) -> None:
    """Raise the refusal of a turn command (checked on the unchanged state)."""
    phase = state.phase
    if isinstance(command, c.PlayCard):
        if phase not in (ACTION, CONTINUE, AFTER_DRAW):
            raise err.wrong_phase(phase)
        cards_play.check_play(state, seat, command)
    elif isinstance(command, c.PlaceDomino):
        if phase not in (ACTION, CONTINUE):
            raise err.wrong_phase(phase)
        dominoes_play.check_place(state, seat, command)
    elif isinstance(command, c.DrawCard):
        if phase not in (ACTION, CONTINUE):
            raise err.wrong_phase(phase)
        if len(state.hands[seat]) >= k.HAND_LIMIT:
            raise err.illegal(
                "HAND_FULL",
                "With 10 cards you exchange a card instead of drawing.",
                "При 10 картах вы меняете карту вместо добора.",
            )
    elif isinstance(command, c.ExchangeCard):
        if phase not in (ACTION, CONTINUE):
            raise err.wrong_phase(phase)
        if len(state.hands[seat]) < k.HAND_LIMIT:
            raise err.illegal(
                "HAND_NOT_FULL", "Exchange only with 10 cards; draw instead.", "Менять можно только при 10 картах."
            )
        if Card(command.colour, command.value) not in state.hands[seat]:
            raise err.not_in_hand()
    elif isinstance(command, c.KeepCard):
        if phase != AFTER_DRAW:
            raise err.wrong_phase(phase)
    elif isinstance(command, c.FreeMove):
        if phase != FREE_MOVE:
            raise err.wrong_phase(phase)
        if find_move(state, seat, command.origin, command.target) is None:
            raise err.no_such_move()
    elif isinstance(command, c.EndTurn):
        if phase not in (CONTINUE, FREE_MOVE):
            raise err.wrong_phase(phase)
    elif isinstance(command, c.BuyItem | c.UseItem):
        if phase not in (ACTION, CONTINUE):
            raise err.wrong_phase(phase)
        if isinstance(command, c.BuyItem):
            shop.check_buy(state, seat, command)
        else:
            shop.check_use(state, seat, command)
    elif isinstance(command, ring.TURN_TYPES):
        ring.check_turn(state, seat, command)
    else:
        raise err.invalid("UNKNOWN_COMMAND", "Unknown command.", "Неизвестная команда.")


def _apply_turn(tx: Tx, seat: int, command: msgspec.Struct, timed_out: bool) -> None:
    s = tx.state
    if isinstance(command, c.PlayCard):
        card, move = cards_play.check_play(s, seat, command)
        cards_play.play_card(tx, seat, card, move, command.choose_colour)
    elif isinstance(command, c.PlaceDomino):
        dominoes_play.place(tx, seat, command)
    elif isinstance(command, c.DrawCard):
        cards_play.draw_one(tx, seat, keep=timed_out)
    elif isinstance(command, c.ExchangeCard):
        cards_play.exchange(tx, seat, Card(command.colour, command.value))
    elif isinstance(command, c.BuyItem):
        shop.buy(tx, seat, command.item)
        return
    elif isinstance(command, c.UseItem):
        shop.use(tx, seat, command, shop.check_use(s, seat, command))
        check_finish(tx)
        return
    elif isinstance(command, ring.TURN_TYPES):
        ring.apply_turn(tx, seat, command)
    elif isinstance(command, c.FreeMove):
        move = find_move(s, seat, command.origin, command.target)
        assert move is not None
        resolve_move(tx, seat, move)
        end_turn(tx)
    else:  # KeepCard, EndTurn
        end_turn(tx)
    check_finish(tx)


def _ring_out_of_turn(tx: Tx, seat: int, command: msgspec.Struct) -> None:
    """A bid, a pass or a trade answer: any seat it concerns, out of turn too."""
    state = tx.state
    ring.check_out_of_turn(state, seat, command)
    decision = tx.ctx.timed_out
    if decision is not None:
        ring.check_ring_timeout(state, seat, decision, command, tx.ctx.now_ms)
    else:
        tx.emit(e.Acted(seat))
    close_uno(tx)
    ring.apply_out_of_turn(tx, seat, command)
    check_finish(tx)
