"""The round die (Кубик), rolled after every round; its event acts on everybody.

1. Detonation (детонация): a random mine explodes; the pieces on the 8 cells around die (a king
   is wounded first, killed the second time; a shield saves a piece), the tiles there break.
   2. Gold rush (золотая жила): +3 gold each. 3. Reinforcements (подкрепление): a card each. 4. Reverse (смена направления):
   the order turns. 5. Minefield (минное поле): 2 new hidden mines (nobody's) on closed empty
   cells of the centre. 6. Bazaar (базар): a tile each, for those with fewer than 4, while any.
Per-player effects go in player order, live players only.
"""

from __future__ import annotations

from homunculus import events as e
from homunculus.flow import Flow
from homunculus.rules.draws import draw_cards, take_domino
from homunculus.rules.mines import detonate, lay_mines

DETONATION, GOLD_RUSH, REINFORCEMENTS, REVERSE, MINEFIELD, BAZAAR = 1, 2, 3, 4, 5, 6
GOLD_RUSH_GOLD = 3
NEW_MINES = 2


def roll_round_die(flow: Flow) -> None:
    face = flow.rng.die()
    flow.emit(e.RoundDie(face))
    s = flow.state
    if face == DETONATION:
        detonate(flow)
    elif face == GOLD_RUSH:
        for p in s.live_players():
            flow.emit(e.GoldPaid(p, GOLD_RUSH_GOLD, "gold_rush"))
    elif face == REINFORCEMENTS:
        for p in s.live_players():
            draw_cards(flow, p, 1, "reinforcement")
    elif face == REVERSE:
        flow.emit(e.DirectionReversed(-s.direction))
    elif face == MINEFIELD:
        lay_mines(flow, NEW_MINES)
    else:
        for p in s.live_players():
            take_domino(flow, p)
