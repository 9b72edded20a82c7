"""Cards: both classic decks plus «67!», every effect, and a journal line for each."""

from __future__ import annotations

import pytest
from pz_helpers import at, given, houses, kinds, money, of, owns, refused, started, then, when

from puzzipolia import commands as c
from puzzipolia.cards import all_cards, deck_cards
from puzzipolia.events import (
    CardDiceRolled,
    CardDrawn,
    Choice67Made,
    DebtOpened,
    Event,
    MoneyTransferred,
    Moved,
    SalaryPaid,
    SentToJail,
)
from puzzipolia.game import GAME
from puzzipolia.journal import entry
from puzzipolia.state import State

CHANCE_AT_7 = [3, 4]  # from GO: 7 is Chance
CHEST_AT_2 = [1, 1]  # from GO: 2 is Community Chest (doubles, harmless here)


def draw(card: str, *setup: Event, players: int = 3, dice: list[int] | None = None) -> tuple[State, list[Event]]:
    deck = card.split(".")[0]
    table = started(players, **{deck: [card]})  # type: ignore[arg-type]
    state = given(*setup, table=table)
    events = when(state, c.Roll(), dice=(dice or (CHANCE_AT_7 if deck == "chance" else CHEST_AT_2)))
    assert of(events, CardDrawn)[0].card == card
    return state, events


def test_both_decks_have_16_classic_cards_plus_67() -> None:
    for deck in ("chance", "chest"):
        cards = deck_cards(deck)
        assert len(cards) == 17 and f"{deck}.67" in cards
    texts = {k.en for k in all_cards().values()}
    assert "Grand Opera Night. Collect 50 from every player for opening night seats." in texts
    assert all(k.ru and k.en for k in all_cards().values())


def test_money_from_the_bank() -> None:
    _, events = draw("chance.building_loan")
    assert of(events, MoneyTransferred)[0].amount == 150 and of(events, MoneyTransferred)[0].payee == 0


def test_a_fine_is_a_debt_to_the_bank() -> None:
    _, events = draw("chest.school_tax")
    debt = of(events, DebtOpened)[0]
    assert (debt.amount, debt.creditor, debt.reason) == (150, None, "card")


def test_advance_to_a_square_passing_start_pays() -> None:
    _, events = draw("chance.st_charles", at(0, 15), dice=[3, 4])  # 22 Chance -> 11, past GO
    assert of(events, Moved)[-1].to_square == 11
    assert of(events, SalaryPaid)
    _, events = draw("chance.illinois")  # 7 -> 24, GO not passed
    assert of(events, Moved)[-1].to_square == 24 and not of(events, SalaryPaid)


def test_advance_to_go() -> None:
    _, events = draw("chest.go")
    assert of(events, Moved)[-1].to_square == 0 and of(events, SalaryPaid)[0].amount == 200


def test_nearest_transport_pays_double() -> None:
    _, events = draw("chance.railroad_1", *owns(1, 15))
    assert of(events, Moved)[-1].to_square == 15
    assert of(events, DebtOpened)[0].amount == 50 and of(events, DebtOpened)[0].creditor == 1


def test_nearest_transport_unowned_may_be_bought() -> None:
    state, events = draw("chance.railroad_2")
    assert then(state, events).phase == "buy"


def test_nearest_utility_pays_ten_times_a_new_roll() -> None:
    state = given(*owns(1, 12), table=started(chance=["chance.utility"]))
    events = when(state, c.Roll(), dice=[3, 4, 6, 5])
    assert of(events, CardDiceRolled)[0].dice == [6, 5]
    assert of(events, DebtOpened)[0].amount == 110


def test_back_three_squares() -> None:
    _, events = draw("chance.back_three")
    assert of(events, Moved)[-1].to_square == 4
    assert of(events, DebtOpened)[0].amount == 200  # income tax


def test_go_to_jail_card() -> None:
    _, events = draw("chest.go_to_jail")
    assert of(events, SentToJail)[0].reason == "card"


