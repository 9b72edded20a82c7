"""The easy bot on the descriptors (`bot.choose_moves`, the bot service's own views) chooses
exactly as on the spelled-out commands (`bot.choose`), with the same draws of its rng, and scores
every command alike; and both choose, decision by decision along seeded games, what the code
before the descriptors and the cached readings chose (`CHOSEN`, written by that code)."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from tablehall_bot.search.hooks import LEGAL_LIMIT

from homunculus import bot
from homunculus.board import grid, targets_of
from homunculus.game import GAME
from homunculus.rules import shop
from homunculus.state import ACTION, FREE_MOVE, State
from tablehall_boards import cross
from tablehall_rules import DecideContext, LegalMove, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all
from tablehall_stream.codecs import command_codec

CODEC = command_codec(GAME.id)
# (players, options, seed, decisions): the games of `chosen`
GAMES = [(4, {}, 0, 150), (4, {"teams": True}, 1, 150), (3, {}, 2, 100), (2, {}, 3, 100)]
# `chosen(GAMES)` as the code of eec1f73 (before `choose_moves` and the faster `Reading`) wrote it
CHOSEN = "8e8acde522f34ac1"


def seat_view(state: State, seat: int) -> dict[str, Any]:
    """The view as the bot service reads it (JSON-shaped, `local_view`)."""
    return msgspec.to_builtins(GAME.view(state, Viewer.of_seat(seat)), str_keys=True)  # type: ignore[no-any-return]


def chosen(games: list[tuple[int, dict[str, Any], int, int]]) -> str:
    """The easy bot's commands (spelled-out path) at every decision of the seeded games, hashed."""
    h = hashlib.sha256()
    for players, options, seed, cap in games:
        rng = random.Random(seed)
        state, _, source = kit.start(GAME, options, kit.seats_for(players), rng.randbytes(32))
        now = kit.START_MS
        for _ in range(cap):
            if GAME.outcome(state) is not None:
                break
            decision = rng.choice(GAME.pending(state))
            now += 250
            legal = expand_all(GAME.legal(state, decision.seat, now), CODEC, LEGAL_LIMIT)
            command = bot.choose(seat_view(state, decision.seat), legal, rng)
            h.update(msgspec.json.encode(command))
            for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
                state = GAME.evolve(state, event)
    return h.hexdigest()[:16]


def descriptor_values(view: dict[str, Any], moves: list[LegalMove]) -> list[float]:
    """Every command's score as `choose_moves` finds it, in `expand_all`'s order."""
    reading = bot.Reading(view)
    hand_size = len(view["hands"][reading.me])
    out: list[float] = []
    for lm in moves:
        if not lm.size():
            continue
        s = bot._descriptor_scores(lm, reading, hand_size, {})
        if s.dense is not None:
            out += s.dense
        else:
            assert s.notable is not None
            row = [bot.TILE_KEPT] * s.size
            for i, v in s.notable:
                row[i] = v
            out += row
    return out


def reference_reading(view: dict[str, Any]) -> dict[str, Any]:
    """`bot.Reading`'s parts as eec1f73 worked them out, all at once, plainly."""
    st = bot.public_board(view)
    me = bot.seat_of(view)
    g = grid()
    enemies = [p for p in st.live_players() if not st.allied(me, p)]
    threatened: set[int] = set()
    for p in enemies:
        threatened |= targets_of(st, p)
    king = st.king_cell(me)
    king_threatened = king is not None and king in threatened
    opened = set(st.opened)
    known = {m.cell for m in st.mines}
    halves = {x: d.pips_at(x) for d in st.dominoes for x in d.cells}
    closed = [x for x in cross.centre() if x not in opened and x not in known and x not in halves]
    hidden = max(0, int(view["mine_count"]) - len(known))
    certain: set[int] = set()
    safe: set[int] = set(opened)
    for cell, n in {int(cell): int(n) for cell, n in view["numbers"].items()}.items():
        around = [x for x in g.neighbours8(cell) if x in closed]
        if not around:
            continue
        need = n - sum(1 for x in g.neighbours8(cell) if x in known)
        if need == len(around):
            certain.update(around)
        elif need <= 0:
            safe.update(around)
    certain |= {int(x) for x in view.get("detected") or []}
    link_pips: dict[int, set[int]] = {}
    for cell, pips in halves.items():
        for nb in g.neighbours4(cell):
            link_pips.setdefault(nb, set()).add(pips)
    king_ring = set(g.neighbours8(king)) if king is not None else set()
    tile_cells = set(link_pips) | certain
    if king_threatened:
        tile_cells |= king_ring
    near_own = {x for x in range(len(g)) if any(x in g.neighbours8(c) for c, p in st.pieces.items() if p.side == me)}
    return {
        "enemies": enemies,
        "threatened": threatened,
        "king": king,
        "king_threatened": king_threatened,
        "halves": halves,
        "mine_risk": hidden / len(closed) if closed else 0.0,
        "certain": certain,
        "safe": safe,
        "own_mines": known,
        "link_pips": link_pips,
        "king_ring": king_ring,
        "tile_cells": tile_cells,
        "near_own": near_own,
        "enemy_next": not st.allied(me, st.next_live(me)),
    }


