"""Random games: never raise, always end after 22 rounds, replay identically, never show a seat
the opponent's domino hand (nor a spectator either hand)."""

from __future__ import annotations

import random

import msgspec
import pytest

from dragons.events import DominoTaken
from dragons.game import GAME
from dragons.state import ROUNDS, State
from tablehall_boards.dominoes import Tile
from tablehall_rules import Viewer
from tablehall_rules import conformance as kit


def _other_hand(st: State, seat: int) -> State:
    """The same table with the opponent's hand swapped for other tiles of its set."""
    other: State = kit.copy_state(GAME, st)
    p = other.player(1 - seat)
    pool = sorted(p.hand + p.bazaar)
    random.Random(len(pool)).shuffle(pool)
    p.hand = sorted(pool[: len(p.hand)])
    p.bazaar = sorted(pool[len(p.hand) :])
    return other


@pytest.mark.parametrize("seed", [11, 29])
def test_random_games_end_after_22_rounds_replay_and_keep_hands_hidden(seed: int) -> None:
    final, played = kit.play_random_game(GAME, {}, 2, random.Random(seed), max_commands=GAME.nature.max_commands)
    assert final.round == ROUNDS and final.end_reason == "rounds"
    assert GAME.outcome(final) is not None
    # every one of each player's 60 dice was used: 4 on the ring, the six, 55 rolled
    assert [p.dice_left for p in final.players] == [0, 0]
    rebuilt = kit.replay(GAME, played.events)
    assert msgspec.json.encode(rebuilt) == msgspec.json.encode(final)
    state: State | None = None
    hidden_checked = 0
    for event in played.events:
        lines = GAME.journal(state, event)
        assert lines and all(line.ru and line.en for line in lines), event
        state = GAME.evolve(state, event)
        if not isinstance(event, DominoTaken):
            continue
        for seat in (0, 1):
            mine = GAME.view(state, Viewer.of_seat(seat))
            assert mine["me"]["hand"] == [[t.low, t.high] for t in state.player(seat).hand]
            assert "hands" not in mine
            assert GAME.view(_other_hand(state, seat), Viewer.of_seat(seat)) == mine
            hidden_checked += 1
        spectator = GAME.view(state, Viewer.spectator())
        assert "me" not in spectator and "hands" not in spectator
    assert hidden_checked > 0
    assert all(isinstance(t, Tile) for p in final.players for t in p.hand)


def test_the_same_seed_plays_the_same_game() -> None:
    a, pa = kit.play_random_game(GAME, {}, 2, random.Random(5), max_commands=3000)
    b, pb = kit.play_random_game(GAME, {}, 2, random.Random(5), max_commands=3000)
    assert pa.events == pb.events and msgspec.json.encode(a) == msgspec.json.encode(b)
