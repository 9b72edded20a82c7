"""The easy bot (`bot_policy`): a one-ply heuristic from a seat's view and its legal commands;
or, the same choice with the same draws, from the descriptors (`choose_moves`, `bot_policy_moves`:
the bot service's own views), which scores a tile's placements and a card's targets from their
values and makes only the chosen command.

It reads the view only (the board it shows: pieces, dominoes, opened cells and numbers, the
seat's own and allied mines, gold, inventories) and never a hidden card, tile or mine. Each
legal command gets a score and the best is played (ties at random):

- «Уно!» and «Поймать» first (they are races);
- a piece move (a card, the free move, boots): the taken piece's worth (a king most of all), less
  the moving piece's worth when an enemy could take it on its new cell, plus it when the piece
  escapes a threat; a closed cell of the centre risks a hidden mine (the share of hidden mines
  among the closed cells there, certain when an opened number says so); an own or allied mine is
  harmless; piercing an enemy tile and opening cells count a little;
- king safety: a threatened king is worth most; a move that leaves it threatened scores low,
  the teleport takes it to a safe opened cell, a tile next to it walls it off;
- cards: a skip, reverse, +2 or wild +4 is worth more against an enemy next, less against an
  ally; wild and own-colour (trump) cards are kept for later; shedding cards counts (the last
  card brings five new ones and a free move);
- dominoes: a tile that links (the turn continues) or walls a threatened king; otherwise tiles
  are kept;
- the shop: medicine when the king is wounded, boots when a capture is worth them, a tile when
  the hand of tiles is low, a shield on a threatened queen or rook, a probe on a closed cell
  next to its pieces, a detector, all while a reserve of gold stays;
- the ring: buy a free lot while the reserve stays (a lot that completes or joins a district of
  its own the more), bid up to the lot's price within the reserve, build while twice the
  reserve stays, redeem when rich, never mortgage (debts are collected by the rules), never
  offer a trade and decline offers, in the Dungeon use a pass card, else try for doubles.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

import msgspec

from homunculus import cards as k
from homunculus import commands as c
from homunculus.board import HomunculusBlocking, generator, grid, moves_of
from homunculus.determinize import determinize
from homunculus.policy import evaluate, random_policy, rollout_policy
from homunculus.ring import board as ring_board
from homunculus.rules.shop import PRICES
from homunculus.state import State
from tablehall_boards import Kind, Verdict, cross
from tablehall_boards.grid import KING_STEPS, ORTHOGONAL
from tablehall_rules import (
    Choice,
    Determinizable,
    HasBotPolicy,
    HasBotRanking,
    HasEvaluation,
    HasMovesPolicy,
    HasRandomMovesPolicy,
    HasRandomPolicy,
    HasRolloutPolicy,
    HasSearchHints,
    LegalMove,
    StructCodec,
)
from tablehall_rules.legal import draw, expand, spell_at, values

# what a piece is worth to the bot (the king: losing it loses the game)
WORTH: dict[Kind, float] = {
    Kind.PAWN: 1.0,
    Kind.KNIGHT: 3.0,
    Kind.BISHOP: 3.0,
    Kind.ROOK: 5.0,
    Kind.QUEEN: 9.0,
    Kind.KING: 60.0,
}
TILE_KEPT = -0.4  # placing a tile that does nothing: a tile in the hand is a wall for later
THREAT_SHARE = 0.8  # of a threatened piece's worth, expected to be lost
RESERVE = 8  # gold kept back when shopping or buying lots


def public_board(view: dict[str, Any]) -> State:
    """A state holding exactly what the view shows (hidden hands, piles and mines left empty):
    enough for the move generator and the blocking policy."""
    d = dict(view)
    d["hands"] = [list(h) for h in view["hands"]]
    d["domino_hands"] = [list(h) for h in view["domino_hands"]]
    top = view["deck"]["top"]
    d["deck"] = {"draw_pile": [], "discard_pile": [top] if top is not None else []}
    d["bazaar"] = {"tiles": []}
    return msgspec.convert(d, State, strict=False)


class Reading:
    """What the bot works out once per decision from the view: each part when first asked (a
    bid or a lot reads no threats and no mines; a tile's placement reads no threats unless the
    king is threatened)."""

    def __init__(self, view: dict[str, Any]) -> None:
        self._view = view
        st = public_board(view)
        self.state = st
        self.me: int = seat_of(view)
        me = self.me
        self.enemies = [p for p in st.live_players() if not st.allied(me, p)]
        self.king = st.king_cell(me)
        self.centre = cross.centre()
        self.own_mines = {m.cell for m in st.mines}
        self.halves = {x: d.pips_at(x) for d in st.dominoes for x in d.cells}

    @cached_property
    def threatened(self) -> set[int]:
        """Every cell an enemy piece reaches (`targets_of` each enemy, in one pass over the pieces)."""
        st = self.state
        enemies = set(self.enemies)
        blocking = HomunculusBlocking(st)  # its rows are per side: one for every enemy
        gen = generator(tuple(st.arms))
        rows: dict[tuple[int, Kind], Sequence[Verdict]] = {}
        out: set[int] = set()
        for origin, piece in st.pieces.items():
            if piece.side in enemies:
                key = (piece.side, piece.kind)
                row = rows.get(key)
                if row is None:
                    row = rows[key] = blocking.verdicts(piece)
                plain, promoting = gen.piece_targets(origin, piece, row)
                out.update(plain)
                out.update(promoting)
        return out

    @cached_property
    def king_threatened(self) -> bool:
        return self.king is not None and self.king in self.threatened

    @cached_property
    def _minefield(self) -> tuple[float, set[int], set[int]]:
        """The mine risk of a closed cell of the centre; the cells certain to hold a mine; the
        cells known safe."""
        view = self._view
        opened = set(self.state.opened)
        known = self.own_mines
        closed = self.centre.difference(opened, known, self.halves)
        hidden = max(0, int(view["mine_count"]) - len(known))
        risk = hidden / len(closed) if closed else 0.0
        # an opened number with as many closed, unknown neighbours as it still needs: all mines
        certain: set[int] = set()
        safe: set[int] = set(opened)
        ring = grid().leaps(KING_STEPS)  # per cell its neighbours8, the table looked up once
        for cell, n in view["numbers"].items():
            near = ring[int(cell)]
            around = closed.intersection(near)
            if not around:  # nothing closed next to it: it tells nothing more (most numbers)
                continue
            need = int(n) - len(known.intersection(near))
            if need == len(around):
                certain.update(around)
            elif need <= 0:
                safe.update(around)
        certain |= {int(x) for x in view.get("detected") or []}  # the detector's, while it lasts
        return risk, certain, safe

    @property
    def mine_risk(self) -> float:
        return self._minefield[0]

    @property
    def certain(self) -> set[int]:
        return self._minefield[1]

    @property
    def safe(self) -> set[int]:
        return self._minefield[2]

    @cached_property
    def link_pips(self) -> dict[int, set[int]]:
        """Per empty cell, the numbers of the tile halves touching it by a side (linking)."""
        out: dict[int, set[int]] = {}
        sides = grid().leaps(ORTHOGONAL)
        for cell, pips in self.halves.items():
            for nb in sides[cell]:
                out.setdefault(nb, set()).add(pips)
        return out

    @cached_property
    def king_ring(self) -> set[int]:
        return set(grid().neighbours8(self.king)) if self.king is not None else set()

    @cached_property
    def tile_cells(self) -> set[int]:
        """The cells where a tile may score more than a kept tile (links, walls the king, clears a mine)."""
        out = set(self.link_pips) | self.certain
        if self.king_threatened:
            out |= self.king_ring
        return out

    def notable(self, cells: list[int]) -> bool:
        return cells[0] in self.tile_cells or cells[1] in self.tile_cells

    def big_piece_threatened(self) -> bool:
        st = self.state
        return any(
            p.side == self.me and p.kind in (Kind.QUEEN, Kind.ROOK, Kind.KING) and cell in self.threatened
            for cell, p in st.pieces.items()
        )

    def landing_risk(self, cell: int) -> float:
        """The chance a piece landing on `cell` meets a hidden mine."""
        if cell in self.safe or cell in self.own_mines or cell not in self.centre:
            return 0.0
        return 1.0 if cell in self.certain else self.mine_risk

    def move_score(self, origin: int, target: int) -> float:
        st = self.state
        piece = st.pieces.get(origin)
        if piece is None:
            return 0.0
        worth = WORTH[piece.kind]
        score = 0.0
        victim = st.pieces.get(target)
        if victim is not None and not st.allied(self.me, victim.side):
            score += WORTH[victim.kind] * (1.5 if victim.kind == Kind.KING else 1.0)
        elif target in self.halves:
            score += 0.3  # piercing: a wall gone
        if piece.kind == Kind.KING:
            worth = WORTH[Kind.KING] / (2 if not st.wounded[self.me] else 1)
        if target in self.threatened:
            score -= worth * THREAT_SHARE
        if origin in self.threatened:
            score += worth * THREAT_SHARE
        score -= self.landing_risk(target) * worth
        if target not in self.safe:
            score += 0.05  # a cell opened tells something
        if piece.kind == Kind.PAWN:
            score += 0.05
        return score

    def next_player(self) -> int:
        return self.state.next_live(self.me)

    # asked for many commands of one decision: worked out once, when first asked
    @cached_property
    def enemy_next(self) -> bool:
        return not self.state.allied(self.me, self.next_player())

    @cached_property
    def near_own(self) -> frozenset[int]:
        """The cells next to the seat's own pieces (a probe there is worth its gold)."""
        ring = grid().leaps(KING_STEPS)
        return frozenset(x for cell, p in self.state.pieces.items() if p.side == self.me for x in ring[cell])


