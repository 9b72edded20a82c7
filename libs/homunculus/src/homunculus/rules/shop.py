"""The shop (Лавка): buying on your own turn and the fifteen items' uses, targets and effects.

Buying (`BuyItem`) is free of the turn: any number, on your turn before the action (phases
`action` / `continue`), while the gold lasts; bought items go to the inventory of 4 slots,
except the domino, which goes straight to the hand (at most 4 tiles). Using (`UseItem`): at most
one item per turn, before the action; the turn goes on.

Items here: domino 3, boots 5 (an extra move with any piece, no card), teleport 8 (an own piece
to any empty cell), medicine 4 (heals the own king), sledgehammer 3 (breaks any enemy tile),
new hand 4 (the hand goes under the discard pile, as many new cards are drawn), chameleon 4
(changes the current colour), castling swap 5 (two own pieces swap places). The second part's six
items (below) are checked and applied by `_check_second` / `_use_second`.

The second part:
- Mine (мина) 4, `target` a cell: secretly on a closed empty cell (no piece, no tile, not
  opened), anywhere on the board. The mine is the user's: it and its allies see it, a piece of
  theirs landing on it takes it off, an enemy blown up on it pays the owner as for a capture.
  A cell where the user sees a mine is refused; a cell hiding a mine it cannot see is accepted
  (nothing may tell it of hidden mines) and the two mines explode together (as a domino would).
- Detector (миноискатель) 3, `target` the centre cell: the user, and only the user, sees the
  others' mines (anyone's but its own and its allies', which it sees anyway) in the 5×5 around
  the centre, as they are, until the end of its turn. The centre is public, the mines are not.
- Shield (щит) 6, `origin` an own unshielded piece: saves the piece once from a capture or a
  blast (a mine under it, the round die's detonation). A repelled attacker stays where it was.
- Resurrection (воскрешение) 12, `target` a cell: the strongest fallen own piece (strength as
  for piercing: pawn 1, knight/bishop 3, rook 5, queen 9; equal strength: the last fallen) back
  on an empty cell (no piece, no tile) of the two rows nearest the user's edge; it lands there
  as any piece (a hidden mine goes off, the cell opens).
- Probe (щуп) 4, `target` a cell: opens a closed cell safely (the 5×5 around a zero as when
  landing) and defuses a mine there, if any, whoever's.
- Spyglass (подзорная труба) 3, `target` a player's seat: the user sees that player's cards
  until the end of its turn; nobody else sees them.
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.board import DOMINO_HAND_LIMIT, STRENGTH, find_move, grid, no_such_move
from homunculus.cards import COLOURS
from homunculus.commands import BuyItem, UseItem, unused_fields
from homunculus.flow import Flow
from homunculus.rules.draws import draw_cards, take_domino
from homunculus.rules.landing import resolve_move
from homunculus.rules.mines import cells_opened_by, land, square5
from homunculus.rules.turn import end_turn
from homunculus.state import State
from tablehall_boards import Kind, Move, cross
from tablehall_rules import Choice, LegalMove, illegal, invalid
from tablehall_rules.legal import move as describe

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
    if cmd.item in SECOND_PART:
        _check_second(state, player, cmd)
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
    elif cmd.item in SECOND_PART:
        _use_second(flow, player, cmd)
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


# --- the second part: mine, detector, shield, resurrection, probe, spyglass ------------------


SECOND_PART: dict[str, int] = {
    "mine": 4,
    "detector": 3,
    "shield": 6,
    "resurrection": 12,
    "probe": 4,
    "spyglass": 3,
}
# which of the command's fields each item takes (the others stay -1)
FIELDS: dict[str, str] = {
    "mine": "target",
    "detector": "target",
    "shield": "origin",
    "resurrection": "target",
    "probe": "target",
    "spyglass": "target",
}
NEAREST_ROWS = (0, 1)  # the two rows nearest the player's own edge


# --- what a player knows -------------------------------------------------------------------


def detected(state: State, player: int) -> list[int]:
    """The cells of the others' mines the player's detector shows now ([] without one)."""
    if not state.detection or state.detection[0] != player:
        return []
    square = set(square5(state.detection[1]))
    return sorted(m.cell for m in state.mines if m.cell in square and not state.mine_visible_to(m, player))


def seen_mines(state: State, player: int) -> set[int]:
    """Every mine cell the player sees: its own and its allies', and what its detector shows."""
    return {m.cell for m in state.mines if state.mine_visible_to(m, player)} | set(detected(state, player))


def spied(state: State, player: int) -> int | None:
    """The player whose cards `player` sees through its spyglass now."""
    if state.spyglass and state.spyglass[0] == player:
        return state.spyglass[1]
    return None


def strongest_fallen(state: State, player: int) -> Kind | None:
    """The strongest of the player's fallen pieces (equal strength: the last fallen)."""
    best: Kind | None = None
    for kind in state.fallen.get(player, []):
        if kind != Kind.KING and (best is None or STRENGTH[kind] >= STRENGTH[best]):
            best = kind
    return best


