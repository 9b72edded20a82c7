"""The journal's words read right (issue 15): Russian cases and plurals, no doubled English."""

from __future__ import annotations

from pz_helpers import given, started

from puzzipolia.events import DebtOpened, DebtPaid, LeftJail, PurchaseDeclined
from puzzipolia.game import GAME


def _line(state: object, event: object) -> tuple[str, str]:
    entry = GAME.journal(state, event)[0]  # type: ignore[arg-type]
    return entry.ru, entry.en


def test_the_journal_words_read_right() -> None:
    state = given(*started(4))
    assert "4 игрока" in _line(None, started(4)[0])[0]
    assert "5 игроков" in _line(None, started(5)[0])[0]
    assert _line(state, LeftJail(seat=0, how="three_tries"))[1] == "P0 leaves jail after three tries."
    assert _line(state, LeftJail(seat=0, how="fine", fine=50))[1] == "P0 leaves jail by paying 50."
    owes = _line(state, DebtOpened(debt_id=1, debtor=0, creditor=None, amount=200, reason="tax", square=4))[0]
    assert owes.startswith("P0 должен банку 200")
    assert _line(state, DebtPaid(debt_id=1, debtor=0, creditor=None, amount=200))[0] == "P0 платит банку 200."
    assert _line(state, PurchaseDeclined(seat=0, square=29))[0] == "P0 отказывается покупать «Марвинские сады»."
