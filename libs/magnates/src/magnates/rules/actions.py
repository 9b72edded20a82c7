"""The seat commands' rules, each checked against the open decision and then carried out."""

from __future__ import annotations

from magnates import board, tables
from magnates import commands as c
from magnates import events as e
from magnates.flow import Flow
from magnates.rules import combat, movement, turn
from magnates.rules.money import charge
from magnates.rules.options import arbitrage_cells, effective, office_choices, shop_pieces, upgrade_cells
from magnates.rules.worth import company_value, fine
from magnates.state import BANK, Stop
from tablehall_rules import illegal, invalid

# what the turn expects in each phase, said with the refusal of anything else
EXPECTED: dict[str, tuple[str, str]] = {
    "roll": ("Roll first.", "Сначала бросьте кубики."),
    "move": ("Move a piece first.", "Сначала сходите фигурой."),
    "king_stop": ("Finish the King's stop first (its options, or end it).", "Сначала закончите остановку Короля."),
    "piece_stop": ("Finish the piece's stop first (its options, or end it).", "Сначала закончите остановку фигуры."),
    "fine": ("Pay the fine first.", "Сначала заплатите штраф."),
    "over": ("The game is over.", "Игра окончена."),
}


def _phase(flow: Flow, *phases: str) -> None:
    if flow.state.phase not in phases:
        en, ru = EXPECTED.get(flow.state.phase, ("Wait for your moment.", "Дождитесь своего момента."))
        raise illegal("NOT_NOW", f"That is not a move of this moment. {en}", f"Сейчас этот ход невозможен. {ru}")


def _stop(flow: Flow, seat: int) -> Stop:
    _phase(flow, "king_stop", "piece_stop")
    stop = flow.state.stop
    assert stop is not None
    return effective(flow.state, seat, stop)


def _used(flow: Flow, seat: int, **flags: bool) -> None:
    """The stop's option is taken (at most one of each per stop); the stop goes on or closes."""
    stop = flow.state.stop
    assert stop is not None
    new = Stop(
        stop.cell,
        stop.by_king,
        company=stop.company and flags.get("company", True),
        upgrade=stop.upgrade and flags.get("upgrade", True),
        arbitrage=stop.arbitrage and flags.get("arbitrage", True),
        shop=stop.shop and flags.get("shop", True),
        attack=stop.attack and flags.get("attack", True),
    )
    turn.close_stop(flow, seat, new)


def roll(flow: Flow, command: c.Roll, seat: int) -> None:
    _phase(flow, "roll")
    turn.roll(flow, seat)


def buy_company(flow: Flow, command: c.BuyCompany, seat: int) -> None:
    stop = _stop(flow, seat)
    if not stop.company:
        raise illegal("NO_COMPANY_TO_BUY", "There is no Company you can buy here.", "Здесь нечего купить.")
    flow.emit(e.Paid(seat, BANK, board.square(stop.cell).price, "company", stop.cell))
    flow.emit(e.CompanyChanged(stop.cell, seat, 0, "bought"))
    if stop.by_king:
        _used(flow, seat, company=False)
    else:
        turn.after_piece(flow, seat)


def upgrade(flow: Flow, command: c.Upgrade, seat: int) -> None:
    stop = _stop(flow, seat)
    if not stop.upgrade or command.cell not in upgrade_cells(flow.state, seat):
        raise illegal("CANNOT_UPGRADE", "You cannot upgrade that Company now.", "Эту Компанию сейчас не улучшить.")
    cell = command.cell
    flow.emit(e.Paid(seat, BANK, board.upgrade_cost(cell), "upgrade", cell))
    flow.emit(e.CompanyChanged(cell, seat, flow.state.level[cell] + 1, "upgrade"))
    _used(flow, seat, upgrade=False)


