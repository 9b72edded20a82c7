"""The conformance kit: what every game's tests check of it, through the contract alone.

`run_suite(game, setup, seed)` runs every check below over one random game of one
set-up; `tests/conformance/test_every_game.py` runs it over every registered game,
each in the set-ups it declares (`Game.conformance_setups`, else `default_setups`),
so a new game is checked by registering it. The checks, each callable alone with a
game, its options and a seeded `random.Random` (hypothesis drives the seeds):

- `play_random_game`: random legal commands and run-out clocks never raise a
  non-rule error and the game ends within a bound; it returns the record;
- `check_replay`: replaying the record's events, and resuming from an encoded
  snapshot midway, give byte-identical states;
- `check_defaults`: every open decision with a clock accepts its default
  command once its deadline has passed;
- `check_legal_agrees`: every command the legal-move descriptors spell out is
  accepted by `decide`, and every candidate command `decide` accepts is
  admitted by a descriptor (candidates: every command type with field values
  drawn from the state's numbers, `candidate_commands`);
- `check_redaction`: for a state and a seat, a second state that differs only
  in what the seat may not know (the game's own `determinize` of the seat's
  view) gives the seat byte-identical answers on every API: view, the open
  decisions it may know of, legal moves, standings, and the acceptance and
  refusal reason of every candidate command (journal lines are checked per
  audience by the projection's property test: a line about a hidden draw the
  seat makes itself may rightly differ between the two states);
- `check_determinization`: the seat's view of a determinized state equals the
  view it was made from;
- `check_copy`: `clone` (the copy every `decide` works on) equals its original and
  shares no mutable object with it;
- `check_view_shapes`: a view its game returns as a `JsonView` (already JSON-shaped,
  so services do not convert it) equals its JSON round trip, for every viewer.

What the game declares of its `nature` is checked too: a random game ends within
`max_commands`; a game with hidden information hides something (a determinized
state differs from the real one) and has the `determinize` hook; a game without
shows every seat the spectator's view.

Nothing here uses the platform's services: only the game and `tablehall_rules`.
"""

from __future__ import annotations

import random
import types
import typing
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

import msgspec

from tablehall_rules.bots import Determinizable
from tablehall_rules.codec import StructCodec
from tablehall_rules.contract import DecideContext, Game, PendingDecision, SeatInfo, Viewer
from tablehall_rules.disclosure import visible_decisions
from tablehall_rules.errors import RuleError
from tablehall_rules.flow import clone
from tablehall_rules.journal import HasStandings
from tablehall_rules.jsonview import JsonView, SharedJson, encode_view
from tablehall_rules.legal import admitted, expand_all
from tablehall_rules.randomness import DrawSource
from tablehall_rules.setups import Setup

# how far apart simulated commands are (ms), and a start time
STEP_MS = 500
START_MS = 1_700_000_000_000


@dataclass
class Played:
    """A random game: its seats, every event in order, the state after each command."""

    seats: list[SeatInfo]
    events: list[msgspec.Struct] = field(default_factory=list)
    # (events so far, state encoded) after each command, for replay checks and sampling
    checkpoints: list[tuple[int, bytes]] = field(default_factory=list)
    commands: int = 0
    ended: bool = False
    now_ms: int = START_MS


def _encode(state: Any) -> bytes:
    return msgspec.json.encode(state)


def copy_state(game: Game[Any], state: Any) -> Any:
    return msgspec.json.decode(_encode(state), type=game.state_type)


def seats_for(count: int, bots: int = 0) -> list[SeatInfo]:
    return [SeatInfo(i, f"user-{i}", f"Player {i}", is_bot=i >= count - bots) for i in range(count)]


def start(
    game: Game[Any], options: Mapping[str, Any], seats: Sequence[SeatInfo], seed: bytes
) -> tuple[Any, list[msgspec.Struct], DrawSource]:
    source = DrawSource(seed)
    events = game.start(game.parse_options(options), seats, DecideContext(None, START_MS, source))
    state = None
    for event in events:
        state = game.evolve(state, event)
    return state, list(events), source


