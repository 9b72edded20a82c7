"""`determinize`: a full state consistent with one seat's view, the hidden parts sampled.

Reads the view only. Cards the seat cannot see (everything but its hand, a hand its spyglass
shows, and the top card) are dealt into the other hands (public sizes), the discard pile under
its top and the draw pile; unseen tiles into the other tile hands and the bazaar; the hidden
mines onto closed empty cells so that every opened cell shows the same number (a small
backtracking search over the cells next to opened ones; the true placement is one solution).
Unconstrained mines go to the centre while it has room (bought mines may stand anywhere), none
into the square the seat's detector shows (it knows every mine there).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec

from homunculus.board import grid
from homunculus.cards import Card, full_deck
from homunculus.rules.mines import square5
from homunculus.state import AFTER_DRAW, State
from tablehall_boards import cross
from tablehall_boards.dominoes import Tile, domino_sets
from tablehall_boards.hidden import sample_hidden

DISCARD = -1


def _minus(pool: list[Any], taken: list[Any]) -> list[Any]:
    left = Counter(pool)
    left.subtract(taken)
    if any(v < 0 for v in left.values()):
        raise ValueError("the view holds more of a card or tile than exists")
    return sorted(left.elements())


def determinize(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    d = dict(view)
    # a view as JSON gives it (what a bot has) keys the cells and players by strings
    d["pieces"] = {int(cell): piece for cell, piece in d["pieces"].items()}
    d["fallen"] = {int(player): kinds for player, kinds in d.get("fallen", {}).items()}
    n = d["players"]
    hands = [[Card(*c) for c in h] for h in d["hands"]]
    sizes = d["hand_sizes"]
    top = Card(*d["deck"]["top"]) if d["deck"]["top"] is not None else None
    spy = d.get("spyglass") or []
    known = {seat} | ({spy[1]} if spy and spy[0] == seat else set())  # own hand, and the spied one
    seen = [card for p in sorted(known) for card in hands[p]] + ([top] if top is not None else [])
    unseen = _minus(list(full_deck()), seen)
    card_sizes: dict[int, int] = {p: sizes[p] for p in range(n) if p not in known}
    under = d["deck"]["discard_size"] - (1 if top is not None else 0)
    card_sizes[DISCARD] = under
    deal = sample_hidden(unseen, card_sizes, rng, rest_size=d["deck"]["draw_size"])
    for p in range(n):
        if p not in known:
            hands[p] = list(deal.hands[p])
    discard = [*deal.hands[DISCARD], *([top] if top is not None else [])]
    d["hands"] = [msgspec.to_builtins(h) for h in hands]
    d["deck"] = {"draw_pile": msgspec.to_builtins(deal.rest), "discard_pile": msgspec.to_builtins(discard)}
    if d["phase"] == AFTER_DRAW and d["turn"] not in known:
        turn_hand = hands[d["turn"]]
        d["drawn"] = msgspec.to_builtins(turn_hand[-1]) if turn_hand else None
    _tiles(d, seat, n, rng)
    d["mines"] = _mines(d, seat, rng)
    return msgspec.convert(d, State)


def _tiles(d: dict[str, Any], seat: int, n: int, rng: random.Random) -> None:
    own = [Tile(*t) for t in d["domino_hands"][seat]]
    board = [Tile(min(x[2], x[3]), max(x[2], x[3])) for x in d["dominoes"]]
    removed = [Tile(*t) for t in d["removed_tiles"]]
    everything = list(domino_sets(2 if n == 4 else 1))
    unseen = _minus(everything, own + board + removed)
    sizes = {p: d["domino_hand_sizes"][p] for p in range(n) if p != seat}
    deal = sample_hidden(unseen, sizes, rng, rest_size=d["bazaar"]["size"])
    d["domino_hands"] = [msgspec.to_builtins(own if p == seat else list(deal.hands[p])) for p in range(n)]
    d["bazaar"] = {"tiles": msgspec.to_builtins(sorted(deal.rest))}


def _mines(d: dict[str, Any], seat: int, rng: random.Random) -> list[Any]:
    # seen: own and allied mines (with owners), and the detector's (owners unknown: nobody's)
    known = [list(m) for m in d["mines"]] + [[cell, None] for cell in d.get("detected", [])]
    hidden = d["mine_count"] - len(known)
    numbers = {int(cell): num for cell, num in d["numbers"].items()}
    g = grid()
    blocked = {int(cell) for cell in d["pieces"]}
    blocked |= {x[4] for x in d["dominoes"]} | {x[5] for x in d["dominoes"]}
    blocked |= set(d["opened"]) | {m[0] for m in known}
    scan = d.get("detection") or []
    if scan and scan[0] == seat:  # the detector showed every other mine of its square
        blocked |= set(square5(scan[1]))
    # hidden mines start in the centre; bought ones may stand on any closed empty cell
    candidates = [cell for cell in range(len(g)) if cell not in blocked]
    need = {
        cell: num - sum(1 for nb in g.neighbours8(cell) if nb in {m[0] for m in known}) for cell, num in numbers.items()
    }
    chosen = _place_hidden(candidates, need, hidden, rng)
    placed = known + [[cell, None] for cell in chosen]
    return sorted(placed, key=lambda m: m[0])


def _place_hidden(candidates: list[int], need: dict[int, int], count: int, rng: random.Random) -> list[int]:
    g = grid()
    constrained = {cell: [nb for nb in g.neighbours8(cell) if nb in need] for cell in candidates}
    frontier = [cell for cell in candidates if constrained[cell]]
    free = [cell for cell in candidates if not constrained[cell]]
    rng.shuffle(frontier)
    # how many undecided frontier cells each constraint still has
    open_left = Counter(nb for cell in frontier for nb in constrained[cell])
    have = dict.fromkeys(need, 0)
    chosen: list[int] = []
    budget = [200_000]

    def feasible_after(cell: int, mine: bool) -> bool:
        for nb in constrained[cell]:
            got = have[nb] + (1 if mine else 0)
            if got > need[nb] or got + open_left[nb] - 1 < need[nb]:
                return False
        return True

    def search(i: int) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            raise RuntimeError("no mine placement fits the opened numbers")
        if len(chosen) > count:
            return False
        if i == len(frontier):
            return all(have[c] == need[c] for c in need) and count - len(chosen) <= len(free)
        cell = frontier[i]
        options = [True, False]
        rng.shuffle(options)
        for mine in options:
            if mine and len(chosen) >= count:
                continue
            if not feasible_after(cell, mine):
                continue
            for nb in constrained[cell]:
                open_left[nb] -= 1
                have[nb] += 1 if mine else 0
            if mine:
                chosen.append(cell)
            if search(i + 1):
                return True
            if mine:
                chosen.pop()
            for nb in constrained[cell]:
                open_left[nb] += 1
                have[nb] -= 1 if mine else 0
        return False

    if not search(0):
        raise RuntimeError("no mine placement fits the opened numbers")
    rest = count - len(chosen)
    centre = cross.centre()
    inside = [cell for cell in free if cell in centre]
    outside = [cell for cell in free if cell not in centre]
    if rest <= len(inside):  # unconstrained mines where most mines are: the centre
        return sorted(chosen + rng.sample(inside, rest))
    return sorted(chosen + inside + rng.sample(outside, rest - len(inside)))