def _card_cost(card: k.Card, reading: Reading) -> float:
    """What giving this card up costs (keep wilds and trumps for later)."""
    if card.value == k.WILD_FOUR:
        return 0.6
    if card.value == k.WILD_CARD:
        return 0.8
    if card.colour == reading.state.army_colour(reading.me):
        return 0.4
    return 0.0


CARD_GAIN = {k.SKIP: 1.0, k.REVERSE: 0.6, k.DRAW_TWO: 2.0, k.WILD_FOUR: 3.0}


def _card_effect(card: k.Card, reading: Reading) -> float:
    gain = CARD_GAIN.get(card.value, 0.0)
    return gain if reading.enemy_next else -gain


def _tile_score(cmd: c.PlaceDomino, reading: Reading) -> float:
    return _tile_at(cmd.low, cmd.high, cmd.cells[0], cmd.cells[1], reading)


def _tile_at(low: int, high: int, low_cell: int, high_cell: int, reading: Reading) -> float:
    score = TILE_KEPT
    if low in reading.link_pips.get(low_cell, ()) or high in reading.link_pips.get(high_cell, ()):
        score = 1.2  # linking: the turn goes on
    if reading.king_threatened and (low_cell in reading.king_ring or high_cell in reading.king_ring):
        score += 3.0
    if low_cell in reading.certain or high_cell in reading.certain:
        score += 0.5  # a tile on a mine there explodes with it: the mine is gone
    return score