def test_repairs_per_house_and_hotel() -> None:
    setup = [*owns(0, 37, 39), *houses(0, 37, 3), *houses(0, 39, 5)]
    _, events = draw("chance.repairs", *setup)
    assert of(events, DebtOpened)[0].amount == 3 * 25 + 100
    _, events = draw("chest.street_repairs", *setup)
    assert of(events, DebtOpened)[0].amount == 3 * 40 + 115
    _, events = draw("chance.repairs")
    assert "NothingHappened" in kinds(events)


def test_pay_each_player() -> None:
    _, events = draw("chance.chairman")
    debts = of(events, DebtOpened)
    assert [(d.debtor, d.creditor, d.amount) for d in debts] == [(0, 1, 50), (0, 2, 50)]


def test_collect_from_each_player_at_a_small_table_is_a_debt_for_each() -> None:
    _, events = draw("chest.opera")
    debts = of(events, DebtOpened)
    assert [(d.debtor, d.creditor, d.amount) for d in debts] == [(1, 0, 50), (2, 0, 50)]


def test_collect_from_each_player_at_a_big_table_is_paid_at_once_by_all_who_can() -> None:
    state, events = draw("chest.opera", money(3, -1480), players=7)
    paid = of(events, MoneyTransferred)
    assert sorted(p.payer for p in paid) == [1, 2, 4, 5, 6]
    debts = of(events, DebtOpened)
    assert [(d.debtor, d.creditor) for d in debts] == [(3, 0)]
    after = then(state, events)
    assert after.player(0).money == 1500 + 250
    assert GAME.pending(after)[0].seat == 3  # only the one who cannot pay is waited for


def test_get_out_of_jail_card_is_kept() -> None:
    state, events = draw("chest.jail_free")
    after = then(state, events)
    assert after.player(0).jail_cards == ["chest.jail_free"] and len(after.decks["chest"]) == 16


def test_a_drawn_card_goes_under_its_deck() -> None:
    state, events = draw("chance.dividend")
    after = then(state, events)
    assert after.decks["chance"][-1] == "chance.dividend" and len(after.decks["chance"]) == 17


def test_67_is_a_choice_of_6_or_7_with_7_by_default() -> None:
    state, events = draw("chance.67")
    state = then(state, events)
    assert state.phase == "card67"
    decision = GAME.pending(state)[0]
    assert decision.kind == "card67" and GAME.default_command(state, decision) == c.Choose67(steps=7)
    refused(state, c.Choose67(steps=5), "BAD_CHOICE")
    events = when(state, c.Choose67(steps=6))
    assert of(events, Choice67Made)[0].steps == 6 and of(events, Moved)[-1].to_square == 13
    events = when(state, c.Choose67(steps=7), timeout=True, now=10**6)
    assert of(events, Moved)[-1].to_square == 14


def test_67_passing_start_pays() -> None:
    state, events = draw("chance.67", at(0, 29))  # 36 Chance
    state = then(state, events)
    events = when(state, c.Choose67(steps=7))
    assert of(events, SalaryPaid)
    assert then(state, events).player(0).position == 3


@pytest.mark.parametrize("card", sorted(all_cards()))
def test_every_card_has_its_text_and_a_journal_line_of_what_happened(card: str) -> None:
    state, events = draw(card, *owns(1, 5, 12, 15, 25, 28, 35))
    after = then(state, events)
    lines = [entry(e, after) for e in events]
    drawn = next(line for e, line in zip(events, lines, strict=True) if isinstance(e, CardDrawn))
    text = all_cards()[card]
    assert text.ru in drawn.ru and text.en in drawn.en
    assert drawn.params["text"] == {"ru": text.ru, "en": text.en}
    following = lines[lines.index(drawn) + 1 :]
    if text.kind not in ("jail_free", "sixty_seven"):
        assert following and all(x.ru and x.en for x in following)
