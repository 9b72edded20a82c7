"""The strong bot never reads the true hidden state.

For positions of real games, a copy of the state gets junk in everything the
seat may not see (deck orders, other players' secrets and offers). The seat's
views of both are equal, and a search fed either view (same seed, a clock
that counts calls instead of time) makes the same choice. Determinizing a
view gives back a state whose view is that view. Гомункул's search plays
out by the game's `rollout_policy` and compares its `bot_ranking`: its
choices do not depend on the other hands, the piles or the bazaar either.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import msgspec
from tablehall_bot.search.hooks import GameHooks
from tablehall_bot.search.ismcts import Search, SearchSettings

import testgame.game as race
from homunculus.game import GAME as HOMUNCULUS
from homunculus.state import State as HmState
from puzzipolia import simulate
from puzzipolia.game import GAME as PUZZIPOLIA
from puzzipolia.state import Bundle, Offer, State
from tablehall_rules import DecideContext, DrawSource, Game, SeatInfo, Viewer, clone


def ticking_clock(step: float = 0.001) -> Callable[[], float]:
    now = [0.0]

    def clock() -> float:
        now[0] += step
        return now[0]

    return clock


def choose(game: Game[Any], view: dict[str, object], seat: int, legal: list[msgspec.Struct]) -> msgspec.Struct:
    search = Search(GameHooks(game), SearchSettings(think_ms=60, horizon=20), random.Random(7), ticking_clock())
    return search.choose(view, seat, legal).command


def puzzipolia_positions(count: int) -> Iterator[tuple[State, int]]:
    """States of a random 4-player game with an open decision and a real choice."""
    found: list[tuple[State, int]] = []

    def keep(state: State, _new: list[msgspec.Struct]) -> None:
        if len(found) >= count or state.phase == "over":
            return
        for d in PUZZIPOLIA.pending(state):
            if d.kind in ("buy", "auction", "card67", "jail", "offer_answer"):
                found.append((clone(state), d.seat))
                return

    simulate.play(
        ["bot", "random", "bot", "random"],
        11,
        options={"round_limit": 30},
        timeout_rate=0.0,
        quitting=False,
        check=keep,
    )
    return iter(found)


def with_junk(state: State, seat: int, rng: random.Random) -> State:
    junk = clone(state)
    for deck, cards in junk.decks.items():
        junk.decks[deck] = list(reversed(cards)) if rng.random() < 0.5 else rng.sample(cards, len(cards))
    junk.offers = [
        o
        if seat in (o.proposer, o.recipient)
        else Offer(o.id, o.proposer, o.recipient, Bundle(money=rng.randint(1, 999)), Bundle(), o.at_ms)
        for o in junk.offers
    ]
    return junk


def test_puzzipolia_choices_do_not_depend_on_hidden_data() -> None:
    rng = random.Random(3)
    positions = list(puzzipolia_positions(6))
    assert len(positions) == 6
    for state, seat in positions:
        junk = with_junk(state, seat, rng)
        assert junk.decks != state.decks
        true_view = PUZZIPOLIA.view(state, Viewer.of_seat(seat))
        junk_view = PUZZIPOLIA.view(junk, Viewer.of_seat(seat))
        assert junk_view == true_view
        legal = GameHooks(PUZZIPOLIA).legal(state, seat, 0)
        assert choose(PUZZIPOLIA, true_view, seat, legal) == choose(PUZZIPOLIA, junk_view, seat, legal)


def test_race_choices_do_not_depend_on_opponents_secrets() -> None:
    game = race.GAME
    seats = [SeatInfo(i, f"u{i}", f"U{i}") for i in range(3)]
    state = None
    for event in game.start({"target": 12}, seats, DecideContext(None, 0, DrawSource(b"s" * 32))):
        state = game.evolve(state, event)
    assert state is not None
    junk = msgspec.structs.replace(state, secrets=[state.secrets[0], 1, 100])
    views = [game.view(s, Viewer.of_seat(0)) for s in (state, junk)]
    assert views[0] == views[1]
    legal = GameHooks(game).legal(state, 0, 0)
    picks = [choose(game, v, 0, legal) for v in views]
    assert picks[0] == picks[1] == race.Roll()


def test_a_determinized_state_shows_the_seat_exactly_its_view() -> None:
    checked = 0

    def check(state: State, _new: list[msgspec.Struct]) -> None:
        nonlocal checked
        for p in state.players:
            view = PUZZIPOLIA.view(state, Viewer.of_seat(p.seat))
            sample = PUZZIPOLIA.determinize(view, p.seat, random.Random(checked))
            again = PUZZIPOLIA.view(sample, Viewer.of_seat(p.seat))
            # offers the seat is no party to are not sampled: nothing of them shows
            assert again == view
            checked += 1

    for seed in (5, 6):
        simulate.play(["bot", "random", "bot"], seed, options={"round_limit": 8}, quitting=False, check=check)
    assert checked > 300


def homunculus_positions(count: int) -> list[tuple[HmState, int]]:
    """States of a heads-up game of easy bots where the turn player has a real choice."""
    from tablehall_rules import conformance as kit

    hooks = GameHooks(HOMUNCULUS)
    rng = random.Random(21)
    state, _, source = kit.start(HOMUNCULUS, {}, kit.seats_for(2), rng.randbytes(32))
    found: list[tuple[HmState, int]] = []
    now = kit.START_MS
    while HOMUNCULUS.outcome(state) is None and len(found) < count:
        decision = rng.choice(HOMUNCULUS.pending(state))
        now += 250
        legal = [m for m in hooks.legal(state, decision.seat, now) if type(m).__name__ != "Surrender"]
        if not legal:
            continue
        if decision.kind == "action" and len(legal) > 3 and rng.random() < 0.2:
            found.append((hooks.clone(state), decision.seat))
        command = hooks.heuristic(HOMUNCULUS.view(state, Viewer.of_seat(decision.seat)), legal, rng)
        for event in HOMUNCULUS.decide(state, command, DecideContext(decision.seat, now, source)):
            state = HOMUNCULUS.evolve(state, event)
    return found


def homunculus_junk(state: HmState, seat: int, rng: random.Random) -> HmState:
    """The other hands and the draw pile dealt anew from their cards, the discard pile under its
    top shuffled, the other tile hands dealt anew with the bazaar's tiles."""
    junk: HmState = GameHooks(HOMUNCULUS).clone(state)
    others = [p for p in range(junk.players) if p != seat]
    cards = [card for p in others for card in junk.hands[p]] + list(junk.deck.draw_pile)
    rng.shuffle(cards)
    for p in others:
        size = len(junk.hands[p])
        junk.hands[p], cards = cards[:size], cards[size:]
    under = list(junk.deck.discard_pile[:-1])
    rng.shuffle(under)
    junk.deck = msgspec.structs.replace(
        junk.deck, draw_pile=tuple(cards), discard_pile=(*under, *junk.deck.discard_pile[-1:])
    )
    tiles = [t for p in others for t in junk.domino_hands[p]] + list(junk.bazaar.tiles)
    rng.shuffle(tiles)
    for p in others:
        size = len(junk.domino_hands[p])
        junk.domino_hands[p], tiles = tiles[:size], tiles[size:]
    junk.bazaar = msgspec.structs.replace(junk.bazaar, tiles=tuple(sorted(tiles)))
    return junk


def test_homunculus_choices_do_not_depend_on_hidden_data() -> None:
    rng = random.Random(5)
    positions = homunculus_positions(4)
    assert len(positions) == 4
    differed = 0
    for state, seat in positions:
        junk = homunculus_junk(state, seat, rng)
        differed += junk.hands != state.hands or junk.deck != state.deck
        true_view = HOMUNCULUS.view(state, Viewer.of_seat(seat))
        assert HOMUNCULUS.view(junk, Viewer.of_seat(seat)) == true_view
        legal = GameHooks(HOMUNCULUS).legal(state, seat, 0)
        search = Search(GameHooks(HOMUNCULUS), SearchSettings(think_ms=40), random.Random(7), ticking_clock())
        picked = search.choose(true_view, seat, legal)
        assert picked.samples > 0  # the search ran: playouts by the rollout policy
        again = Search(GameHooks(HOMUNCULUS), SearchSettings(think_ms=40), random.Random(7), ticking_clock())
        assert again.choose(HOMUNCULUS.view(junk, Viewer.of_seat(seat)), seat, legal).command == picked.command
    assert differed == len(positions)
