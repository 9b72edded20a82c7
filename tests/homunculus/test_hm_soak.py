"""Random games (2, 3, 4 players, 2-on-2) never raise, always end, replay identically and leak
nothing (`hm_soak.play_checked`: every view and journal line checked after every command, the
conformance kit's redaction property now and then). A few games by default; thousands under
`make soak` (`-m slow`), in batches so that no single test runs for long.
"""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest
from hm_soak import SETUPS, play_checked, replayed

from homunculus.game import GAME
from homunculus.rules import shop as items

SOAK_BATCHES = 20
SOAK_BATCH = 25  # 4 set-ups × 20 batches × 25 games = 2000 games


def check_game(players: int, teams: bool, seed: int, redaction_every: int) -> Counter[str]:
    final, events, played = play_checked(players, teams, seed, redaction_every=redaction_every)
    outcome = GAME.outcome(final)
    assert outcome is not None and sorted(p for place in outcome.places for p in place) == list(range(players))
    assert msgspec.json.encode(replayed(events)) == msgspec.json.encode(final)
    return played.used


def test_a_random_game_of_each_set_up_ends_replays_leaks_nothing_and_uses_the_items() -> None:
    used: Counter[str] = Counter()
    for players, teams in SETUPS:
        used += check_game(players, teams, 7_000, redaction_every=100)
    assert set(items.SECOND_PART) <= set(used), used  # the random players reach every new item


def test_the_same_seed_plays_the_same_game() -> None:
    first, again = play_checked(3, False, 7_001), play_checked(3, False, 7_001)
    assert [msgspec.json.encode(e) for e in first[1]] == [msgspec.json.encode(e) for e in again[1]]


@pytest.mark.slow
@pytest.mark.timeout(3600)
@pytest.mark.parametrize("batch", range(SOAK_BATCHES))
@pytest.mark.parametrize(("players", "teams"), SETUPS)
def test_thousands_of_random_games(players: int, teams: bool, batch: int) -> None:
    for i in range(SOAK_BATCH):
        check_game(players, teams, 100_000 + batch * SOAK_BATCH + i, redaction_every=400)
