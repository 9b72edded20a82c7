"""The shop (Лавка), first part: buying on your own turn and eight of the fifteen items.

Buying (`BuyItem`) is free of the turn: any number, on your turn before the action (phases
`action` / `continue`), while the gold lasts; bought items go to the inventory of 4 slots,
except the domino, which goes straight to the hand (at most 4 tiles). Using (`UseItem`): at most
one item per turn, before the action; the turn goes on.

Items here: domino 3, boots 5 (an extra move with any piece, no card), teleport 8 (an own piece
to any empty cell), medicine 4 (heals the own king), sledgehammer 3 (breaks any enemy tile),
new hand 4 (the hand goes under the discard pile, as many new cards are drawn), chameleon 4
(changes the current colour), castling swap 5 (two own pieces swap places). Mine, detector,
shield, resurrection, probe and spyglass: `rules/items.py`.
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.board import DOMINO_HAND_LIMIT, find_move, grid, no_such_move
from homunculus.cards import COLOURS
from homunculus.commands import BuyItem, UseItem, unused_fields
from homunculus.flow import Flow
from homunculus.rules import items
from homunculus.rules.draws import draw_cards, take_domino
from homunculus.rules.landing import resolve_move
from homunculus.rules.mines import land
from homunculus.rules.turn import end_turn
from homunculus.state import State
from tablehall_boards import Move
from tablehall_rules import illegal, invalid

PRICES: dict[str, int] = {
    "safe_conduct": 6,  # охранная грамота: works by itself on the next rent (rules.ring_roll)
    "domino": 3,
    "boots": 5,
    "teleport": 8,
    "medicine": 4,
    "sledgehammer": 3,
    "new_hand": 4,
    "chameleon": 4,
    "castling": 5,
}
INVENTORY_SLOTS = 4
AUTOMATIC = frozenset({"safe_conduct"})  # items that work by themselves, never used by a command
PRICES.update(items.PRICES)  # the second part's items (rules/items.py)


def check_buy(state: State, player: int, cmd: BuyItem) -> None:
    price = PRICES.get(cmd.item)
    if price is None:
        raise invalid("NO_SUCH_ITEM", "The shop has no such item.", "В лавке нет такого предмета.")
    if state.gold[player] < price:
        raise illegal("NOT_ENOUGH_GOLD", "Not enough gold.", "Не хватает золота.")
    if cmd.item == "domino":
        if len(state.domino_hands[player]) >= DOMINO_HAND_LIMIT or not state.bazaar.tiles:
            raise illegal(
                "NO_ROOM_FOR_TILE", "No room for a tile, or the bazaar is empty.", "Нет места для кости или базар пуст."
            )
    elif len(state.inventory[player]) >= INVENTORY_SLOTS:
        raise illegal("INVENTORY_FULL", "The inventory's 4 slots are full.", "Все 4 слота инвентаря заняты.")


def buy(flow: Flow, player: int, item: str) -> None:
    flow.emit(e.ItemBought(player, item, PRICES[item]))
    if item == "domino":
        take_domino(flow, player)


def _empty(state: State, cell: int) -> bool:
    return cell not in state.pieces and state.domino_at(cell) is None


def check_use(state: State, player: int, cmd: UseItem) -> Move | None:
    if cmd.item not in state.inventory[player]:
        raise illegal("NO_SUCH_ITEM_OWNED", "You have no such item.", "У вас нет такого предмета.")
    if cmd.item in AUTOMATIC:
        raise illegal("NOT_USABLE", "This item works by itself.", "Этот предмет срабатывает сам.")
    if state.item_used:
        raise illegal("ITEM_ALREADY_USED", "One item per turn.", "За ход можно применить один предмет.")
    if cmd.item in items.PRICES:
        items.check_use(state, player, cmd)
        return None
    size = len(grid())
    uses = {"boots": "ot", "teleport": "ot", "castling": "ot", "sledgehammer": "o", "chameleon": "c"}.get(cmd.item, "")
    if (
        ("o" not in uses and cmd.origin != -1)
        or ("t" not in uses and cmd.target != -1)
        or ("c" not in uses and cmd.colour != -1)
    ):
        raise unused_fields()
    if ("o" in uses and not 0 <= cmd.origin < size) or ("t" in uses and not 0 <= cmd.target < size):
        raise invalid("BAD_CELLS", "Cells of the board, please.", "Нужны клетки доски.")
    mine = state.pieces.get(cmd.origin) if cmd.origin >= 0 else None
    if cmd.item == "boots":
        move = find_move(state, player, cmd.origin, cmd.target)
        if move is None:
            raise no_such_move()
        return move
    if cmd.item == "teleport":
        if mine is None or mine.side != player or not _empty(state, cmd.target):
            raise illegal("BAD_TELEPORT", "An own piece to an empty cell.", "Своя фигура — на пустую клетку.")
    elif cmd.item == "castling":
        other = state.pieces.get(cmd.target)
        if mine is None or other is None or mine.side != player or other.side != player or cmd.origin == cmd.target:
            raise illegal("BAD_SWAP", "Two of your own pieces.", "Нужны две свои фигуры.")
    elif cmd.item == "sledgehammer":
        tile = state.domino_at(cmd.origin)
        if tile is None or state.allied(player, tile.owner):
            raise illegal("NO_ENEMY_TILE", "Name a cell of an enemy tile.", "Укажите клетку вражеской кости.")
    elif cmd.item == "chameleon":
        if cmd.colour not in COLOURS:
            raise invalid("CHOOSE_COLOUR", "Choose a colour 0 to 3.", "Выберите цвет от 0 до 3.")
    elif cmd.item == "medicine" and not state.wounded[player]:
        raise illegal("KING_NOT_WOUNDED", "Your king is not wounded.", "Ваш король не ранен.")
    return None


def use(flow: Flow, player: int, cmd: UseItem, move: Move | None) -> None:
    flow.emit(e.ItemUsed(player, cmd.item))
    s = flow.state
    if cmd.item == "boots" and move is not None:
        resolve_move(flow, player, move)
    elif cmd.item == "teleport":
        flow.emit(e.PieceMoved(player, cmd.origin, cmd.target))
        land(flow, player, cmd.target)
    elif cmd.item == "castling":
        flow.emit(e.PiecesSwapped(cmd.origin, cmd.target))
        for cell in (cmd.target, cmd.origin):  # each piece now stands on a new cell and opens it
            if not flow.state.finished and cell in flow.state.pieces:
                land(flow, player, cell)
    elif cmd.item == "sledgehammer":
        tile = s.domino_at(cmd.origin)
        assert tile is not None
        flow.emit(e.DominoRemoved(tile.id, "hammer"))
    elif cmd.item == "chameleon":
        flow.emit(e.ColourChanged(cmd.colour))
    elif cmd.item == "medicine":
        flow.emit(e.KingHealed(player))
    elif cmd.item == "new_hand":
        count = len(s.hands[player])
        flow.emit(e.HandDiscarded(player))
        draw_cards(flow, player, count, "new_hand")
    elif cmd.item in items.PRICES:
        items.use(flow, player, cmd)
    if not flow.state.alive[player] and not flow.state.finished:
        end_turn(flow)


def usable_targets(state: State, player: int) -> dict[str, list[tuple[int, list[int]]]]:
    """Per item with cells, (origin, targets) pairs for the descriptors."""
    out: dict[str, list[tuple[int, list[int]]]] = {}
    own = sorted(c for c, p in state.pieces.items() if p.side == player)
    taken = set(state.pieces) | {x for d in state.dominoes for x in d.cells}
    empty = [c for c in range(len(grid())) if c not in taken]  # `_empty` of every cell at once
    out["teleport"] = [(o, empty) for o in own] if empty else []
    out["castling"] = [(o, [x for x in own if x != o]) for o in own] if len(own) > 1 else []
    return out
