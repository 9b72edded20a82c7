"""Set-up: armies on their arms, 7 cards each and the first card turned up, 3 tiles each from
the bazaar (one double-six set at 2-3 players, two at 4), hidden mines in the central 8×8
(6/7/8 by player count), 30 gold each. Every random draw goes through `ctx.rng`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from homunculus import cards as k
from homunculus import events as e
from homunculus.board import MINES_BY_PLAYERS, START_DOMINOES, START_GOLD
from homunculus.flow import Flow
from homunculus.ring.state import Ring
from homunculus.rules.ring_roll import begin_ring
from homunculus.state import ACTION, Mine, State
from tablehall_boards import Piece, cross
from tablehall_boards.deck import deal, draw, shuffled_deck
from tablehall_boards.dominoes import Bazaar, bazaar_of, domino_sets, draw_tile
from tablehall_rules import AfkLadder, DecideContext, InvalidOptions, SeatInfo

DEFAULT_CLOCK_MS = 60_000
OPTIONS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "teams": {"type": "boolean", "description": "2-on-2 at four players (opposite arms allied)"},
        "clock_ms": {"type": "integer", "minimum": 5000, "maximum": 600000},
    },
    "additionalProperties": False,
}


def parse_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(raw) - {"teams", "clock_ms"}
    if unknown:
        raise InvalidOptions(
            "UNKNOWN_OPTION", f"Unknown options: {sorted(unknown)}", f"Неизвестные параметры: {sorted(unknown)}"
        )
    teams = raw.get("teams", False)
    clock = raw.get("clock_ms", DEFAULT_CLOCK_MS)
    if not isinstance(teams, bool):
        raise InvalidOptions("BAD_TEAMS", "teams is true or false.", "teams — да или нет.")
    if not isinstance(clock, int) or isinstance(clock, bool) or not 5_000 <= clock <= 600_000:
        raise InvalidOptions("BAD_CLOCK", "clock_ms is 5000 to 600000.", "clock_ms — от 5000 до 600000.")
    return {"teams": teams, "clock_ms": clock}


def teams_for(options: Mapping[str, Any], seat_count: int) -> list[list[int]]:
    """2-on-2 at four players pairs the opposite arms: players 0+2 and 1+3."""
    return [[0, 2], [1, 3]] if options.get("teams") and seat_count == 4 else []


def start(options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext) -> list[msgspec.Struct]:
    n = len(seats)
    if not 2 <= n <= 4:
        raise InvalidOptions("SEATS", "Гомункул is for 2 to 4 players.", "В Гомункул играют от 2 до 4 игроков.")
    if options.get("teams") and n != 4:
        raise InvalidOptions("TEAMS_NEED_FOUR", "2-on-2 needs four players.", "Режим 2 на 2 — только вчетвером.")
    rng = ctx.rng
    arms = list(cross.seats_for(n))
    pieces: dict[int, Piece] = {}
    for p, arm in enumerate(arms):
        pieces.update({cell: Piece(piece.kind, p) for cell, piece in cross.army(arm).items()})
    deck = shuffled_deck(k.full_deck(), rng)
    deck, dealt = deal(deck, n, k.HAND_SIZE, rng)
    deck, first = draw(deck, 1, rng)
    deck = msgspec.structs.replace(deck, discard_pile=first.cards)
    top = first.cards[0]
    colour = arms[0] if top.is_wild else top.colour
    bazaar: Bazaar = bazaar_of(domino_sets(2 if n == 4 else 1))
    domino_hands: list[list[Any]] = [[] for _ in range(n)]
    for p in range(n):
        for _ in range(START_DOMINOES):
            bazaar, t = draw_tile(bazaar, rng)
            domino_hands[p].append(t)
    centre = sorted(cross.centre())
    mines = [Mine(cell) for cell in sorted(rng.shuffled(centre)[: MINES_BY_PLAYERS[n]])]
    state = State(
        players=n,
        arms=arms,
        teams=teams_for(options, n),
        clock_ms=int(options.get("clock_ms", DEFAULT_CLOCK_MS)),
        pieces=pieces,
        wounded=[False] * n,
        alive=[True] * n,
        eliminated=[],
        gold=[START_GOLD] * n,
        hands=[list(d.cards) for d in dealt],
        deck=deck,
        colour=colour,
        domino_hands=domino_hands,
        bazaar=bazaar,
        dominoes=[],
        removed_tiles=[],
        mines=mines,
        opened=[],
        turn=0,
        direction=1,
        phase=ACTION,
        turn_started_ms=ctx.now_ms,
        decision_no=0,
        afk=AfkLadder.for_seats(n, bots=[s.seat for s in seats if s.is_bot]),
        inventory=[[] for _ in range(n)],
        ring=Ring.for_players(n),
        names=[s.name for s in sorted(seats, key=lambda s: s.seat)],
    )
    flow = Flow(state, ctx)
    begin_ring(flow)  # the first turn, like every turn, begins with the ring roll
    return [e.Started(state), *flow.events]
