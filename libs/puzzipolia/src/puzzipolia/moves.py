"""The seat's legal moves as descriptors (`tablehall_rules.legal`).

`legal.legal_commands` lists concrete commands; here they become descriptors
that say the whole of what is allowed:

- a bid is any amount from the lowest allowed to the bidder's cash;
- a trade offer to a partner the seat may propose to now is any pair of
  bundles the trade rules accept (engine rule `trade_bundle`, documented in
  docs/rules/puzzipolia.md §trades), with the listed example offer, if any,
  as the rule's example;
- everything else is listed as it is.
"""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.legal import legal_commands
from puzzipolia.rules.trades import propose_problem
from puzzipolia.state import Bundle, State
from tablehall_rules.legal import IntRange, LegalMove, Rule, move

TRADE_BUNDLE = "trade_bundle"


def legal_moves(state: State, seat: int, now_ms: int) -> list[LegalMove]:
    out: list[LegalMove] = []
    examples: dict[int, c.ProposeTrade] = {}
    for command in legal_commands(state, seat, now_ms):
        if isinstance(command, c.Bid):
            out.append(move(command, amount=IntRange(command.amount, state.player(seat).money)))
        elif isinstance(command, c.ProposeTrade):
            examples[command.to_seat] = command
        else:
            out.append(LegalMove(command))
    out.extend(_trade_moves(state, seat, now_ms, examples))
    return out


def _trade_moves(st: State, seat: int, now_ms: int, examples: dict[int, c.ProposeTrade]) -> list[LegalMove]:
    # the same gate as decide's: a seat still in a running game; propose_problem says the rest
    if st.phase == "over" or not st.has_seat(seat) or not st.player(seat).is_playing:
        return []
    out = []
    for other in st.live_seats():
        if other == seat or propose_problem(st, seat, other, now_ms) is not None:
            continue
        example = examples.get(other)
        gives = [example.give] if example else []
        gets = [example.get] if example else []
        template = c.ProposeTrade(to_seat=other, give=Bundle(), get=Bundle())
        out.append(move(template, give=Rule(TRADE_BUNDLE, gives), get=Rule(TRADE_BUNDLE, gets)))
    return out
