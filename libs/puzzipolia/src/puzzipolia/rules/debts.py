"""Debts: nothing is taken automatically. A debt waits until the debtor pays,
lets the engine collect (mortgage and sell, cheapest first) or surrenders."""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.events import AssetsLiquidated, DebtOpened, DebtPaid, LiquidationStep, PlayerEliminated
from puzzipolia.flow import Flow
from puzzipolia.rules.guards import require_money
from puzzipolia.state import Debt, State
from tablehall_rules import illegal


def open_debt(
    f: Flow, debtor: int, creditor: int | None, amount: int, reason: str, square: int = -1, card: str = ""
) -> None:
    if amount <= 0:
        return
    f.emit(
        DebtOpened(
            debt_id=f.state.next_debt_id,
            debtor=debtor,
            creditor=creditor,
            amount=amount,
            reason=reason,
            square=square,
            card=card,
        )
    )


def oldest_debt(st: State, seat: int) -> Debt:
    for d in st.debts:
        if d.debtor == seat:
            return d
    raise illegal("NO_DEBT", "You owe nothing.", "Ты никому не должен.")


def collect_plan(st: State, seat: int, amount: int) -> tuple[list[LiquidationStep], bool]:
    """What "collect" would sell and mortgage to raise `amount` in cash, cheapest first.

    Each step is one building sold at half its cost (evenly: from the street with
    the most buildings of its group) or one lot mortgaged (no buildings in its
    group). Returns the steps and whether they cover the amount.
    """
    geometry = st.geometry
    houses = list(st.houses)
    mortgaged = list(st.mortgaged)
    need = amount - st.player(seat).money
    lots = st.lots_of(seat)
    steps: list[LiquidationStep] = []
    while need > 0:
        best: tuple[int, int, str] | None = None
        for index in lots:
            sq = geometry.squares[index]
            group = geometry.groups[sq.group]
            if houses[index] > 0 and houses[index] == max(houses[g] for g in group):
                option = (sq.house_cost // 2, index, "sell")
            elif not mortgaged[index] and all(houses[g] == 0 for g in group):
                option = (sq.mortgage_value, index, "mortgage")
            else:
                continue
            if best is None or option[:2] < best[:2]:
                best = option
        if best is None:
            return steps, False
        value, index, action = best
        if action == "sell":
            houses[index] -= 1
        else:
            mortgaged[index] = True
        steps.append(LiquidationStep(action=action, square=index, amount=value))
        need -= value
    return steps, True


def pay_debt(f: Flow, cmd: c.PayDebt, seat: int) -> None:
    debt = oldest_debt(f.state, seat)
    require_money(f.state, seat, debt.amount)
    f.emit(DebtPaid(debt_id=debt.id, debtor=seat, creditor=debt.creditor, amount=debt.amount))


def collect_debt(f: Flow, cmd: c.CollectDebt, seat: int) -> None:
    debt = oldest_debt(f.state, seat)
    steps, covered = collect_plan(f.state, seat, debt.amount)
    if not covered:
        raise illegal(
            "CANNOT_COLLECT",
            "Selling and mortgaging everything would not cover this debt.",
            "Даже продав и заложив всё, этот долг не покрыть.",
        )
    if steps:
        f.emit(AssetsLiquidated(seat=seat, steps=steps))
    f.emit(DebtPaid(debt_id=debt.id, debtor=seat, creditor=debt.creditor, amount=debt.amount))


def eliminate(f: Flow, seat: int, reason: str) -> None:
    """Out of the game; buildings go to the bank at half, and the creditor of the oldest debt
    (None: the bank) takes the lots.

    Bankruptcy (the seed: «Долг игроку — ему достаются твои деньги, участки и карточки»): a
    player creditor also takes the money (with the buildings' refund) and the cards. Leaving
    or being removed («твои участки возвращаются в банк (при долге — кредитору)»): only the
    lots go to the creditor; the money leaves the game with the player and the cards go
    under their decks, as when nobody is owed.
    """
    st = f.state
    debts = st.debts_of(seat)
    creditor = debts[0].creditor if debts else None
    geometry = st.geometry
    lots = st.lots_of(seat)
    refund = sum(st.houses[i] * geometry.squares[i].house_cost // 2 for i in lots)
    p = st.player(seat)
    bankrupt = reason == "bankrupt"
    f.emit(
        PlayerEliminated(
            seat=seat,
            reason=reason,
            creditor=creditor,
            buildings_refund=refund,
            money=p.money + refund if bankrupt else 0,
            lots=lots,
            cards=list(p.jail_cards),
            cards_to_decks=not bankrupt and creditor is not None,
        )
    )


def surrender(f: Flow, cmd: c.Surrender, seat: int) -> None:
    oldest_debt(f.state, seat)
    eliminate(f, seat, "bankrupt")


def leave(f: Flow, cmd: c.Leave, seat: int) -> None:
    eliminate(f, seat, "left")