def play_random_game(
    game: Game[Any],
    options: Mapping[str, Any],
    seat_count: int,
    rng: random.Random,
    max_commands: int | None = None,
    timeout_rate: float = 0.1,
    legal_sample: int = 200,
) -> tuple[Any, Played]:
    """Random legal play (plus run-out clocks) to the end; raises if it does not end within
    `max_commands` (default: the game's `nature.max_commands`)."""
    limit = game.nature.max_commands if max_commands is None else max_commands
    seats = seats_for(seat_count)
    state, events, source = start(game, options, seats, rng.randbytes(32))
    played = Played(seats, events)
    codec = StructCodec(game.command_types)
    while game.outcome(state) is None:
        if played.commands >= limit:
            raise AssertionError(f"{game.id}: no end after {limit} commands")
        decisions = game.pending(state)
        if not decisions:
            raise AssertionError(f"{game.id}: a running game with no open decision")
        decision = rng.choice(decisions)
        played.now_ms += rng.randint(1, STEP_MS)
        legal = expand_all(game.legal(state, decision.seat, played.now_ms), codec, limit=legal_sample)
        clocked = decision.has_clock and (rng.random() < timeout_rate or not legal)
        if not clocked and not legal:
            continue  # a reaction the seat cannot take: somebody else moves
        if clocked:
            played.now_ms = max(played.now_ms, decision.deadline_ms)
            command = game.default_command(state, decision)
            ctx = DecideContext(decision.seat, played.now_ms, source, timed_out=decision)
        else:
            command = rng.choice(legal)
            ctx = DecideContext(decision.seat, played.now_ms, source)
        before = _encode(state)
        new = game.decide(state, command, ctx)
        if _encode(state) != before:
            raise AssertionError(f"{game.id}: decide changed its input state on {command!r}")
        if not new:
            raise AssertionError(f"{game.id}: an accepted command produced no event: {command!r}")
        for event in new:
            state = game.evolve(state, event)
        played.events.extend(new)
        played.commands += 1
        played.checkpoints.append((len(played.events), _encode(state)))
    played.ended = True
    return state, played


def replay(game: Game[Any], events: Iterable[msgspec.Struct], state: Any = None) -> Any:
    for event in events:
        state = game.evolve(state, event)
    return state


def check_replay(game: Game[Any], final: Any, played: Played, rng: random.Random) -> None:
    """Events alone rebuild the state, from the start and from a snapshot midway;
    events survive their codec unchanged."""
    codec = StructCodec(game.event_types, game.upcasters)
    decoded = [codec.decode(codec.encode(e)) for e in played.events]
    assert decoded == played.events, f"{game.id}: an event does not survive its codec"
    rebuilt = replay(game, decoded)
    assert _encode(rebuilt) == _encode(final), f"{game.id}: replay differs from the state played"
    if played.checkpoints:
        count, snapshot = rng.choice(played.checkpoints)
        resumed = replay(game, played.events[count:], msgspec.json.decode(snapshot, type=game.state_type))
        assert _encode(resumed) == _encode(final), f"{game.id}: snapshot + tail differs from the state played"


def states_of(game: Game[Any], played: Played, rng: random.Random, count: int) -> Iterator[Any]:
    """Up to `count` states sampled from a played game (decoded afresh each time)."""
    if not played.checkpoints:
        return
    for _, snapshot in rng.sample(played.checkpoints, min(count, len(played.checkpoints))):
        yield msgspec.json.decode(snapshot, type=game.state_type)


def check_defaults(game: Game[Any], state: Any, now_ms: int) -> int:
    """Every clocked open decision accepts its default once the clock has run out; the count checked."""
    checked = 0
    for decision in game.pending(state):
        if not decision.has_clock:
            continue
        command = game.default_command(state, decision)
        at = max(now_ms, decision.deadline_ms)
        ctx = DecideContext(decision.seat, at, DrawSource(b"defaults"), timed_out=decision)
        try:
            events = game.decide(state, command, ctx)
        except RuleError as exc:
            raise AssertionError(f"{game.id}: the default {command!r} of {decision.key} is refused: {exc}") from exc
        assert events, f"{game.id}: the default of {decision.key} produces nothing"
        checked += 1
    return checked


