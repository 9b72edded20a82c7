"""The strong heuristic (`bot.STRONG`, what the strong bot's search plays): every decision its
weights change, in a position where the easy weights (`bot.EASY`) decide otherwise; and its
moves and rankings are legal commands in positions of real games."""

from __future__ import annotations

import dataclasses
import random

import msgspec
import pytest
from hypothesis import given as hypothesis_given
from hypothesis import settings
from hypothesis import strategies as st
from mg_helpers import cell

from magnates import bot
from magnates import commands as c
from magnates.game import GAME
from magnates.state import State, Stop
from tablehall_rules import DecideContext, DrawSource, StructCodec, Viewer
from tablehall_rules.legal import expand_all
from tablehall_rules.testing import Table

CODEC = StructCodec(GAME.command_types)


def decided(state: State, legal: list[msgspec.Struct], weights: bot.Weights) -> msgspec.Struct:
    view = GAME.view(state, Viewer.of_seat(state.turn))
    return bot.choose(view, legal, random.Random(0), weights)


def queen_at_an_unowned_inner_company() -> tuple[State, list[msgspec.Struct]]:
    """Seat 0's queen has stopped on d4, an unowned inner Company: buy it or end the stop."""
    table = Table(GAME)
    state = table.state
    d4 = cell("d4")
    state.players[0].pieces["queen"] = d4
    state.phase, state.piece, state.stop = "piece_stop", "queen", Stop(d4, by_king=False, company=True)
    return state, [c.BuyCompany(), c.EndStop()]


def test_the_easy_weights_are_the_easy_bots() -> None:
    state, legal = queen_at_an_unowned_inner_company()
    view = GAME.view(state, Viewer.of_seat(0))
    assert GAME.bot_policy(view, legal, random.Random(0)) == bot.choose(view, legal, random.Random(0), bot.EASY)


def test_the_strong_heuristic_leaves_inner_companies_to_the_bank() -> None:
    # an inner Company invites the rival's raids (a rook takes a level-0 one 21 times in 36)
    state, legal = queen_at_an_unowned_inner_company()
    d4 = cell("d4")
    assert decided(state, legal, bot.EASY) == c.BuyCompany()
    assert decided(state, legal, bot.STRONG) == c.EndStop()
    # and a move onto one is worth nothing more to it (to the easy weights half the price)
    state.phase, state.stop, state.piece = "move", None, ""
    state.players[0].pieces["queen"] = cell("d2")
    seen = bot.Seen.of_view(GAME.view(state, Viewer.of_seat(0)))
    move = c.MovePiece(piece="queen", to=d4)
    assert bot.move_score(seen, move, bot.EASY) == 400
    assert bot.move_score(seen, move, bot.STRONG) == 0


def test_the_strong_heuristic_still_buys_perimeter_companies() -> None:
    state = Table(GAME).state
    a4 = cell("a4")
    state.players[0].king = 3  # a4, a Company of 320
    state.phase, state.stop = "king_stop", Stop(a4, by_king=True, company=True)
    assert decided(state, [c.BuyCompany(), c.EndStop()], bot.STRONG) == c.BuyCompany()


def test_the_strong_heuristic_raids_only_for_a_clear_gain() -> None:
    # a knight against an enemy level-1 quarter Company (800, upgrades 400): it wins 15 in 36
    state = Table(GAME).state
    d4 = cell("d4")
    state.owner[d4], state.level[d4] = 1, 1
    state.players[0].pieces["knight"] = cell("c2")
    state.phase = "move"
    seen = bot.Seen.of_view(GAME.view(state, Viewer.of_seat(0)))
    raid = c.MovePiece(piece="knight", to=d4)
    # easy: the Company (1200) moves from the owner to the raider, twice its value in the lead;
    # strong keeps a raided Company at half for itself (it invites the rival's raids back)
    assert bot.move_score(seen, raid, bot.EASY) == pytest.approx(15 / 36 * 2400 - 21 / 36 * 1000)
    assert bot.move_score(seen, raid, bot.STRONG) == pytest.approx(15 / 36 * 1800 - 21 / 36 * 1000)
    legal = [raid, c.PassMove()]
    assert decided(state, legal, bot.EASY) == raid
    # ...and passes a move worth less than 200 (without that threshold it would still go)
    assert decided(state, legal, bot.STRONG) == c.PassMove()
    assert decided(state, legal, dataclasses.replace(bot.STRONG, pass_below=0.0)) == raid


def test_the_strong_heuristic_keeps_a_guard_on_its_inner_company() -> None:
    # the queen stands on its own d4: an enemy piece must beat it in a duel before it can raid
    state = Table(GAME).state
    d4 = cell("d4")
    state.owner[d4] = 0
    state.players[0].pieces["queen"] = d4
    state.phase = "move"
    seen = bot.Seen.of_view(GAME.view(state, Viewer.of_seat(0)))
    leave = c.MovePiece(piece="queen", to=cell("b4"))
    assert bot.move_score(seen, leave, bot.EASY) == 0
    assert bot.move_score(seen, leave, bot.STRONG) == -0.5 * 800
    legal = [leave, c.PassMove()]
    assert decided(state, legal, bot.EASY) == leave
    assert decided(state, legal, dataclasses.replace(bot.STRONG, pass_below=0.0)) == c.PassMove()


def test_the_strong_ranking_starts_with_its_own_move_and_is_distinct() -> None:
    state, legal = queen_at_an_unowned_inner_company()
    view = GAME.view(state, Viewer.of_seat(0))
    assert GAME.bot_ranking(view, legal, random.Random(0), 8) == [c.EndStop(), c.BuyCompany()]
    assert GAME.bot_ranking(view, legal, random.Random(0), 1) == [c.EndStop()]


def mixed_game_positions(seed: int, count: int) -> list[State]:
    """Positions of a heads-up game the strong and the easy heuristic play (with some random
    moves, so that losses, raids and lone Kings happen)."""
    rng = random.Random(seed)
    draws = DrawSource(seed.to_bytes(8, "big") * 4)
    table = Table(GAME, 2, {"round_limit": 20})
    state = table.state
    out: list[State] = []
    step = 0
    while state.phase != "over" and len(out) < count:
        seat = state.turn
        legal = bot.legal_commands(state, seat)
        if rng.random() < 0.3:
            command = rng.choice(legal)
        else:
            command = bot.choose_in_state(state, seat, rng, bot.STRONG if seat == 0 else bot.EASY)
        if len(legal) > 1:
            out.append(msgspec.json.decode(msgspec.json.encode(state), type=State))
        step += 1
        for event in GAME.decide(state, command, DecideContext(seat, step * 100, draws)):
            state = GAME.evolve(state, event)
    return out


@settings(max_examples=10, deadline=None)
@hypothesis_given(seed=st.integers(0, 2**32), k=st.integers(0, 1000))
def test_the_strong_heuristic_and_its_ranking_choose_legal_commands(seed: int, k: int) -> None:
    for state in mixed_game_positions(seed, 40):
        seat = state.turn
        legal = expand_all(GAME.legal(state, seat, 0), CODEC)
        view = GAME.view(state, Viewer.of_seat(seat))
        strong = bot.choose(view, legal, random.Random(k), bot.STRONG)
        assert strong in legal
        assert GAME.rollout_policy(state, seat, random.Random(k)) == strong
        ranked = GAME.bot_ranking(view, legal, random.Random(k), 8)
        assert ranked[0] == strong and all(m in legal for m in ranked)
        assert len({msgspec.json.encode(m) for m in ranked}) == len(ranked) == min(8, len(legal))
