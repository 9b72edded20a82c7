"""Playing, drawing and exchanging cards; «Уно!» windows; the last card.

- A card is playable when it matches the top by colour or value, or is of the own army's
  colour (trump), or is wild (`cards.matches`). A piece card moves a piece of its kind
  (unplayable when none has a move); a wild card chooses a colour and moves any own piece
  (unplayable when no piece has a move); a wild +4 chooses a colour, the next player draws 4
  and skips; skip makes the next skip; reverse turns the order (a skip at two live players);
  +2 makes the next draw 2 and skip. Effects do not stack: each applies once, to the next.
- Drawing (fewer than 10 cards) takes one card; it may be played at once if playable,
  else it is kept. At 10 or more cards the action is an exchange instead: a card goes under
  the discard pile and a new one is drawn.
- A player left with one card opens a reaction window; with no card left it draws 5 and has
  a free move with any piece.
"""

from __future__ import annotations

from homunculus import cards as k
from homunculus import events as e
from homunculus.board import find_move, moves_of, no_such_move
from homunculus.cards import Card
from homunculus.commands import PlayCard, unused_fields
from homunculus.flow import Flow
from homunculus.rules.draws import draw_cards
from homunculus.rules.landing import resolve_move
from homunculus.rules.turn import end_turn
from homunculus.state import AFTER_DRAW, FREE_MOVE, State
from tablehall_boards import Move
from tablehall_rules import IllegalCommand, illegal, invalid


def not_in_hand() -> IllegalCommand:
    return illegal("CARD_NOT_IN_HAND", "You have no such card.", "У вас нет такой карты.")


def playable(state: State, player: int, card: Card, moves: list[Move] | None = None) -> bool:
    """Matches the pile, and (piece and wild cards) has a move. `moves`: every move of the
    player's pieces, when the caller has them already."""
    if not k.matches(card, state.top, state.colour, state.army_colour(player)):
        return False
    if card.piece is None and card.value != k.WILD_CARD:
        return True
    if moves is None:
        moves = moves_of(state, player, card.piece)
    return any(card.piece is None or state.pieces[m.origin].kind == card.piece for m in moves)


def check_play(state: State, player: int, cmd: PlayCard) -> tuple[Card, Move | None]:
    """The card and its move, or the refusal (own hand and public facts only)."""
    card = Card(cmd.colour, cmd.value)
    if not k.is_valid(card):
        raise invalid("NO_SUCH_CARD", "There is no such card.", "Такой карты нет.")
    if card not in state.hands[player]:
        raise not_in_hand()
    if state.phase == AFTER_DRAW and card != state.drawn:
        raise illegal(
            "ONLY_DRAWN_CARD",
            "Only the card just drawn may be played now.",
            "Сейчас можно сыграть только взятую карту.",
        )
    if not k.matches(card, state.top, state.colour, state.army_colour(player)):
        raise illegal(
            "CARD_DOES_NOT_MATCH",
            "The card matches the top card neither by colour nor by value.",
            "Карта не подходит к верхней ни по цвету, ни по значению.",
        )
    wild = card.is_wild
    if wild and cmd.choose_colour not in k.COLOURS:
        raise invalid("CHOOSE_COLOUR", "Choose a colour 0 to 3.", "Выберите цвет от 0 до 3.")
    if not wild and cmd.choose_colour != -1:
        raise unused_fields()
    moves_piece = card.piece is not None or card.value == k.WILD_CARD
    if not moves_piece:
        if cmd.origin != -1 or cmd.target != -1:
            raise unused_fields()
        return card, None
    move = find_move(state, player, cmd.origin, cmd.target, card.piece)
    if move is None:
        raise no_such_move()
    return card, move


def play_card(flow: Flow, player: int, card: Card, move: Move | None, choose: int) -> None:
    flow.emit(e.CardPlayed(player, card, choose if card.is_wild else card.colour))
    if move is not None:
        resolve_move(flow, player, move)
    s = flow.state
    if s.finished:
        return
    if card.value == k.SKIP:
        flow.emit(e.EffectQueued(skips=1))
    elif card.value == k.REVERSE:
        flow.emit(e.DirectionReversed(-s.direction))
        if len(s.live_players()) == 2:
            flow.emit(e.EffectQueued(skips=1))
    elif card.value == k.DRAW_TWO:
        flow.emit(e.EffectQueued(skips=1, draws=2))
    elif card.value == k.WILD_FOUR:
        flow.emit(e.EffectQueued(skips=1, draws=4))
    if not s.alive[player]:
        end_turn(flow)
        return
    left = len(s.hands[player])
    if left == 0:
        draw_cards(flow, player, k.EMPTY_HAND_REFILL, "refill")
        flow.emit(e.PhaseSet(FREE_MOVE, flow.now_ms))
        return
    if left == 1:
        flow.emit(e.UnoOpened(player))
    end_turn(flow)


def draw_one(flow: Flow, player: int, keep: bool) -> None:
    """Draw a card; then it may be played at once (phase AFTER_DRAW), or (`keep`) the turn ends."""
    draw_cards(flow, player, 1, "draw")
    if keep:
        end_turn(flow)
        return
    got = flow.events[-1]
    assert isinstance(got, e.CardsDrawn)
    flow.emit(e.DrawnSet(player, got.drawn.cards[0] if got.drawn.cards else None))
    flow.emit(e.PhaseSet(AFTER_DRAW, flow.now_ms))


def exchange(flow: Flow, player: int, card: Card) -> None:
    flow.emit(e.CardExchanged(player, card))
    draw_cards(flow, player, 1, "exchange")
    end_turn(flow)