# ---- candidate commands -----------------------------------------------------


def numbers_in(data: Any, into: set[int]) -> None:
    """Every integer in a JSON-like structure (ids, squares, amounts the state holds)."""
    if isinstance(data, bool):
        return
    if isinstance(data, int):
        into.add(data)
    elif isinstance(data, dict):
        for value in data.values():
            numbers_in(value, into)
    elif isinstance(data, list):
        for value in data:
            numbers_in(value, into)


def _value_for(tp: Any, pool: Sequence[int], strings: Sequence[str], rng: random.Random, depth: int) -> Any:
    origin = typing.get_origin(tp)
    if tp is bool:
        return rng.random() < 0.5
    if tp is int:
        return rng.choice(pool)
    if tp is str:
        return rng.choice(strings)
    if tp is float:
        return float(rng.choice(pool))
    if origin is list:
        (item,) = typing.get_args(tp) or (int,)
        return [_value_for(item, pool, strings, rng, depth + 1) for _ in range(rng.randint(0, 2))]
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(tp) if a is not type(None)]
        return None if not options or rng.random() < 0.2 else _value_for(rng.choice(options), pool, strings, rng, depth)
    if origin is typing.Literal:
        return rng.choice(typing.get_args(tp))
    if isinstance(tp, type) and issubclass(tp, msgspec.Struct) and depth < 3:
        return _struct_for(tp, pool, strings, rng, depth + 1)
    return None


def _struct_for(
    cls: type[msgspec.Struct], pool: Sequence[int], strings: Sequence[str], rng: random.Random, depth: int
) -> Any:
    hints = typing.get_type_hints(cls)
    values = {f.name: _value_for(hints[f.name], pool, strings, rng, depth) for f in msgspec.structs.fields(cls)}
    return cls(**values)


def candidate_commands(
    game: Game[Any], state: Any, rng: random.Random, per_type: int = 6, extra: Iterable[msgspec.Struct] = ()
) -> list[msgspec.Struct]:
    """Commands of every type the game has, fields drawn from the numbers in the state
    (and small ones), to probe what `decide` accepts beyond what the descriptors list."""
    found: set[int] = set(range(-1, 13))
    numbers_in(msgspec.to_builtins(state), found)
    pool = sorted(found)
    strings = ["", "x", *sorted({s for s in _strings(msgspec.to_builtins(state)) if len(s) < 40})[:50]]
    out: list[msgspec.Struct] = list(extra)
    for cls in game.command_types:
        for _ in range(per_type if msgspec.structs.fields(cls) else 1):
            try:
                out.append(_struct_for(cls, pool, strings, rng, 0))
            except (TypeError, msgspec.ValidationError):
                break
    return out


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def _accepts(game: Game[Any], state: Any, seat: int, command: msgspec.Struct, now_ms: int) -> str:
    """'' when decide accepts; else the refusal's reason."""
    try:
        events = game.decide(state, command, DecideContext(seat, now_ms, DrawSource(b"conformance")))
    except RuleError as exc:
        return exc.reason
    return "" if events else "NOTHING_HAPPENED"


def check_legal_agrees(
    game: Game[Any], state: Any, seat: int, now_ms: int, rng: random.Random, candidates: Sequence[msgspec.Struct]
) -> tuple[int, int]:
    """Descriptors and decide agree for `seat` at `now_ms`; (listed checked, candidates accepted)."""
    codec = StructCodec(game.command_types)
    moves = game.legal(state, seat, now_ms)
    listed = expand_all(moves, codec, limit=5000)
    sample = rng.sample(listed, min(len(listed), 60))
    for command in sample:
        reason = _accepts(game, state, seat, command, now_ms)
        assert not reason, f"{game.id}: listed {command!r} for seat {seat} is refused: {reason}"
    accepted = 0
    for command in candidates:
        if not _accepts(game, state, seat, command, now_ms):
            accepted += 1
            assert admitted(moves, command, codec), (
                f"{game.id}: seat {seat} may send {command!r}, no descriptor admits it"
            )
    return len(sample), accepted


# ---- redaction --------------------------------------------------------------


