"""Налоги и находки: the luxury tax (100) is a debt to the bank on both boards; on the large
board the four finds pay the player who lands 50 / 100 / 150 / 200 from the bank, with no debt."""

from __future__ import annotations

import pytest
from pz_helpers import at, given, of, started, then, when

from puzzipolia import commands as c
from puzzipolia.events import DebtOpened, FindPaid

BOARDS = {"classic": (3, 38), "large": (9, 54)}  # players, the luxury tax square


@pytest.mark.parametrize("board", sorted(BOARDS))
def test_the_luxury_tax_is_a_debt_of_100_to_the_bank(board: str) -> None:
    players, square = BOARDS[board]
    state = given(at(0, square - 3), table=started(players, board=board))
    events = when(state, c.Roll(), dice=[1, 2])
    (debt,) = of(events, DebtOpened)
    assert (debt.debtor, debt.creditor, debt.amount, debt.square) == (0, None, 100, square)
    after = then(state, events)
    assert after.player(0).money == 1500  # nothing is taken by itself
    after = then(after, when(after, c.PayDebt()))
    assert after.player(0).money == 1400 and not after.debts


@pytest.mark.parametrize(("square", "amount"), [(5, 50), (21, 100), (35, 150), (50, 200)])
def test_a_find_pays_the_player_who_lands_and_opens_no_debt(square: int, amount: int) -> None:
    state = given(at(0, square - 3), table=started(9))
    events = when(state, c.Roll(), dice=[1, 2])
    assert of(events, FindPaid) == [FindPaid(seat=0, square=square, amount=amount, at_ms=events[0].at_ms)]
    assert of(events, DebtOpened) == []
    after = then(state, events)
    assert after.player(0).money == 1500 + amount and not after.debts