# --- targets -------------------------------------------------------------------------------


def mine_cells(state: State, player: int) -> list[int]:
    opened, seen = set(state.opened), seen_mines(state, player)
    return [c for c in range(len(grid())) if c not in opened and c not in seen and _empty(state, c)]


def probe_cells(state: State) -> list[int]:
    opened = set(state.opened)
    return [c for c in range(len(grid())) if c not in opened]


def shield_cells(state: State, player: int) -> list[int]:
    shielded = set(state.shields)
    return sorted(c for c, p in state.pieces.items() if p.side == player and c not in shielded)


def resurrection_cells(state: State, player: int) -> list[int]:
    if strongest_fallen(state, player) is None:
        return []
    arm = state.arms[player]
    rows = set().union(*(cross.row_cells(arm, r) for r in NEAREST_ROWS))
    return sorted(c for c in rows if _empty(state, c))


def spyglass_seats(state: State, player: int) -> list[int]:
    return [p for p in state.live_players() if p != player]


def targets(state: State, player: int, item: str) -> list[int]:
    if item == "mine":
        return mine_cells(state, player)
    if item == "detector":
        return list(range(len(grid())))
    if item == "shield":
        return shield_cells(state, player)
    if item == "resurrection":
        return resurrection_cells(state, player)
    if item == "probe":
        return probe_cells(state)
    return spyglass_seats(state, player)


def descriptors(state: State, player: int, item: str) -> list[LegalMove]:
    """The item's use with its targets as a `Choice` (nothing when it has none)."""
    found = targets(state, player, item)
    if not found:
        return []
    return [describe(UseItem(item), **{FIELDS[item]: Choice(found)})]


# --- check and use -------------------------------------------------------------------------


def _check_second(state: State, player: int, cmd: UseItem) -> None:
    """Refuse a use of one of this module's items (ownership and the turn's one item checked)."""
    field = FIELDS[cmd.item]
    given = {"origin": cmd.origin, "target": cmd.target}
    if cmd.colour != -1 or any(v != -1 for name, v in given.items() if name != field):
        raise unused_fields()
    value = given[field]
    if cmd.item == "spyglass":
        if value not in spyglass_seats(state, player):
            raise illegal("NO_SUCH_PLAYER", "Name another player in the game.", "Укажите другого игрока в игре.")
        return
    if not 0 <= value < len(grid()):
        raise invalid("BAD_CELLS", "Cells of the board, please.", "Нужны клетки доски.")
    if cmd.item == "mine" and value not in mine_cells(state, player):
        raise illegal(
            "BAD_MINE_CELL",
            "A mine goes on a closed empty cell without a mine you see.",
            "Мину ставят на закрытую пустую клетку, где вы не видите мины.",
        )
    if cmd.item == "shield" and value not in shield_cells(state, player):
        raise illegal("BAD_SHIELD", "Shield one of your unshielded pieces.", "Щит — на свою фигуру без щита.")
    if cmd.item == "resurrection":
        if strongest_fallen(state, player) is None:
            raise illegal("NOTHING_FALLEN", "None of your pieces has fallen.", "Ни одна ваша фигура не пала.")
        if value not in resurrection_cells(state, player):
            raise illegal(
                "BAD_RESURRECTION",
                "An empty cell of the two rows nearest you.",
                "Пустая клетка на двух ближних к вам линиях.",
            )
    if cmd.item == "probe" and value in state.opened:
        raise illegal("CELL_OPEN", "The cell is already open.", "Клетка уже открыта.")


def _use_second(flow: Flow, player: int, cmd: UseItem) -> None:
    """Apply a checked use (after `ItemUsed`)."""
    s = flow.state
    if cmd.item == "mine":
        hidden = s.mine_at(cmd.target)
        flow.emit(e.MinePlaced(player, cmd.target))
        if hidden is not None:  # a mine the user could not see: both go off
            flow.emit(e.MineExploded(cmd.target, hidden.owner))
            flow.emit(e.MineExploded(cmd.target, player))
    elif cmd.item == "detector":
        flow.emit(e.DetectorUsed(player, cmd.target))
    elif cmd.item == "shield":
        flow.emit(e.ShieldGiven(cmd.origin))
    elif cmd.item == "resurrection":
        kind = strongest_fallen(s, player)
        assert kind is not None
        flow.emit(e.PieceResurrected(player, kind, cmd.target))
        land(flow, player, cmd.target)
    elif cmd.item == "probe":
        if s.mine_at(cmd.target) is not None:
            flow.emit(e.MineDefused(cmd.target))
        opened = cells_opened_by(flow.state, cmd.target)
        if opened:
            flow.emit(e.CellsOpened(opened))
    else:
        flow.emit(e.SpyglassUsed(player, cmd.target))


PRICES.update(SECOND_PART)