def _answers(game: Game[Any], state: Any, seat: int, now_ms: int, probes: Sequence[msgspec.Struct]) -> dict[str, bytes]:
    """Everything the platform answers the seat about `state`, encoded."""
    viewer = Viewer.of_seat(seat)
    codec = StructCodec(game.command_types)
    out = {
        "view": _encode(game.view(state, viewer)),
        "decisions": _encode(visible_decisions(game.pending(state), viewer)),
        "legal": _encode([codec.to_builtins(c) for c in expand_all(game.legal(state, seat, now_ms), codec, 500)]),
        "refusals": _encode([_accepts(game, state, seat, c, now_ms) for c in probes]),
    }
    if isinstance(game, HasStandings):
        out["standings"] = _encode(game.standings(state))
    return out


def check_redaction(
    game: Game[Any], state: Any, seat: int, now_ms: int, rng: random.Random, probes: Sequence[msgspec.Struct]
) -> bool:
    """A state that differs only in what `seat` may not know gives it the same answers;
    whether that state differed at all (something was hidden from the seat)."""
    if not isinstance(game, Determinizable):
        raise TypeError(f"{game.id} has no determinize hook to make a differing state with")
    other = game.determinize(seat_view(game, state, seat), seat, rng)
    mine = _answers(game, state, seat, now_ms, probes)
    theirs = _answers(game, other, seat, now_ms, probes)
    for api in mine:
        assert mine[api] == theirs[api], f"{game.id}: seat {seat}'s {api} depends on what it may not know"
    return _encode(other) != _encode(state)


def seat_view(game: Game[Any], state: Any, seat: int) -> Any:
    """`seat`'s view as a bot has it: JSON-shaped (the match's JSON decoded, or the bot's own
    rendering made so), string keys and all."""
    return msgspec.json.decode(msgspec.json.encode(game.view(state, Viewer.of_seat(seat))))


def check_determinization(game: Game[Any], state: Any, seat: int, rng: random.Random) -> None:
    if not isinstance(game, Determinizable):
        raise TypeError(f"{game.id} has no determinize hook")
    view = seat_view(game, state, seat)
    sample = game.determinize(view, seat, rng)
    assert seat_view(game, sample, seat) == view, f"{game.id}: a determinized state shows seat {seat} another view"


def open_seats(game: Game[Any], state: Any) -> list[int]:
    """Seats with an open decision (where legal moves matter most)."""
    decisions: list[PendingDecision] = game.pending(state)
    return sorted({d.seat for d in decisions})


# ---- the whole suite over one game ------------------------------------------------------


@runtime_checkable
class HasConformanceProbes(Protocol):
    """Optional hook: commands worth probing in a state that the kit's random fields rarely
    hit (answers to an open offer by its id, the seat's own cards), added to the candidates
    of `check_legal_agrees` and `check_redaction`."""

    def conformance_probes(self, state: Any, seat: int) -> Sequence[msgspec.Struct]: ...


def default_setups(game: Game[Any]) -> list[Setup]:
    """The fewest and the most seats the game takes, with its default options."""
    return [Setup(seats) for seats in sorted({game.min_seats, game.max_seats})]


def setups_of(game: Game[Any]) -> list[Setup]:
    """The set-ups the game declares (`conformance_setups`), else `default_setups`."""
    return list(game.conformance_setups) or default_setups(game)


@dataclass
class Counts:
    """What one run of the suite checked."""

    games: int = 0
    commands: int = 0
    listed_checked: int = 0
    candidates_accepted: int = 0
    defaults_checked: int = 0
    redaction_checked: int = 0
    # (state, seat) pairs whose determinized state differed from the real one
    hidden_found: int = 0


def check_public_views(game: Game[Any], state: Any, seats: int) -> None:
    """A game without hidden information shows every seat what a spectator sees."""
    public = _encode(game.view(state, Viewer.spectator()))
    for seat in range(seats):
        assert _encode(game.view(state, Viewer.of_seat(seat))) == public, (
            f"{game.id} declares no hidden information, yet seat {seat} sees another view than a spectator"
        )


