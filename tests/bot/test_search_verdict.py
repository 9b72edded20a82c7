"""The search overrules its game's heuristic only on evidence: enough samples, more votes, a mean
lead of `margin` and a paired lead (same worlds and dice for both moves) of `confidence` standard
errors, when the game's hints ask for them (Магнаты: 8 samples, 2 standard errors); a game that
asks for none is overruled on votes and the margin alone."""

from __future__ import annotations

import random

import msgspec
from tablehall_bot.search.hooks import GameHooks, command_key
from tablehall_bot.search.ismcts import Search, SearchSettings

import testgame.game as race


class Move(msgspec.Struct, tag="move"):
    n: int


OWN, OTHER = Move(0), Move(1)
OPTIONS: dict[bytes, msgspec.Struct] = {command_key(OWN): OWN, command_key(OTHER): OTHER}


EVIDENCE = {"min_samples": 8, "confidence": 2.0}


def verdict(pairs: list[tuple[float, float]], **settings: float) -> tuple[msgspec.Struct, float]:
    """The verdict on samples valued (heuristic's move, other move), Магнаты's evidence unless
    `settings` say otherwise."""
    given = {**EVIDENCE, **settings}
    search = Search(
        GameHooks(race.GAME),
        SearchSettings(min_samples=int(given["min_samples"]), confidence=given["confidence"]),
        random.Random(0),
    )
    rows = [{command_key(OWN): a, command_key(OTHER): b} for a, b in pairs]
    votes = {k: float(sum(1 for r in rows if r[k] == max(r.values()))) for k in OPTIONS}
    means = {k: sum(r[k] for r in rows) / len(rows) for k in OPTIONS}
    return search._verdict(OWN, OPTIONS, votes, means, rows)


def test_a_steady_lead_over_enough_samples_overrules_the_heuristic() -> None:
    command, lead = verdict([(0.40, 0.50 + 0.01 * (i % 3)) for i in range(10)])
    assert command == OTHER and lead > 2.0


def test_a_lead_seen_in_too_few_samples_does_not() -> None:
    assert verdict([(0.40, 0.60)] * 7) == (OWN, 0.0)  # min_samples is 8
    assert verdict([(0.40, 0.60)] * 3, min_samples=3)[0] == OTHER


def test_a_noisy_lead_does_not() -> None:
    # the other move wins more samples by a mean 0.14 but swings by 1 either way: 0.5 standard errors
    noisy = [(0.0, 1.0), (1.0, 0.0), (0.0, 1.0), (0.5, 0.4), (0.0, 1.0), (1.0, 0.0), (0.5, 0.6), (0.5, 0.6)]
    assert verdict(noisy) == (OWN, 0.0)


def test_a_lead_below_the_margin_does_not() -> None:
    assert verdict([(0.500, 0.505)] * 12) == (OWN, 0.0)


def test_a_game_asking_no_evidence_is_overruled_on_votes_and_the_margin() -> None:
    assert verdict([(0.40, 0.60)], min_samples=0, confidence=0.0)[0] == OTHER
    assert verdict([(0.500, 0.505)] * 3, min_samples=0, confidence=0.0) == (OWN, 0.0)
    # the test game gives no hints: its search asks for no evidence
    search = Search(GameHooks(race.GAME), SearchSettings(), random.Random(0))
    assert (search.min_samples, search.confidence) == (0, 0.0)


def test_magnates_hints_ask_for_evidence() -> None:
    from magnates.game import GAME

    search = Search(GameHooks(GAME), SearchSettings(), random.Random(0))
    assert (search.min_samples, search.confidence, search.horizon) == (8, 2.0, 16)