def _card_play(colour: int, value: str, reading: Reading, hand_size: int) -> float:
    """A card's play before its piece move (the same for every target of the card)."""
    card = k.Card(colour, value)
    out = 0.3 - _card_cost(card, reading) + _card_effect(card, reading)
    if hand_size == 1:
        out += 3.0  # five new cards and a free move
    return out


def score(cmd: msgspec.Struct, reading: Reading, hand_size: int) -> float:
    if isinstance(cmd, c.PlayCard):
        value = _card_play(cmd.colour, cmd.value, reading, hand_size)
        if cmd.origin >= 0:
            value += reading.move_score(cmd.origin, cmd.target)
        return value
    if isinstance(cmd, c.FreeMove):
        return reading.move_score(cmd.origin, cmd.target)
    if isinstance(cmd, c.PlaceDomino):
        return _tile_score(cmd, reading)
    if isinstance(cmd, c.DrawCard):
        return 0.2 if hand_size < 6 else 0.0
    if isinstance(cmd, c.ExchangeCard):
        return -_card_cost(k.Card(cmd.colour, cmd.value), reading)
    if isinstance(cmd, c.KeepCard | c.EndTurn):
        return 0.0
    if isinstance(cmd, c.BuyItem):
        return _buy_score(cmd.item, reading)
    if isinstance(cmd, c.UseItem):
        return _use_score(cmd, reading)
    if isinstance(cmd, c.Surrender):
        return -1000.0
    ring = _ring_score(cmd, reading)
    if ring is not None:
        return ring
    return -1.0  # commands of rules the bot does not know yet: after everything it knows


