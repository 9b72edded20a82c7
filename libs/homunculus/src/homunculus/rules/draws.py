"""Drawing: cards from the deck, tiles from the bazaar (a player holds at most 4 tiles)."""

from __future__ import annotations

from homunculus import events as e
from homunculus.board import DOMINO_HAND_LIMIT
from homunculus.flow import Flow
from tablehall_boards.deck import draw
from tablehall_boards.dominoes import draw_tile


def draw_cards(flow: Flow, seat: int, count: int, reason: str) -> None:
    _, drawn = draw(flow.state.deck, count, flow.rng)
    flow.emit(e.CardsDrawn(seat, drawn, reason))


def take_domino(flow: Flow, player: int) -> None:
    """A tile from the bazaar, for a player holding fewer than 4, while the bazaar lasts."""
    s = flow.state
    if len(s.domino_hands[player]) >= DOMINO_HAND_LIMIT or not s.bazaar.tiles:
        return
    _, tile = draw_tile(s.bazaar, flow.rng)
    flow.emit(e.DominoTaken(player, tile))
