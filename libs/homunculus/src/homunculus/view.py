"""`view`: what a seat, a spectator or an auditor sees (the one place of redaction).

Hidden: other players' hands and tile hands (their sizes are public), the deck order and the
discard pile under its top card (sizes public), the bazaar (its size public), hidden mines and
their owners (a player sees its own and its allies' mines; the total count is public), the
card a player just drew. The shop's items (price, name, effect) and the ring's squares (name,
kind, price) are in every view (`shop`, `ring_squares`), so clients need not know the rules.
The detector's mines and the spyglass's cards are shown to their user
only, while they last (`detected`; the watched player's `hands` entry). The auditor sees everything.
"""

from __future__ import annotations

from typing import Any

import msgspec

from homunculus.cards import Card
from homunculus.catalogue import ring_squares_view, shop_view
from homunculus.rules.mines import numbers
from homunculus.rules.shop import detected, spied
from homunculus.state import State
from tablehall_boards.deck import Deck
from tablehall_boards.dominoes import Bazaar
from tablehall_rules import JsonView, Viewer

_NO_DECK: Deck[Card] = Deck()
_NO_BAZAAR = Bazaar()


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    # the piles are replaced below: leaving them out of the conversion saves most of its work;
    # string keys (cells, players): the shape of its JSON, which services need not convert again
    d = JsonView(msgspec.to_builtins(msgspec.structs.replace(state, deck=_NO_DECK, bazaar=_NO_BAZAAR), str_keys=True))
    d["numbers"] = {str(cell): n for cell, n in numbers(state).items()}
    d["hand_sizes"] = [len(h) for h in state.hands]
    d["domino_hand_sizes"] = [len(h) for h in state.domino_hands]
    d["mine_count"] = len(state.mines)
    d["deck"] = {
        "draw_size": len(state.deck.draw_pile),
        "discard_size": len(state.deck.discard_pile),
        "top": msgspec.to_builtins(state.top),
    }
    d["bazaar"] = {"size": len(state.bazaar)}
    d["detected"] = []
    # what a client needs to name things without the rules (public, the same for everyone)
    d["shop"] = shop_view()
    d["ring_squares"] = ring_squares_view()
    if viewer.is_auditor:
        d["hands_all"] = msgspec.to_builtins(state.hands)
        d["domino_hands_all"] = msgspec.to_builtins(state.domino_hands)
        d["deck_all"] = msgspec.to_builtins(state.deck)
        d["bazaar_all"] = msgspec.to_builtins(state.bazaar)
        return dict(d)  # the piles hold tuples, which JSON makes lists: not a JsonView (no bot reads it)
    me = viewer.seat if viewer.role == "seat" else None
    d["hands"] = [h if p == me else [] for p, h in enumerate(d["hands"])]
    d["domino_hands"] = [h if p == me else [] for p, h in enumerate(d["domino_hands"])]
    d["mines"] = [
        m for m, mine in zip(d["mines"], state.mines, strict=True) if me is not None and state.mine_visible_to(mine, me)
    ]
    if me != state.turn:
        d["drawn"] = None
    # the detector's and the spyglass's results: only for their user, only while they last
    d["detected"] = detected(state, me) if me is not None else []
    watched = spied(state, me) if me is not None else None
    if watched is not None:
        d["hands"][watched] = msgspec.to_builtins(state.hands[watched])
    return d
