"""A full state consistent with one seat's view, for bots that search (and the conformance kit).

Everything public is copied from the view. The only hidden facts are which tiles of the
opponent's set are in its hand and which are still in the set (the own set left is known: the
full set less the own hand and the own placed dominoes). The opponent's hand is resampled from
its unseen tiles with its public size (`tablehall_boards.hidden.sample_hidden`).
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from dragons.board import BLACK, CELLS, FREE, NO_DOMINO
from dragons.state import OpenContour, PlacedDomino, Player, State
from tablehall_boards.dominoes import Tile, double_six, tile
from tablehall_boards.hidden import sample_hidden
from tablehall_rules import AfkLadder

OWNER_CODES = {"red": 0, "blue": 1, "black": BLACK}


def _without(tiles: list[Tile], used: list[Tile]) -> list[Tile]:
    left = list(tiles)
    for t in used:
        left.remove(t)
    return left


class Board(NamedTuple):
    """The board of a sampled state: what the easy bot reads of it."""

    owner: list[int]
    face: list[int]


def _hands(view: dict[str, Any], seat: int, rng: random.Random) -> list[tuple[list[Tile], list[Tile]]]:
    """Per player of the view, its hand and the tiles left in its set: the seat's own, the
    opponent's sampled (the only draws of `rng`)."""
    own_hand = [tile(a, b) for a, b in view["me"]["hand"]]
    out = []
    for p in view["players"]:
        on_board = [tile(*d["pips"]) for d in view["dominoes"] if d["seat"] == p["seat"]]
        unseen = _without(list(double_six()), on_board)
        if p["seat"] == seat:
            out.append((own_hand, _without(unseen, own_hand)))
        else:
            deal = sample_hidden(unseen, {p["seat"]: p["hand_size"]}, rng, rest_size=p["set_left"])
            out.append((sorted(deal.hands[p["seat"]]), list(deal.rest)))
    return out


def _board(view: dict[str, Any]) -> tuple[list[int], list[int], list[int]]:
    owner, face, domino = [FREE] * CELLS, [0] * CELLS, [NO_DOMINO] * CELLS
    for piece in view["pieces"]:
        cell = piece["cell"]
        owner[cell] = OWNER_CODES[piece["owner"]]
        face[cell] = piece["face"]
        domino[cell] = piece["domino"] if piece["domino"] is not None else NO_DOMINO
    return owner, face, domino


def sample_board(view: dict[str, Any], seat: int, rng: random.Random) -> Board:
    """`determinize(view, seat, rng)`'s board, with the same draws of `rng` (the rest of the
    state is not made: the easy bot reads only the board)."""
    _hands(view, seat, rng)
    owner, face, _ = _board(view)
    return Board(owner, face)


def determinize(view: dict[str, Any], seat: int, rng: random.Random) -> State:
    placed = [
        PlacedDomino(id=d["id"], seat=d["seat"], cells=list(d["cells"]), pips=list(d["pips"])) for d in view["dominoes"]
    ]
    players: list[Player] = []
    for p, (hand, rest) in zip(view["players"], _hands(view, seat, rng), strict=True):
        players.append(
            Player(
                seat=p["seat"],
                name=p["name"],
                is_bot=p["is_bot"],
                score=p["score"],
                dice_left=p["dice_left"],
                hand=sorted(hand),
                bazaar=sorted(rest),
            )
        )
    owner, face, domino = _board(view)
    contour = view["contour"]
    result = view["result"]
    return State(
        clock_ms=view["clock_ms"],
        players=players,
        afk=AfkLadder(
            afk=[p["afk"] for p in view["players"]],
            strikes=[p["strikes"] for p in view["players"]],
            by_bot=[p["by_bot"] for p in view["players"]],
            absent=[p["absent"] for p in view["players"]],
            bots=[p["is_bot"] for p in view["players"]],
        ),
        owner=owner,
        face=face,
        domino=domino,
        dominoes=placed,
        black_left=view["black_left"],
        phase=view["phase"],
        round=view["round"],
        turn_index=view["turn_index"],
        rolled=[list(r) for r in view["rolled"]],
        setup_face=view["setup_face"] or 0,
        active=view["active_seat"] if view["active_seat"] is not None else 0,
        contour=OpenContour(
            seat=contour["seat"], cells=list(contour["cells"]), face=contour["face"], inside=list(contour["inside"])
        )
        if contour is not None
        else None,
        domino_wait=list(view["domino_wait"]),
        domino_answered=list(view["domino_answered"]),
        # the opponent's sealed answer is unknown: sampled as "no" (the seat's own is in its view)
        domino_taking=[seat] if view["me"].get("domino_take") else [],
        phase_at_ms=view["phase_at_ms"],
        turn_seq=view["turn_seq"],
        last_at_ms=view["now_ms"],
        end_reason=result["reason"] if result else "",
        places=[list(p) for p in result["places"]] if result else [],
        final=list(result["final"]) if result else [],
    )
