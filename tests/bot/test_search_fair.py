"""The strong bot never reads the true hidden state.

For positions of real games, a copy of the state gets junk in everything the
seat may not see (deck orders, other players' secrets and offers). The seat's
views of both are equal, and a search fed either view (same seed, a clock
that counts calls instead of time) makes the same choice. Determinizing a
view gives back a state whose view is that view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import msgspec
from tablehall_bot.search.hooks import GameHooks
from tablehall_bot.search.ismcts import Search, SearchSettings

import testgame.game as race
from puzzipolia import simulate
from puzzipolia.game import GAME as PUZZIPOLIA
from puzzipolia.state import Bundle, Offer, State, clone
from tablehall_rules import DecideContext, DrawSource, SeatInfo, Viewer


def ticking_clock(step: float = 0.001) -> Callable[[], float]:
    now = [0.0]

    def clock() -> float:
        now[0] += step
        return now[0]

    return clock


def choose(game: object, view: dict[str, object], seat: int, legal: list[msgspec.Struct]) -> msgspec.Struct:
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