def check_copy(game: Game[Any], state: Any) -> None:
    """`clone(state)` is equal to `state`, encodes to the same bytes, and holds no mutable
    object (list, dict, set, or struct that is not frozen) that `state` holds too: a rule
    changing the copy can never change the original."""
    copied = clone(state)
    assert copied == state and _encode(copied) == _encode(state), f"{game.id}: a clone differs from its state"
    shared = shared_mutables(state, copied)
    assert not shared, f"{game.id}: a clone shares mutable objects with its state at {shared[:5]}"


def check_view_shapes(game: Game[Any], state: Any, seats: int) -> None:
    """Every view of `state` its game marks JSON-shaped (`JsonView`) is exactly what its JSON
    decodes to: string keys, lists not tuples, builtins only."""
    viewers = [Viewer.of_seat(seat) for seat in range(seats)] + [Viewer.spectator(), Viewer.auditor()]
    for viewer in viewers:
        view = game.view(state, viewer)
        if isinstance(view, JsonView):
            encoded = msgspec.json.encode(view)
            decoded = msgspec.json.decode(encoded)
            assert _same_shape(view, decoded), f"{game.id}: a JsonView for {viewer} is not what its JSON decodes to"
            # a shared part encoded for an earlier view still shows what it holds (nobody changed it)
            assert encode_view(view) == encoded, f"{game.id}: a SharedJson of the view for {viewer} changed"


def _same_shape(a: Any, b: Any) -> bool:
    """Equal, and of the same builtin types all the way down (1 == 1.0 and (1,) != [1] aside)."""
    if type(a) is not type(b) and not (isinstance(a, dict) and isinstance(b, dict)) and type(a) is not SharedJson:
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_shape(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_shape(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def shared_mutables(a: Any, b: Any, path: str = "state") -> list[str]:
    """The paths at which `a` and `b` hold the very same mutable object."""
    found: list[str] = []
    mutable = isinstance(a, list | dict | set | bytearray) or (
        isinstance(a, msgspec.Struct) and not a.__struct_config__.frozen
    )
    if mutable and a is b:
        found.append(path)
    if isinstance(a, msgspec.Struct) and type(b) is type(a):
        for name in a.__struct_fields__:
            found += shared_mutables(getattr(a, name), getattr(b, name), f"{path}.{name}")
    elif isinstance(a, list | tuple) and isinstance(b, list | tuple) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            found += shared_mutables(x, y, f"{path}[{i}]")
    elif isinstance(a, dict) and isinstance(b, dict):
        for key, x in a.items():
            if key in b:
                found += shared_mutables(x, b[key], f"{path}[{key!r}]")
    return found


def run_suite(game: Game[Any], setup: Setup, seed: int, *, states: int = 6) -> Counts:
    """Every check over one random game of `setup` played from `seed`: replay, defaults,
    descriptors against decide (with the game's probes), and by its `nature` either
    determinization and redaction (`hidden_found` counts what was hidden) or public views."""
    rng = random.Random(seed)
    counts = Counts()
    hidden = game.nature.hidden_information
    if hidden and not isinstance(game, Determinizable):
        raise AssertionError(f"{game.id} declares hidden information but has no determinize hook")
    final, played = play_random_game(game, setup.options, setup.seats, rng)
    counts.games, counts.commands = 1, played.commands
    check_replay(game, final, played, rng)
    now = played.now_ms
    for state in states_of(game, played, rng, states):
        check_copy(game, state)
        check_view_shapes(game, state, setup.seats)
        counts.defaults_checked += check_defaults(game, state, now)
        if not hidden:
            check_public_views(game, state, setup.seats)
        for seat in {*open_seats(game, state), rng.randrange(setup.seats)}:
            extra = game.conformance_probes(state, seat) if isinstance(game, HasConformanceProbes) else ()
            probes = candidate_commands(game, state, rng, extra=extra)
            listed, accepted = check_legal_agrees(game, state, seat, now, rng, probes)
            counts.listed_checked += listed
            counts.candidates_accepted += accepted
            if isinstance(game, Determinizable):
                check_determinization(game, state, seat, rng)
                counts.hidden_found += check_redaction(game, state, seat, now, rng, probes)
                counts.redaction_checked += 1
    return counts