def _ring_score(cmd: msgspec.Struct, reading: Reading) -> float | None:
    """The ring's commands (None: not one of them)."""
    st = reading.state
    me = reading.me
    gold = st.gold[me]
    r = st.ring
    if isinstance(cmd, c.UsePass):
        return 3.0
    if isinstance(cmd, c.RollDice):
        return 2.0  # in the Dungeon: try for doubles before paying
    if isinstance(cmd, c.PayFine):
        return 1.0 if gold - ring_board.DUNGEON_FINE >= 3 * RESERVE else -0.5
    if isinstance(cmd, c.BuyLot):
        lot = ring_board.square(r.buy_square) if r.buy_square >= 0 else None
        if lot is None or gold - lot.price < RESERVE:
            return -0.5
        return 2.0 + _district_share(st, me, lot.index)
    if isinstance(cmd, c.DeclineLot | c.PassBid):
        return 0.0
    if isinstance(cmd, c.Bid):
        return _bid_at(cmd.amount, reading)
    if isinstance(cmd, c.Build):
        cost = ring_board.square(cmd.square).house_cost
        return 1.5 if gold - cost >= 2 * RESERVE else -0.5
    if isinstance(cmd, c.Redeem):
        cost = ring_board.square(cmd.square).redeem_cost
        return 0.8 if gold - cost >= 3 * RESERVE else -0.5
    if isinstance(cmd, c.Mortgage | c.OfferTrade):
        return -2.0
    if isinstance(cmd, c.AnswerTrade):
        return 0.0 if not cmd.accept else -0.5
    return None


def _bid_at(amount: int, reading: Reading) -> float:
    st = reading.state
    a = st.ring.auction
    lot = ring_board.square(a.square) if a is not None else None
    if lot is None or amount > lot.price or st.gold[reading.me] - amount < RESERVE:
        return -0.5
    return 1.0 - amount / (10.0 * max(1, lot.price))  # the lowest bid that is good enough


def _district_share(st: State, me: int, index: int) -> float:
    """How much of the lot's district the seat would hold (a street; others count 0.5)."""
    lot = ring_board.square(index)
    if lot.kind != "street" or not lot.group:
        return 0.5
    lots = ring_board.district(lot.group)
    held = sum(1 for i in lots if st.ring.owners[i] == me) + 1
    return held / len(lots)


def _best_capture(reading: Reading) -> float:
    st = reading.state
    return max((reading.move_score(m.origin, m.target) for m in moves_of(st, reading.me) if m.capture), default=0.0)


