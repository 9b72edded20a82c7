"""Bot hooks: the easy bot prefers scoring moves; determinize keeps the seat's view; evaluate."""

from __future__ import annotations

import random
from collections import Counter

import msgspec
import pytest
from dr_helpers import BLUE, RED, cell, give_hand, put, put_line, table

from dragons import commands as c
from dragons.board import FREE
from dragons.bot import Scorer
from dragons.game import GAME
from dragons.rules.combos import line_combos
from dragons.rules.placement import combos_if_placed
from dragons.state import State
from tablehall_rules import DecideContext, StructCodec, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all


def test_the_easy_bot_takes_the_scoring_placement() -> None:
    t = table(red=(5, 1, 1))
    put_line(t, RED, (0, 3), (1, 0), [1, 2, 3, 4])
    legal = t.legal(RED)
    view = t.view(RED)
    for seed in range(5):
        choice = GAME.bot_policy(view, legal, random.Random(seed))
        assert isinstance(choice, c.PlaceDie) and choice.face == 5
        assert choice.cell in (cell(4, 3), cell(-1, 3))


def test_the_random_player_plays_a_legal_command() -> None:
    from tablehall_bot.search.hooks import GameHooks

    t = table(red=(5, 1, 1))
    put(t, 0, 3, RED, 1)
    legal = t.legal(RED)
    assert GameHooks(GAME).random(t.view(RED), legal, random.Random(1)) in legal


def test_determinize_resamples_only_the_opponents_hand() -> None:
    t = table(round_no=5)
    put(t, 0, 3, RED, 6)
    give_hand(t, RED, (1, 2))
    give_hand(t, BLUE, (3, 4), (5, 6))
    st = t.state
    view = t.view(RED)
    hands = set()
    for seed in range(12):
        sample = GAME.determinize(view, RED, random.Random(seed))
        assert GAME.view(sample, Viewer.of_seat(RED)) == view
        assert sample.player(RED).hand == st.player(RED).hand
        assert len(sample.player(BLUE).hand) == 2 and len(sample.player(BLUE).bazaar) == 26
        hands.add(tuple(sample.player(BLUE).hand))
    assert len(hands) > 1


def test_evaluate_favours_the_leader_with_a_king() -> None:
    t = table(round_no=5)
    put(t, 0, 3, RED, 6)
    put(t, 0, -3, BLUE, 6)
    st = t.state
    st.player(RED).score = 30
    assert GAME.evaluate(st, RED) > 0.5 > GAME.evaluate(st, BLUE)
    st.owner[cell(0, 3)] = -1  # red loses its only king: its 30 count for nothing
    assert GAME.evaluate(st, RED) <= 0.5


def plain_points(st: State, seat: int, command: msgspec.Struct) -> int:
    """The points of `command` by the engine's own line scoring on a copied board (what the easy
    bot's `Scorer` computes without copies)."""
    owner, face = list(st.owner), list(st.face)
    if isinstance(command, c.PlaceDie):
        owner[command.cell], face[command.cell] = seat, command.face
        points = sum(x.points for x in line_combos(owner, face, seat, [command.cell]))
        return points + sum(face[x] for x in command.contour)
    if isinstance(command, c.ChessMove):
        piece = face[command.origin]
        taken = face[command.target] if owner[command.target] == 1 - seat else 0
        owner[command.origin], face[command.origin] = FREE, 0
        owner[command.target], face[command.target] = seat, command.promotion or piece
        points = sum(x.points for x in line_combos(owner, face, seat, [command.target]))
        return points + (6 if taken == 6 else 0) + sum(face[x] for x in command.contour)
    if isinstance(command, c.PlaceDomino):
        cells = list(command.cells)
        points = sum(x.points for x in combos_if_placed(owner, face, seat, cells, [command.first, command.second]))
        for cell_, pips in zip(cells, (command.first, command.second), strict=True):
            face[cell_] = pips
        return points + sum(face[x] for x in command.contour)
    return 0


@pytest.mark.parametrize("seed", [1, 2])
def test_the_easy_bots_scorer_agrees_with_the_engines_line_scoring(seed: int) -> None:
    """Along bot games, every legal command's points as the bot's `Scorer` finds them (bit masks,
    kept windows, no board copies) equal those of the engine's `line_combos` on a copied board."""
    codec = StructCodec(GAME.command_types)
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, {}, kit.seats_for(2), rng.randbytes(32))
    now = kit.START_MS
    compared = scoring = 0
    while GAME.outcome(state) is None:
        decision = GAME.pending(state)[0]
        now += 250
        legal = expand_all(GAME.legal(state, decision.seat, now), codec, limit=400)
        scorer = Scorer(state, decision.seat)
        for command in legal:
            want = plain_points(state, decision.seat, command)
            assert scorer.points(command) == want, command
            compared += 1
            scoring += want > 0
        chosen = GAME.bot_policy(GAME.view(state, Viewer.of_seat(decision.seat)), legal, rng)
        for event in GAME.decide(state, chosen, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)
    assert compared > 1000 and scoring > 50  # the games scored: the comparison covered points


@pytest.mark.parametrize("seed", [3, 4])
def test_the_easy_bot_chooses_on_the_descriptors_as_on_the_commands(seed: int) -> None:
    """Along bot games, at every decision, the easy bot deciding on the descriptors
    (`bot_policy_moves`, as the bot service asks it on a view it rendered) picks the command it
    picks on the spelled-out list (`bot_policy`), with the same draws of the same rng."""
    codec = StructCodec(GAME.command_types)
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, {}, kit.seats_for(2), rng.randbytes(32))
    now = kit.START_MS
    seen: Counter[str] = Counter()
    while GAME.outcome(state) is None:
        decision = rng.choice(GAME.pending(state))
        now += 250
        view = msgspec.to_builtins(GAME.view(state, Viewer.of_seat(decision.seat)), str_keys=True)
        twin = random.Random()
        twin.setstate(rng.getstate())
        spelled = GAME.bot_policy(view, expand_all(GAME.legal(state, decision.seat, now), codec), rng)
        described = GAME.bot_policy_moves(view, GAME.legal(state, decision.seat, now), twin)
        assert msgspec.json.encode(described) == msgspec.json.encode(spelled)
        assert twin.getstate() == rng.getstate()
        seen[type(spelled).__name__] += 1
        seen["contour"] += bool(getattr(spelled, "contour", None))
        for event in GAME.decide(state, spelled, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)
    # the games went through every kind of decision, and the bot declared contours and scored
    assert {"PlaceStart", "PlaceDie", "ChessMove", "PlaceDomino", "TakeDomino", "PlaceBlack", "contour"} <= set(seen), (
        seen
    )


def test_the_easy_bot_on_descriptors_refuses_an_empty_listing() -> None:
    with pytest.raises(ValueError, match="no legal command"):
        GAME.bot_policy_moves(table().view(RED), [], random.Random(1))
