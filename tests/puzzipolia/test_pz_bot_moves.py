"""Пузиполия's easy bot on the descriptors (`bot.choose_moves`, the bot service's own views)
chooses exactly as on the spelled-out commands (`bot.choose`), decision by decision along games the
bot plays against itself (with some random moves, so debts, trades and auctions come up), and
spells out only the commands of the kinds its steps read. Its random player on the descriptors
(`random_policy_moves`, an easy bot's noise move) draws what `random_policy` draws from the
spelled-out commands, with the same draws, and spells out only the command it plays."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any, cast

import pytest
from tablehall_bot.search.hooks import LEGAL_LIMIT

from puzzipolia import bot, simulate
from puzzipolia import commands as c
from puzzipolia.game import GAME
from tablehall_rules import DecideContext, NoMove, Viewer, json_shaped
from tablehall_rules import conformance as kit
from tablehall_rules import legal as legal_module
from tablehall_rules.legal import expand_all, spell_at
from tablehall_stream.codecs import command_codec

CODEC = command_codec(GAME.id)
# the random moves of these games keep them going: nobody leaves, surrenders or votes the end
ENDINGS = (c.Leave, c.ProposeEnd, c.VoteEnd, c.Surrender)


def decide_both(state: Any, seat: int, now: int, rng_seed: int) -> tuple[Any, Any]:
    view = json_shaped(GAME.view(state, Viewer.of_seat(seat)))
    moves = GAME.legal(state, seat, now)
    legal = cast(list[c.Command], expand_all(moves, CODEC, LEGAL_LIMIT))
    answers: list[Any] = []
    ways: list[Callable[[], c.Command]] = [
        lambda: bot.choose(view, legal, random.Random(rng_seed)),
        lambda: bot.choose_moves(view, moves, random.Random(rng_seed)),
    ]
    for way in ways:
        try:
            answers.append(way())
        except NoMove as exc:
            answers.append(type(exc))
    return answers[0], answers[1]


def random_both(state: Any, seat: int, now: int, rng_seed: int) -> tuple[Any, Any]:
    """`random_policy` on the spelled-out commands and `random_policy_moves` on the descriptors,
    each from the same rng; the rngs must be left alike too."""
    view = json_shaped(GAME.view(state, Viewer.of_seat(seat)))
    moves = GAME.legal(state, seat, now)
    legal = expand_all(moves, CODEC, LEGAL_LIMIT)
    spelled_rng, described_rng = random.Random(rng_seed), random.Random(rng_seed)
    answers: list[Any] = []
    ways: list[Callable[[], Any]] = [
        lambda: GAME.random_policy(view, legal, spelled_rng),
        lambda: GAME.random_policy_moves(view, moves, described_rng),
    ]
    for way in ways:
        try:
            answers.append(way())
        except NoMove as exc:
            answers.append(type(exc))
    assert spelled_rng.getstate() == described_rng.getstate()
    return answers[0], answers[1]


@pytest.mark.parametrize(("players", "seed"), [(4, 0), (3, 1), (2, 2), (4, 3)])
def test_the_easy_bot_chooses_the_same_on_descriptors(players: int, seed: int) -> None:
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, {}, kit.seats_for(players), rng.randbytes(32))
    now = kit.START_MS
    kinds: Counter[str] = Counter()
    drawn: Counter[str] = Counter()
    for turn in range(700):
        if GAME.outcome(state) is not None:
            break
        decision = rng.choice(GAME.pending(state))
        now += 250
        spelled, described = decide_both(state, decision.seat, now, turn)
        assert spelled == described, (turn, spelled, described)
        spelled_random, described_random = random_both(state, decision.seat, now, turn)
        assert spelled_random == described_random, (turn, spelled_random, described_random)
        drawn[type(spelled_random).__name__] += 1
        if spelled is NoMove:
            continue
        kinds[type(spelled).__name__] += 1
        command = spelled
        if rng.random() < 0.2:  # now and then a random legal move: the bot's policy alone never mortgages
            legal = expand_all(GAME.legal(state, decision.seat, now), CODEC, LEGAL_LIMIT)
            staying = [x for x in legal if not isinstance(x, ENDINGS)]
            command = rng.choice(staying) if staying else spelled
        try:
            events = GAME.decide(state, command, DecideContext(decision.seat, now, source))
        except Exception:
            events = GAME.decide(state, spelled, DecideContext(decision.seat, now, source))
        for event in events:
            state = GAME.evolve(state, event)
    # the game reached the steps that read more than one kind of command
    assert {"Roll", "Buy"} <= set(kinds) or {"Roll", "Bid"} <= set(kinds), kinds
    assert sum(kinds.values()) >= 100
    # the random player's draws reached the kinds besides moving the game on (building, trading...)
    assert set(drawn) - {cls.__name__ for cls in (*simulate.PROGRESS, *simulate.RARE)}, drawn


def test_a_bid_is_read_from_its_range_without_spelling_it_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """An auction: the policy reads the lowest bid (the range's first command) and nothing else of it."""
    rng = random.Random(9)
    state, _, source = kit.start(GAME, {}, kit.seats_for(2), rng.randbytes(32))
    now = kit.START_MS
    for _ in range(2000):
        decisions = GAME.pending(state)
        auction = [d for d in decisions if "auction" in d.kind or "bid" in d.kind]
        if auction:
            break
        decision = rng.choice(decisions)
        now += 250
        legal = expand_all(GAME.legal(state, decision.seat, now), CODEC, LEGAL_LIMIT)
        # decline every purchase so auctions come up; otherwise a random move
        declines = [x for x in legal if isinstance(x, c.DeclineBuy)]
        staying = [x for x in legal if not isinstance(x, ENDINGS)]
        if not declines and not staying:
            continue
        command = declines[0] if declines else rng.choice(staying)
        for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)
    else:
        pytest.fail("no auction came up")
    seat = auction[0].seat
    moves = GAME.legal(state, seat, now)
    sizes = {type(lm.command).__name__: lm.size() for lm in moves}
    assert sizes.get("Bid", 0) > 10, sizes  # a range of bids: many commands, one descriptor
    spelled: list[int] = []
    real = spell_at

    def counted(lm: Any, index: int, codec: Any) -> Any:
        spelled.append(index)
        return real(lm, index, codec)

    monkeypatch.setattr(bot, "spell_at", counted)
    view = json_shaped(GAME.view(state, Viewer.of_seat(seat)))
    chosen = bot.choose_moves(view, moves, random.Random(1))
    assert chosen == bot.choose(view, cast(list[c.Command], expand_all(moves, CODEC, LEGAL_LIMIT)), random.Random(1))
    assert len(spelled) <= 3, spelled  # the first bid and the pass, not the range
    spelled.clear()
    monkeypatch.setattr(legal_module, "spell_at", counted)
    legal = expand_all(moves, CODEC, LEGAL_LIMIT)
    for draw_seed in range(20):  # the random player: one command spelled out a draw, a bid or the pass
        described = GAME.random_policy_moves(view, moves, random.Random(draw_seed))
        assert described == GAME.random_policy(view, legal, random.Random(draw_seed))
    assert len(spelled) == 20, spelled
