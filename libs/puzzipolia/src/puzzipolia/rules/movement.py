"""Moving a token and resolving the square it lands on."""

from __future__ import annotations

from puzzipolia.board import SALARY
from puzzipolia.events import FindPaid, Moved, NoRent, PurchaseOffered, SalaryPaid, SentToJail
from puzzipolia.flow import Flow
from puzzipolia.rules.debts import open_debt
from puzzipolia.rules.rent import rent_due


def move_by(f: Flow, seat: int, steps: int, via: str) -> None:
    """Forward `steps` squares; passing or landing on Start pays the salary."""
    size = f.state.geometry.size
    start = f.state.player(seat).position
    f.emit(Moved(seat=seat, from_square=start, to_square=(start + steps) % size, via=via))
    if start + steps >= size:
        f.emit(SalaryPaid(seat=seat, amount=SALARY))


def move_to(f: Flow, seat: int, target: int, via: str) -> None:
    size = f.state.geometry.size
    steps = (target - f.state.player(seat).position) % size
    move_by(f, seat, steps, via)


def move_back(f: Flow, seat: int, steps: int) -> None:
    size = f.state.geometry.size
    start = f.state.player(seat).position
    f.emit(Moved(seat=seat, from_square=start, to_square=(start - steps) % size, via="back"))


def land(f: Flow, seat: int, mode: str = "normal") -> None:
    """Resolve the square under the token. `mode` carries a card's rent rule."""
    st = f.state
    index = st.player(seat).position
    sq = st.geometry.squares[index]
    kind = sq.kind
    if kind == "go_to_jail":
        f.emit(SentToJail(seat=seat, reason="square"))
    elif kind == "tax":
        open_debt(f, seat, None, sq.amount, "tax", square=index)
    elif kind == "find":
        f.emit(FindPaid(seat=seat, square=index, amount=sq.amount))
    elif kind in ("chance", "chest"):
        from puzzipolia.rules.cards_play import draw_card  # cards move tokens too

        draw_card(f, seat, kind)
    elif sq.is_ownable:
        _land_on_lot(f, seat, index, mode)


def _land_on_lot(f: Flow, seat: int, index: int, mode: str) -> None:
    st = f.state
    owner = st.owners[index]
    if owner < 0:
        f.emit(PurchaseOffered(seat=seat, square=index))
        return
    if owner == seat:
        return
    if st.mortgaged[index]:
        f.emit(NoRent(seat=seat, square=index, why="mortgaged"))
        return
    dice_total = sum(st.dice)
    if mode == "ten":
        from puzzipolia.events import CardDiceRolled

        dice = f.roll_dice()
        f.emit(CardDiceRolled(seat=seat, dice=dice))
        dice_total = sum(dice)
    open_debt(f, seat, owner, rent_due(st, index, dice_total, mode), "rent", square=index)