def _buy_score(item: str, reading: Reading) -> float:
    st = reading.state
    me = reading.me
    gold = st.gold[me]
    owned = st.inventory[me] if me < len(st.inventory) else []
    if item == "medicine" and st.wounded[me] and "medicine" not in owned:
        return 5.0
    if item == "boots" and "boots" not in owned and gold - PRICES["boots"] >= RESERVE and _best_capture(reading) >= 3:
        return 2.5
    if item == "domino" and len(st.domino_hands[me]) < 2 and gold - PRICES["domino"] >= RESERVE:
        return 0.6
    if (
        item == "shield"
        and "shield" not in owned
        and gold - PRICES["shield"] >= RESERVE
        and reading.big_piece_threatened()
    ):
        return 1.5
    if item == "probe" and "probe" not in owned and gold - PRICES["probe"] >= 2 * RESERVE and reading.mine_risk > 0.1:
        return 0.4
    return -0.5


def _use_score(cmd: c.UseItem, reading: Reading) -> float:
    return _use_at(cmd.item, cmd.origin, cmd.target, reading)


def _use_at(item: str, origin: int, target: int, reading: Reading) -> float:
    st = reading.state
    if item == "medicine":
        return 5.0 if st.wounded[reading.me] else -1.0
    if item == "boots" and origin >= 0:
        return reading.move_score(origin, target) - 0.5
    if item == "teleport" and origin >= 0 and origin == reading.king and reading.king_threatened:
        safe = target in reading.safe and target not in reading.threatened
        return 20.0 if safe else -1.0
    if item == "shield" and origin >= 0:
        piece = st.pieces.get(origin)
        if piece is not None and origin in reading.threatened:
            return WORTH[piece.kind] * THREAT_SHARE * (0.5 if piece.kind == Kind.KING else 1.0)
        return -0.5
    if item == "probe" and target >= 0:
        return 0.3 + reading.landing_risk(target) if target in reading.near_own else -0.5
    return -0.5


def _scored(view: dict[str, Any], legal: list[msgspec.Struct]) -> list[tuple[float, msgspec.Struct]]:
    """Each legal command with its score («Уно!» and «Поймать» above everything)."""
    if not legal:
        raise ValueError("no legal command")
    races = [cmd for cmd in legal if isinstance(cmd, c.SayUno | c.CatchUno)]
    if races:
        return [(float("inf"), races[0])]
    if not any(not isinstance(cmd, c.Surrender) for cmd in legal):
        return [(0.0, legal[0])]
    reading = Reading(view)
    hand_size = len(view["hands"][reading.me])
    out: list[tuple[float, msgspec.Struct]] = []
    for cmd in legal:
        if type(cmd) is c.PlaceDomino and not reading.notable(cmd.cells):
            out.append((TILE_KEPT, cmd))  # most placements: nothing links, walls or clears there
        else:
            out.append((score(cmd, reading, hand_size), cmd))
    return out


