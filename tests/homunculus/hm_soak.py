"""Random Гомункул games with every check a soak needs (not a test module).

`play_checked` plays one game: at each step a random open decision, its seat choosing a random
descriptor of its legal moves and then a random command of it (so the shop and every item come
up, not only what the first descriptors spell out), some seats with the heuristic bot, a few
turns ended by the clock. After every command it checks that no view leaks (`check_views`) and
that no journal line tells a seat what it may not know (`check_journal`), and the items'
invariants (`check_state`); every
`redaction_every` commands it runs the conformance kit's determinization and redaction checks
for a random seat. It returns the final state, the events and what was played.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

import msgspec

from homunculus import commands as c
from homunculus import events as e
from homunculus.game import GAME
from homunculus.rules import shop as items
from homunculus.state import State
from tablehall_boards import cross
from tablehall_rules import DecideContext, StructCodec, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand, expand_all

CODEC = StructCodec(GAME.command_types)
EVENTS = StructCodec(GAME.event_types)
SETUPS = [(2, False), (3, False), (4, False), (4, True)]
PRIVATE_PARAMS = {"cards", "tile"}  # what only a line's own audience may read


@dataclass
class Played:
    commands: int = 0
    used: Counter[str] = field(default_factory=Counter)  # items used
    bought: Counter[str] = field(default_factory=Counter)
    redaction_checks: int = 0


def choose(state: State, seat: int, now: int, rng: random.Random) -> msgspec.Struct | None:
    moves = [m for m in GAME.legal(state, seat, now) if not isinstance(m.command, c.Surrender)]
    if not moves:
        return None
    seen = GAME.view(state, Viewer.of_seat(seat))
    if seat % 2 and rng.random() < 0.5:
        return GAME.bot_policy(seen, expand_all(moves, CODEC, limit=300), rng)
    commands = list(expand(rng.choice(moves), CODEC))
    return rng.choice(commands)


def play_checked(
    players: int, teams: bool, seed: int, *, redaction_every: int = 0, max_commands: int = 8000
) -> tuple[State, list[msgspec.Struct], Played]:
    rng = random.Random(seed)
    state, events, source = kit.start(GAME, {"teams": teams}, kit.seats_for(players), rng.randbytes(32))
    now = kit.START_MS
    played = Played()
    while GAME.outcome(state) is None:
        assert played.commands < max_commands, f"the game does not end (seed {seed})"
        decision = rng.choice(GAME.pending(state))
        now += 250
        command: msgspec.Struct | None
        if decision.has_clock and rng.random() < 0.03:
            now = max(now, decision.deadline_ms)
            command = GAME.default_command(state, decision)
            ctx = DecideContext(decision.seat, now, source, timed_out=decision)
        else:
            command = choose(state, decision.seat, now, rng)
            if command is None:
                continue
            ctx = DecideContext(decision.seat, now, source)
        new = GAME.decide(state, command, ctx)
        for event in new:
            check_journal(state, event)
            state = GAME.evolve(state, event)
        events.extend(new)
        played.commands += 1
        if isinstance(command, c.UseItem):
            played.used[command.item] += 1
        elif isinstance(command, c.BuyItem):
            played.bought[command.item] += 1
        check_views(state)
        check_state(state)
        if redaction_every and played.commands % redaction_every == 0 and not state.finished:
            seat = rng.randrange(players)
            kit.check_determinization(GAME, state, seat, rng)
            probes = kit.candidate_commands(GAME, state, rng)
            kit.check_redaction(GAME, state, seat, now, rng, probes)
            played.redaction_checks += 1
    return state, events, played


def check_views(state: State) -> None:
    """Each seat sees its own hands, its (and its allies') mines, its detector's mines and its
    spyglass's cards while they last, the card it just drew; the spectator none of these."""
    for seat in range(state.players):
        seen = GAME.view(state, Viewer.of_seat(seat))
        spied = items.spied(state, seat)
        for p in range(state.players):
            shown = seen["hands"][p]
            assert shown == (msgspec.to_builtins(state.hands[p]) if p in (seat, spied) else []), (seat, p)
            assert seen["domino_hands"][p] == (msgspec.to_builtins(state.domino_hands[p]) if p == seat else [])
        assert seen["mines"] == [[m.cell, m.owner] for m in state.mines if state.mine_visible_to(m, seat)]
        assert seen["detected"] == items.detected(state, seat)
        assert all(state.detection[0] == seat for _ in seen["detected"])
        assert seen["drawn"] is None or seat == state.turn
        assert set(seen["deck"]) == {"draw_size", "discard_size", "top"} and set(seen["bazaar"]) == {"size"}
        assert seen["mine_count"] == len(state.mines)
    watcher = GAME.view(state, Viewer.spectator())
    assert all(h == [] for h in watcher["hands"]) and all(h == [] for h in watcher["domino_hands"])
    assert watcher["mines"] == [] and watcher["detected"] == [] and watcher["drawn"] is None


def check_state(state: State) -> None:
    """What the items keep true: shields on pieces, detector and spyglass only in their user's
    turn, no mine under a piece or a tile or on an opened cell, a piece never twice fallen back."""
    assert all(cell in state.pieces for cell in state.shields) and state.shields == sorted(set(state.shields))
    if not state.finished:
        assert not state.detection or state.detection[0] == state.turn
        assert not state.spyglass or (state.spyglass[0] == state.turn and state.alive[state.spyglass[1]])
    opened = set(state.opened)
    for mine in state.mines:
        assert mine.cell not in state.pieces and state.domino_at(mine.cell) is None and mine.cell not in opened
    assert len({m.cell for m in state.mines}) == len(state.mines)


def check_journal(state: State, event: msgspec.Struct) -> None:
    """Public lines of a draw carry no cards or tiles; a private line is for the event's own seat only; no
    line tells where a mine was laid."""
    for line in GAME.journal(state, event):
        if line.audience is None:
            if isinstance(event, e.CardsDrawn | e.DominoTaken):  # what was drawn is the drawer's
                assert not PRIVATE_PARAMS & set(line.params), line
        else:
            assert line.audience == [getattr(event, "seat", None)], line
        if isinstance(event, e.MinePlaced):
            name = cross.grid().name_of(event.cell)
            assert name not in f"{line.ru} {line.en}" and "cell" not in line.params, line


def replayed(events: list[msgspec.Struct]) -> State:
    """The state the events give after an encode/decode round trip of each."""
    state = None
    for event in events:
        state = GAME.evolve(state, EVENTS.decode(EVENTS.encode(event)))
    assert state is not None
    return state