def arbitrage_buy(flow: Flow, command: c.ArbitrageBuy, seat: int) -> None:
    stop = _stop(flow, seat)
    if not stop.arbitrage or command.cell not in arbitrage_cells(flow.state, seat):
        raise illegal("CANNOT_ARBITRAGE", "You cannot buy that Company now.", "Эту Компанию сейчас не купить.")
    cell = command.cell
    owner, level = flow.state.owner[cell], flow.state.level[cell]
    flow.emit(e.Paid(seat, owner, company_value(flow.state, cell), "arbitrage", cell))
    flow.emit(e.CompanyChanged(cell, seat, level, "arbitrage"))
    _used(flow, seat, arbitrage=False)


def buy_piece(flow: Flow, command: c.BuyPiece, seat: int) -> None:
    if command.piece not in tables.PIECES:
        raise invalid("NO_SUCH_PIECE", "No such piece.", "Нет такой фигуры.")
    stop = _stop(flow, seat)
    if not stop.shop or command.piece not in shop_pieces(flow.state, seat):
        raise illegal("CANNOT_BUY_PIECE", "You cannot buy that piece now.", "Эту фигуру сейчас не купить.")
    if command.office not in office_choices(flow.state, seat):
        raise illegal(
            "NOT_AN_OFFICE", "Place the piece on a free Office of yours.", "Ставьте фигуру в свой свободный Офис."
        )
    occupant = flow.state.piece_at(command.office)
    if occupant is not None:
        flow.emit(e.PieceLost(occupant[0], occupant[1], "displaced"))
    flow.emit(e.Paid(seat, BANK, tables.PIECE_PRICE[command.piece], "piece"))
    flow.emit(e.PiecePlaced(seat, command.piece, command.office))
    _used(flow, seat, shop=False)


def attack_king(flow: Flow, command: c.AttackKing, seat: int) -> None:
    stop = _stop(flow, seat)
    defender = movement.lone_enemy_king(flow.state, seat, stop.cell)
    if not stop.attack or defender is None:
        raise illegal("NO_KING_TO_ATTACK", "There is no lone King here to attack.", "Здесь нет одинокого Короля.")
    combat.duel(flow, seat, "king", defender, "king")
    if flow.over:
        return
    _used(flow, seat, attack=False)


def end_stop(flow: Flow, command: c.EndStop, seat: int) -> None:
    stop = _stop(flow, seat)
    if stop.by_king:
        turn.after_king(flow, seat)
    else:
        turn.after_piece(flow, seat)


def move_piece(flow: Flow, command: c.MovePiece, seat: int) -> None:
    _phase(flow, "move")
    state = flow.state
    if command.piece not in tables.PIECES:
        raise invalid("NO_SUCH_PIECE", "No such piece.", "Нет такой фигуры.")
    if command.to not in movement.piece_ends(state, seat, command.piece):
        raise illegal("CANNOT_MOVE_THERE", "That piece cannot end its move there.", "Эта фигура не может туда пойти.")
    start = state.players[seat].pieces[command.piece]
    if board.is_perimeter(command.to):
        defender = movement.lone_enemy_king(state, seat, command.to)
        assert defender is not None
        # the attacker of a lone King on the perimeter returns to its start cell after the duel
        combat.duel(flow, seat, command.piece, defender, "king")
        turn.end_turn(flow)
        return
    occupant = state.piece_at(command.to)
    if occupant is not None and not combat.duel(flow, seat, command.piece, occupant[0], occupant[1]):
        turn.end_turn(flow)
        return
    flow.emit(e.PieceMoved(seat, command.piece, start, command.to))
    turn.piece_arrives(flow, seat, command.piece, command.to)


def pass_move(flow: Flow, command: c.PassMove, seat: int) -> None:
    _phase(flow, "move")
    turn.end_turn(flow)


def pay_fine(flow: Flow, command: c.PayFine, seat: int) -> None:
    _phase(flow, "fine")
    stop = flow.state.stop
    assert stop is not None
    charge(flow, seat, flow.state.owner[stop.cell], fine(flow.state, stop.cell), "fine", stop.cell)
    turn.end_turn(flow)


def raid(flow: Flow, command: c.Raid, seat: int) -> None:
    _phase(flow, "fine")
    stop = flow.state.stop
    assert stop is not None
    combat.raid(flow, seat, flow.state.piece, stop.cell)
    turn.end_turn(flow)