def choose(view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
    scored = _scored(view, legal)
    best_value = max(value for value, _ in scored)
    return rng.choice([cmd for value, cmd in scored if value == best_value])


CODEC = StructCodec(c.COMMAND_TYPES)


class _Scores:
    """The scores of the commands one descriptor spells out, in `expand`'s order: `dense`, one
    each; or (a tile's placements) `TILE_KEPT` but at the `notable` indices, scored there."""

    __slots__ = ("commands", "dense", "notable", "size", "top")

    def __init__(
        self,
        size: int,
        dense: list[float] | None = None,
        notable: list[tuple[int, float]] | None = None,
        commands: list[msgspec.Struct] | None = None,
    ) -> None:
        self.size = size
        self.dense = dense
        self.notable = notable
        self.commands = commands  # when they were made to be scored
        if dense is not None:
            self.top = max(dense)
        else:
            assert notable is not None
            best = max((v for _, v in notable), default=TILE_KEPT)
            self.top = best if len(notable) == size else max(best, TILE_KEPT)

    def at(self, value: float) -> list[int]:
        """The indices of the commands that score `value`, in order."""
        if self.dense is not None:
            return [i for i, v in enumerate(self.dense) if v == value]
        assert self.notable is not None
        if value != TILE_KEPT:
            return [i for i, v in self.notable if v == value]
        # the placements that are not notable, and the notable ones that score a kept tile too
        worse = {i for i, v in self.notable if v != value}
        return [i for i in range(self.size) if i not in worse]


def _spot_notable(spots: list[list[int]], reading: Reading) -> list[int]:
    """The indices of the placements where a tile may score more than a kept tile."""
    cells = reading.tile_cells
    return [i for i, (a, b) in enumerate(spots) if a in cells or b in cells]


# per command, the parameters its score is worked out from without the command (a card's
# `colour` names the card: not among them; a wild card's chosen colour and an item's do not count)
MOVE_FIELDS: dict[type[msgspec.Struct], frozenset[str]] = {
    c.PlayCard: frozenset({"origin", "target", "choose_colour"}),
    c.FreeMove: frozenset({"origin", "target"}),
    c.UseItem: frozenset({"origin", "target", "colour"}),
}


def _descriptor_scores(lm: LegalMove, reading: Reading, hand_size: int, spots: dict[int, list[int]]) -> _Scores:
    """`score` of each command `lm` spells out (`_scored`'s values), most made for none: a tile's
    placements, a card's or item's targets and the free move's are scored from their values."""
    cmd = lm.command
    names = [p.field for p in lm.params]
    domain = lm.params[0].domain if lm.params else None
    if type(cmd) is c.PlaceDomino and names == ["cells"] and isinstance(domain, Choice):
        cells: list[list[int]] = domain.values
        notable = spots.get(id(cells))
        if notable is None:  # the tiles of a hand share their placements' list (alive while `lm` is)
            notable = spots[id(cells)] = _spot_notable(cells, reading)
        low, high = cmd.low, cmd.high
        return _Scores(
            len(cells), notable=[(i, _tile_at(low, high, cells[i][0], cells[i][1], reading)) for i in notable]
        )
    if isinstance(cmd, c.PlayCard | c.FreeMove | c.UseItem) and MOVE_FIELDS[type(cmd)].issuperset(names):
        domains = [list(values(p.domain)) for p in lm.params]
        at_origin = names.index("origin") if "origin" in names else -1
        at_target = names.index("target") if "target" in names else -1
        origin, target = cmd.origin, cmd.target
        if isinstance(cmd, c.PlayCard):
            # a card's play is the same for each of its targets (`score` adds the move to it)
            play = _card_play(cmd.colour, cmd.value, reading, hand_size)

            def at(origin: int, target: int) -> float:
                return play + reading.move_score(origin, target) if origin >= 0 else play

        elif isinstance(cmd, c.FreeMove):
            at = reading.move_score
        else:
            item = cmd.item

            def at(origin: int, target: int) -> float:
                return _use_at(item, origin, target, reading)

        # a wild card's colour (or an item's) does not count: each cell is scored once
        memo: dict[tuple[int, int], float] = {}
        dense: list[float] = []
        for combo in itertools.product(*domains):
            if at_origin >= 0:
                origin = combo[at_origin]
            if at_target >= 0:
                target = combo[at_target]
            value = memo.get((origin, target))
            if value is None:
                value = memo[(origin, target)] = at(origin, target)
            dense.append(value)
        return _Scores(len(dense), dense=dense)
    if type(cmd) is c.Bid and names == ["amount"]:  # every amount up to the gold
        return _Scores(lm.size(), dense=[_bid_at(amount, reading) for amount in values(lm.params[0].domain)])
    commands = list(expand(lm, CODEC))
    return _Scores(len(commands), dense=[_one_score(x, reading, hand_size) for x in commands], commands=commands)


def _one_score(cmd: msgspec.Struct, reading: Reading, hand_size: int) -> float:
    if type(cmd) is c.PlaceDomino and not reading.notable(cmd.cells):
        return TILE_KEPT
    return score(cmd, reading, hand_size)


def choose_moves(view: dict[str, Any], moves: Sequence[LegalMove], rng: random.Random) -> msgspec.Struct:
    """`choose` on the descriptors: the command `choose(view, expand_all(moves, CODEC), rng)`
    picks, with the same draws of `rng`, each option scored from its descriptor's values and
    only the chosen command made (a turn spells out hundreds, most of them tile placements)."""
    listed = [lm for lm in moves if lm.size()]
    if not listed:
        raise ValueError("no legal command")
    # `choose` draws from a list of one here too: the same draws either way
    for lm in listed:
        if isinstance(lm.command, c.SayUno | c.CatchUno):
            return rng.choice([next(expand(lm, CODEC))])
    if all(isinstance(lm.command, c.Surrender) for lm in listed):
        return rng.choice([next(expand(listed[0], CODEC))])
    reading = Reading(view)
    hand_size = len(view["hands"][reading.me])
    spots: dict[int, list[int]] = {}
    scores = [_descriptor_scores(lm, reading, hand_size, spots) for lm in listed]
    best_value = max(s.top for s in scores)
    best = [(n, i) for n, s in enumerate(scores) if s.top == best_value for i in s.at(best_value)]
    n, i = rng.choice(best)
    chosen = scores[n]
    if chosen.commands is not None:
        return chosen.commands[i]
    return spell_at(listed[n], i, CODEC)


def ranked(view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random, count: int) -> list[msgspec.Struct]:
    """The heuristic's `count` best distinct commands, best first (ties in random order); the
    strong bot's search compares them."""
    scored = _scored(view, legal)
    order = sorted(((-value, rng.random(), i) for i, (value, _) in enumerate(scored)))
    return [scored[i][1] for _, _, i in order[:count]]


def random_moves(view: dict[str, Any], moves: Sequence[LegalMove], rng: random.Random) -> msgspec.Struct:
    """`random_policy` on the descriptors: the command it draws from the spelled-out commands, with
    the same draw, only that one spelled out (never a surrender while anything else is legal)."""
    keep_playing = [lm for lm in moves if not isinstance(lm.command, c.Surrender)]
    return draw(keep_playing if any(lm.size() for lm in keep_playing) else moves, rng, CODEC)


def seat_of(view: dict[str, Any]) -> int:
    """The viewing seat: the one whose hand the view shows (a live player always holds cards
    but when both piles ran dry), else the turn player."""
    shown = [p for p, h in enumerate(view["hands"]) if h]
    return shown[0] if len(shown) == 1 else int(view["turn"])


class HomunculusBot(
    Determinizable,
    HasBotPolicy,
    HasMovesPolicy,
    HasBotRanking,
    HasRandomMovesPolicy,
    HasRandomPolicy,
    HasRolloutPolicy,
    HasSearchHints,
    HasEvaluation,
):
    """The game's bot hooks (`tablehall_rules.bots`): the easy heuristic here, the playouts in
    `homunculus.policy`, the sampling of the hidden part in `homunculus.determinize`."""

    bot_policy = staticmethod(choose)
    bot_policy_moves = staticmethod(choose_moves)
    bot_ranking = staticmethod(ranked)
    determinize = staticmethod(determinize)
    random_policy = staticmethod(random_policy)
    random_policy_moves = staticmethod(random_moves)
    rollout_policy = staticmethod(rollout_policy)
    evaluate = staticmethod(evaluate)

    def search_hints(self) -> Mapping[str, float]:
        # playouts of 8 moves (about four turns heads-up) scored by `evaluate`, one tree level:
        # enough samples in a fifth of a second to tell the ranked moves apart
        return {"horizon": 8, "tree_depth": 1, "width": 4}
