"""The heuristic bot, in two sets of weights, and the random policy; both read the view and the
legal commands (the heuristic also reads a full state, for a search's rollouts: `choose_in_state`,
the same moves).

One heuristic (`decide`), its thresholds and weights a `Weights`: `EASY` for the easy bot
(`bot_policy`; the bot service adds 15 % random moves) and the baseline, `STRONG` for the strong
bot's search (its own move and its ranking of the others, `ranked`, and its playouts).

Net worth counts Companies, upgrades and pieces at what they cost, so buying is never a loss in
worth and earns fines or power: the heuristic buys Companies, lost pieces (Queen first), upgrades
and arbitrage Companies while a reserve of 1500 stays in cash (a forced sale loses half). It never
attacks with its King. Money that changes hands counts twice, as its own gain and its rival's loss
(what decides the places is worth against the others'): a raid's win takes the Company from its
owner, a fine pays the owner. It moves the piece whose move has the best expected worth (duels and
raids weighed by their odds and the prices at stake; an affordable unowned Company; the fine or
the raid of an enemy one), or passes when every move loses on expectation; at an enemy inner
Company it raids when the raid's expected worth beats paying the fine. A King with one piece left
is a King about to be lone (open to every attack, and a lost duel ends the game): that last piece
is risked only for a much better reason (LONE), and a lost piece is bought back whatever the
reserve.

`STRONG` differs in four decisions. Heads-up games at a round limit of 20 are won by raids on
inner Companies (400 games of `STRONG` against easy: no King was ever lone, no player went out,
fines came to a few hundred a game; the strong side raided 3.1 times a game and won 1.8, easy
1.4 and 0.8, and the strong side passed 17 of its 20 moves): an inner
Company is the rival's raid target (a rook takes a level-0 one 21 times in 36, and the raid
moves 800 or 1200 from its owner to the raider). So `STRONG`
- leaves inner Companies to the bank (`buy_inner`: a piece neither buys one nor moves for one);
- counts a Company won by a raid at half its value for itself (`raid_keep`: the rival raids it
  back), and passes a move worth less than 200 (`pass_below`: long-odds raids);
- keeps a piece that stands on its own inner Company there (`guard`: leaving costs half the
  Company's value; an enemy piece must win a duel on it before it can raid).

Measured with `tests/bench/tune_magnates.py` (the heuristic alone, no search, against the bot
service's easy player; each seed played with the sides in both seats; tuned on seeds 0-999, 2,000
games a candidate, reported on seeds 100000-100999, 2,000 games each, 95 % Wilson intervals):
`STRONG` beat easy in 67.2 % (65.1-69.2 %) and random in 69.5 % (67.4-71.4 %); `EASY` without the
noise beat easy in 54.0 % (51.8-56.2 %) and random in 63.8 % (61.7-65.9 %). Through the bot
service's levels (`tests/bench/bench_bot.py --only magnates --pairing P --think-ms 200`): strong
(the search over `STRONG`) beat easy in 74.5 % (70.0-78.5 %, 400 games) and random in 72.5 %
(65.9-78.2 %, 200 games); easy beat random in 66.0 % (63.0-68.9 %, 1,000 games). Before, strong
played `EASY`'s moves and beat easy in 51.2 % (47.2-55.1 %, 600 games).
Tried and measured without effect (within the ±3 % of 1,000 games): the reserves (500 to 2500),
upgrading the Company whose fine rises most instead of the dearest, the LONE risk (0 to 6000),
a fine weighed once or three times instead of twice, a larger prize for a lone King, never
placing a bought piece on an own one; never buying pieces back but the last lost 5 points.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from magnates import board, tables
from magnates import commands as c
from magnates.legal import legal_moves
from magnates.rules.worth import fine
from magnates.state import BANK, State
from tablehall_rules import Choice

RESERVE = 1500
UPGRADE_RESERVE = 1500
# what being left with a lone King costs in expectation (it may be attacked and the game lost)
LONE = 3000


@dataclass(frozen=True)
class Weights:
    """The heuristic's thresholds and weights: `EASY` is the easy bot's (the baseline), `STRONG`
    the tuned ones the strong bot's search plays (see the module's docstring for what was measured)."""

    reserve: int = RESERVE  # cash left after buying a Company, or a piece while the army is whole
    upgrade_reserve: int = UPGRADE_RESERVE  # cash left after an upgrade or an arbitrage purchase
    lone: float = LONE  # what being left with a lone King costs
    buy_inner: bool = True  # pieces buy inner Companies (and value a move onto one at half its price)
    raid_keep: float = 1.0  # a Company won by a raid counts this share of its value for the raider
    pass_below: float = 0.0  # pass rather than make a move worth less than this
    guard: float = 0.0  # a piece leaving an own inner Company (open to raids once left) costs this share of its value


EASY = Weights()
STRONG = Weights(buy_inner=False, raid_keep=0.5, pass_below=200.0, guard=0.5)


def win_chance(attack_power: int, defend_power: int) -> float:
    """The chance that die + attack_power is strictly above die + defend_power."""
    wins = sum(1 for a in range(1, 7) for d in range(1, 7) if a + attack_power > d + defend_power)
    return wins / 36


def raid_worth(piece: str, company: Mapping[str, Any], keep: float = 1.0) -> float:
    """Expected worth of a raid against paying nothing (the raid replaces the fine), against the
    owner: a won raid moves the Company (its price and upgrades) from the owner's worth to ours
    (counted at `keep` of its value for us: an inner Company invites the rival's raids)."""
    chance = win_chance(tables.POWER[piece], company["level"])
    value: float = company["price"] * (2 + company["level"]) / 2
    return chance * (1 + keep) * value - (1 - chance) * tables.PIECE_PRICE[piece]


@dataclass(frozen=True)
class Seen:
    """What the heuristic reads, from a view (`of_view`) or, faster, from a full state (`of_state`;
    everything in a state is public, so both say the same)."""

    turn: int
    cash: int
    stop_cell: int | None
    piece: str  # the piece that moved this turn
    pieces: list[tuple[int, dict[str, int]]]  # (seat, kind -> cell) of every player
    companies: Mapping[int, Mapping[str, Any]]  # cell -> owner (None: the bank), level, price, fine

    @classmethod
    def of_view(cls, view: Mapping[str, Any]) -> Seen:
        me = view["players"][view["turn"]]
        stop = view["stop"]
        return cls(
            turn=view["turn"],
            cash=me["cash"],
            stop_cell=None if stop is None else stop["cell"],
            piece=view["piece"],
            pieces=[(p["seat"], p["pieces"]) for p in view["players"]],
            companies={co["cell"]: co for co in view["companies"]},
        )

    @classmethod
    def of_state(cls, state: State) -> Seen:
        return cls(
            turn=state.turn,
            cash=state.players[state.turn].cash,
            stop_cell=None if state.stop is None else state.stop.cell,
            piece=state.piece,
            pieces=[(p.seat, p.pieces) for p in state.players],
            companies=_Companies(state),
        )

    def last_piece(self) -> bool:
        """Whether the turn's player has one piece left beside its King."""
        return len(self.pieces[self.turn][1]) <= 1


class _Companies(Mapping[int, Mapping[str, Any]]):
    """A state's Companies as the view lists them, each worked out when asked for."""

    def __init__(self, state: State) -> None:
        self.state = state

    def __getitem__(self, cell: int) -> Mapping[str, Any]:
        sq = board.square(cell)
        if not sq.is_company:
            raise KeyError(cell)
        owner = self.state.owner[cell]
        return {
            "cell": cell,
            "owner": None if owner == BANK else owner,
            "level": self.state.level[cell],
            "price": sq.price,
            "fine": fine(self.state, cell) if owner != BANK else 0,
        }

    def __iter__(self) -> Iterator[int]:
        return iter(board.company_cells())

    def __len__(self) -> int:
        return len(board.company_cells())


def legal_commands(state: State, seat: int) -> list[msgspec.Struct]:
    """The seat's legal commands in `state`, spelled out (what the table's descriptors list)."""
    out: list[msgspec.Struct] = []
    for lm in legal_moves(state, seat, 0):
        if not lm.params:
            out.append(lm.command)
            continue
        (param,) = lm.params  # every Магнаты descriptor has at most one parameter, a Choice
        assert isinstance(param.domain, Choice)
        out.extend(msgspec.structs.replace(lm.command, **{param.field: v}) for v in param.domain.values)
    return out


def choose(
    view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random, weights: Weights = EASY
) -> msgspec.Struct:
    return decide(Seen.of_view(view), legal, rng, weights)


def choose_in_state(state: State, seat: int, rng: random.Random, weights: Weights = EASY) -> msgspec.Struct:
    """The heuristic's move for `seat`'s open decision in a full state (a search's rollouts)."""
    legal = legal_commands(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no legal command in phase {state.phase}")
    return decide(Seen.of_state(state), legal, rng, weights)


def fine_worth(company: Mapping[str, Any]) -> float:
    """Paying a fine, against the owner: our loss and the owner's gain."""
    return -2.0 * float(company["fine"])


def decide(seen: Seen, legal: list[msgspec.Struct], rng: random.Random, weights: Weights = EASY) -> msgspec.Struct:
    w = weights
    cash = seen.cash
    by_type: dict[type[Any], list[msgspec.Struct]] = {}
    for command in legal:
        by_type.setdefault(type(command), []).append(command)
    companies = seen.companies

    if c.Roll in by_type:
        return c.Roll()
    stop = seen.stop_cell
    if (
        c.BuyCompany in by_type
        and stop is not None
        and cash - board.square(stop).price >= w.reserve
        and (w.buy_inner or board.is_perimeter(stop))
    ):
        return c.BuyCompany()
    last = seen.last_piece()
    reserve = 0 if last else w.reserve  # a King about to be lone buys a piece first
    for piece in by_type.get(c.BuyPiece, []):
        assert isinstance(piece, c.BuyPiece)
        if cash - tables.PIECE_PRICE[piece.piece] >= reserve:
            return piece
    arbitrage = [m for m in by_type.get(c.ArbitrageBuy, []) if isinstance(m, c.ArbitrageBuy)]
    for arb in sorted(arbitrage, key=lambda m: -companies[m.cell]["fine"]):
        co = companies[arb.cell]
        if cash - co["price"] * (2 + co["level"]) // 2 >= w.upgrade_reserve:
            return arb
    upgrades = [m for m in by_type.get(c.Upgrade, []) if isinstance(m, c.Upgrade)]
    for up in sorted(upgrades, key=lambda m: -companies[m.cell]["price"]):
        if cash - board.upgrade_cost(up.cell) >= w.upgrade_reserve:
            return up
    if c.EndStop in by_type:
        return c.EndStop()
    if c.PayFine in by_type:
        assert stop is not None
        company = companies[stop]
        risk = 0.0
        if last:
            risk = (1 - win_chance(tables.POWER[seen.piece], company["level"])) * w.lone
        return c.Raid() if raid_worth(seen.piece, company, w.raid_keep) - risk > fine_worth(company) else c.PayFine()
    moves = [m for m in by_type.get(c.MovePiece, []) if isinstance(m, c.MovePiece)]
    if moves:
        best, value = _best_move(seen, moves, rng, w)
        if value >= w.pass_below or c.PassMove not in by_type:
            return best
        return c.PassMove()
    return legal[0]


def ranked(
    view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random, count: int, weights: Weights = STRONG
) -> list[msgspec.Struct]:
    """The heuristic's `count` best distinct commands, best first: its own move (`decide`), then
    the other piece moves by their expected worth, then the other commands as listed (the strong
    bot's search compares them)."""
    seen = Seen.of_view(view)
    first = decide(seen, legal, rng, weights)
    moves = [m for m in legal if isinstance(m, c.MovePiece) and m != first]
    moves.sort(key=lambda m: -move_score(seen, m, weights))
    rest = [m for m in legal if not isinstance(m, c.MovePiece) and m != first]
    return [first, *moves, *rest][:count]


def _best_move(
    seen: Seen, moves: list[c.MovePiece], rng: random.Random, w: Weights = EASY
) -> tuple[c.MovePiece, float]:
    """The move with the best expected worth, and that worth."""
    scored = [(move_score(seen, m, w) + rng.random(), i) for i, m in enumerate(moves)]
    value, index = max(scored)
    return moves[index], value


def move_score(seen: Seen, m: c.MovePiece, w: Weights) -> float:
    """A move's expected worth (without the tie-breaking noise)."""
    me = seen.turn
    occupants = {cell: (seat, kind) for seat, pieces in seen.pieces for kind, cell in pieces.items()}
    companies = seen.companies
    own_price = tables.PIECE_PRICE[m.piece]
    if board.is_perimeter(m.to):  # a lone King: winning eliminates its owner
        chance = win_chance(tables.POWER[m.piece], 0)
        return chance * 5000 - (1 - chance) * own_price * 1.5
    value, survive = 0.0, 1.0
    if m.to in occupants:
        _, kind = occupants[m.to]
        survive = win_chance(tables.POWER[m.piece], tables.POWER[kind])
        # the loser's owner loses its price and the bank pays the winner's owner half of it
        value += survive * tables.PIECE_PRICE[kind] * 1.5 - (1 - survive) * own_price * 1.5
    company = companies.get(m.to) if board.square(m.to).is_company else None
    raid_risk = 0.0
    if company is not None:
        if company["owner"] is None and company["price"] + w.reserve <= seen.cash and w.buy_inner:
            value += survive * company["price"] / 2
        elif company["owner"] not in (None, me):
            value += survive * max(raid_worth(m.piece, company, w.raid_keep), fine_worth(company))
            raid_risk = 1 - win_chance(tables.POWER[m.piece], company["level"])
    if seen.last_piece():  # the last piece: a lost duel (or, half as likely chosen, a lost raid) leaves the King lone
        value -= ((1 - survive) + survive * raid_risk / 2) * w.lone
    if w.guard:
        start = seen.pieces[me][1][m.piece]
        left = companies.get(start) if board.square(start).is_company else None
        if left is not None and left["owner"] == me:
            value -= w.guard * left["price"] * (2 + left["level"]) / 2
    return value


def random_choice(legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
    return rng.choice(legal)
