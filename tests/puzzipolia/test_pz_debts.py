"""Debts wait: pay when able, collect (mortgage and sell, cheapest first, shown in advance)
or surrender. Bankruptcy: buildings to the bank at half; a player creditor takes money,
lots and cards; owed to the bank, lots become unowned."""

from __future__ import annotations

from pz_helpers import at, given, houses, money, of, owns, refused, started, then, when

from puzzipolia import commands as c
from puzzipolia.events import (
    AssetsLiquidated,
    CardDrawn,
    DebtOpened,
    DebtPaid,
    Event,
    LiquidationStep,
    PlayerEliminated,
    TurnStarted,
)
from puzzipolia.game import GAME
from puzzipolia.state import State
from tablehall_rules import Viewer


def owing(amount: int, *setup: Event, creditor: int | None = 1) -> State:
    debt = DebtOpened(debt_id=1, debtor=0, creditor=creditor, amount=amount, reason="rent", square=39)
    return given(*setup, debt)


def test_nothing_is_taken_automatically() -> None:
    state = given(*owns(1, 5))
    events = when(state, c.Roll(), dice=[2, 3])
    after = then(state, events)
    assert after.player(0).money == 1500 and after.player(1).money == 1500
    assert after.debts[0].amount == 25
    refused(after, c.EndTurn(), "DEBTS_OPEN")


def test_pay_when_able() -> None:
    state = owing(300)
    events = when(state, c.PayDebt())
    assert of(events, DebtPaid) == [DebtPaid(debt_id=1, debtor=0, creditor=1, amount=300, at_ms=1000)]
    after = then(state, events)
    assert (after.player(0).money, after.player(1).money, after.debts) == (1200, 1800, [])
    refused(owing(2000), c.PayDebt(), "NOT_ENOUGH_MONEY")
    refused(given(), c.PayDebt(), "NO_DEBT")


def test_collect_mortgages_and_sells_cheapest_first_and_the_view_shows_it_before() -> None:
    setup = [money(0, -1450), *owns(0, 1, 3, 5, 12), *houses(0, 1, 1)]
    state = owing(200, *setup)
    plan = GAME.view(state, Viewer.of_seat(0))["me"]["collect"]
    events = when(state, c.CollectDebt())
    steps = of(events, AssetsLiquidated)[0].steps
    # brown houses sell at 25 before any mortgage of that set; then the cheapest mortgages
    assert steps == [
        LiquidationStep(action="sell", square=1, amount=25),
        LiquidationStep(action="mortgage", square=1, amount=30),
        LiquidationStep(action="mortgage", square=3, amount=30),
        LiquidationStep(action="mortgage", square=12, amount=75),
    ]
    assert plan["covers"] and plan["steps"] == [
        {"action": s.action, "square": s.square, "amount": s.amount} for s in steps
    ]
    after = then(state, events)
    assert after.player(0).money == 50 + 160 - 200 and not after.debts


def test_collect_refused_when_everything_would_not_cover_and_the_default_surrenders() -> None:
    state = owing(2000)
    refused(state, c.CollectDebt(), "CANNOT_COLLECT")
    decision = next(d for d in GAME.pending(state) if d.kind == "debt")
    assert GAME.default_command(state, decision) == c.Surrender()
    assert GAME.default_command(owing(100), decision) == c.CollectDebt()


def test_bankruptcy_to_a_player_hands_over_money_lots_and_cards() -> None:
    setup = [
        *owns(0, 37, 39, 5),
        *houses(0, 37, 2),
        *houses(0, 39, 2),
        CardDrawn(seat=0, deck="chance", card="chance.jail_free"),
        TurnStarted(seat=0, round=1),
    ]
    state = owing(5000, *setup)
    events = when(state, c.Surrender())
    gone = of(events, PlayerEliminated)[0]
    assert (gone.creditor, gone.buildings_refund, gone.money) == (1, 400, 1900)
    after = then(state, events)
    assert after.player(1).money == 1500 + 1900
    assert [after.owners[i] for i in (5, 37, 39)] == [1, 1, 1] and after.houses[37] == 0
    assert after.player(1).jail_cards == ["chance.jail_free"]
    assert after.player(0).status == "bankrupt" and not after.debts
    assert after.active == 1  # the turn passes on


def test_bankruptcy_to_the_bank_makes_lots_unowned() -> None:
    setup = [*owns(0, 5, 12), *owns(0, 15)]
    state = owing(5000, *setup, creditor=None)
    after = then(state, when(state, c.Surrender()))
    assert [after.owners[i] for i in (5, 12, 15)] == [-1, -1, -1]
    assert after.player(1).money == 1500


def test_debt_of_a_rival_blocks_the_turn_until_paid() -> None:
    state = given(at(0, 0), table=started(chest=["chest.opera"]))
    state = then(state, when(state, c.Roll(), dice=[1, 1]))
    refused(state, c.Roll(), "DEBTS_OPEN")
    assert {d.seat for d in GAME.pending(state)} == {1, 2}
    state = then(state, when(state, c.PayDebt(), 1))
    state = then(state, when(state, c.PayDebt(), 2))
    assert state.phase == "roll" and [d.kind for d in GAME.pending(state)] == ["roll"]


def test_leaving_in_debt_hands_the_creditor_the_lots_only() -> None:
    """⚑ «твои участки возвращаются в банк (при долге — кредитору)»: the creditor gets the lots
    (mortgaged ones stay mortgaged); the money leaves with the player, the cards go under their decks."""
    setup = [
        *owns(0, 37, 39, 5),
        *houses(0, 37, 2),
        CardDrawn(seat=0, deck="chance", card="chance.jail_free"),
        TurnStarted(seat=0, round=1),
    ]
    state = owing(5000, *setup)
    chance_before = len(state.decks["chance"])
    for command, seat, reason in ((c.Leave(), 0, "left"), (c.RemovePlayer(seat=0), None, "removed")):
        events = when(state, command, seat)
        gone = of(events, PlayerEliminated)[0]
        assert (gone.reason, gone.creditor, gone.money, gone.cards_to_decks) == (reason, 1, 0, True)
        after = then(state, events)
        assert [after.owners[i] for i in (5, 37, 39)] == [1, 1, 1] and after.houses[37] == 0
        assert after.player(1).money == 1500 and after.player(1).jail_cards == []
        assert after.decks["chance"][-1] == "chance.jail_free" and len(after.decks["chance"]) == chance_before + 1
        assert after.player(0).status == "left" and after.player(0).money == 0 and not after.debts


def test_leaving_without_debt_returns_lots_and_cards_to_the_bank() -> None:
    state = given(*owns(0, 5, 12), CardDrawn(seat=0, deck="chance", card="chance.jail_free"))
    events = when(state, c.Leave())
    gone = of(events, PlayerEliminated)[0]
    assert (gone.creditor, gone.money) == (None, 0)
    after = then(state, events)
    assert [after.owners[i] for i in (5, 12)] == [-1, -1] and after.decks["chance"][-1] == "chance.jail_free"
    assert after.player(1).money == 1500