def check(state: State, seat: int, now: int, rng: random.Random) -> None:
    view = seat_view(state, seat)
    reading = bot.Reading(view)
    want = reference_reading(view)
    assert {name: getattr(reading, name) for name in want} == want
    moves = list(GAME.legal(state, seat, now))
    legal = expand_all(moves, CODEC, LEGAL_LIMIT)
    if not legal:
        return
    scored = bot._scored(view, legal)
    if len(scored) == len(legal):  # not a race nor only surrender: every command scored
        assert descriptor_values(view, moves) == [v for v, _ in scored]
        assert [cmd for _, cmd in scored] == legal
    before = rng.getstate()
    spelled = bot.choose(view, legal, rng)
    after = rng.getstate()
    rng.setstate(before)
    assert bot.choose_moves(view, moves, rng) == spelled
    assert rng.getstate() == after  # the same draws


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4, 5]), steps=st.integers(20, 120))
def test_on_descriptors_the_same_choice_the_same_draws_the_same_scores(seed: int, players: int, steps: int) -> None:
    # 5: four players in two teams; the games go by the easy bot's and the random player's moves
    options = {"teams": True} if players == 5 else {}
    rng = random.Random(seed)
    state, _, source = kit.start(GAME, options, kit.seats_for(min(players, 4)), rng.randbytes(32))
    now = kit.START_MS
    for _ in range(steps):
        if GAME.outcome(state) is not None:
            break
        decision = rng.choice(GAME.pending(state))
        now += 250
        check(state, decision.seat, now, random.Random(rng.getrandbits(32)))
        legal = [x for x in expand_all(GAME.legal(state, decision.seat, now), CODEC, LEGAL_LIMIT)]
        view = seat_view(state, decision.seat)
        policy = bot.choose if rng.random() < 0.7 else GAME.random_policy
        command = policy(view, legal, rng)
        for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)


def test_the_free_move_and_every_item_alike() -> None:
    # rarer than a random game finds them: the free move, and each item in the hand (its uses'
    # targets: cells, pieces, colours, seats), wounded or not, rich or poor
    items = sorted(set(shop.PRICES) - shop.AUTOMATIC)
    rng = random.Random(7)
    state, _, source = kit.start(GAME, {"teams": True}, kit.seats_for(4), rng.randbytes(32))
    now = kit.START_MS
    for n in range(90):
        decision = rng.choice(GAME.pending(state))
        now += 250
        if n % 3 == 0:
            seat = state.turn
            for phase, held in ((FREE_MOVE, []), *((ACTION, items[i : i + 4]) for i in range(0, len(items), 4))):
                variant = clone(state)
                variant.phase = phase
                variant.inventory[seat] = list(held)
                variant.item_used = False
                variant.wounded[seat] = n % 2 == 0
                variant.gold[seat] = 40 if n % 4 else 5
                check(variant, seat, now, random.Random(n))
        legal = expand_all(GAME.legal(state, decision.seat, now), CODEC, LEGAL_LIMIT)
        command = bot.choose(seat_view(state, decision.seat), legal, rng)
        for event in GAME.decide(state, command, DecideContext(decision.seat, now, source)):
            state = GAME.evolve(state, event)


def clone(state: State) -> State:
    return msgspec.json.decode(msgspec.json.encode(state), type=State)


def test_the_choices_along_seeded_games_are_the_old_code_s() -> None:
    assert chosen(GAMES) == CHOSEN


if __name__ == "__main__":  # the digest of the code on the path (with an old checkout first: CHOSEN)
    print(chosen(GAMES))
