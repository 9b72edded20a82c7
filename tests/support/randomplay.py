"""Random legal play of any game, recorded as the match service records it
(used by the redaction property test and the projection benchmark)."""

from __future__ import annotations

import random
import uuid
from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

import msgspec

from tablehall_eventstore import RecordedEvent
from tablehall_rules import (
    DecideContext,
    DrawSource,
    Game,
    HasRandomPolicy,
    NoMove,
    RuleError,
    SeatInfo,
    Viewer,
    commitment,
)
from tablehall_rules.codec import type_name
from tablehall_rules.legal import expand_all
from tablehall_rules.registry import game_ids, get_game
from tablehall_stream.codecs import command_codec, event_codec
from tablehall_stream.events import MatchEnded, MatchStarted
from tablehall_stream.names import ENDED, STARTED

NOW = 1_700_000_000_000


def existing_games() -> list[Any]:
    """Every registered game whose package is installed."""
    games = []
    for game_id in game_ids():
        try:
            games.append(get_game(game_id))
        except ImportError:
            continue  # registered but not installed in this checkout
    return games


class Recorder:
    """Builds a stream the way the match service writes it."""

    def __init__(self, table_id: str) -> None:
        self.stream = f"table-{table_id}"
        self.events: list[RecordedEvent] = []

    def add(self, event_type: str, payload: bytes, metadata: dict[str, Any], schema_version: int = 1) -> None:
        version = len(self.events) + 1
        self.events.append(
            RecordedEvent(
                uuid.uuid4(),
                self.stream,
                version,
                version,
                event_type,
                schema_version,
                payload,
                metadata,
                datetime.now(UTC),
            )
        )

    def command(self, game: Any, events: list[msgspec.Struct], meta: dict[str, Any], pending: Any) -> None:
        codec = event_codec(game.id)
        for i, event in enumerate(events):
            m = {"command_id": meta["command_id"], **(meta if i == 0 else {})}
            if i == len(events) - 1:
                m["pending"] = msgspec.to_builtins(pending)
            self.add(f"{game.id}.{codec.name(event)}", codec.encode(event), m, codec.version(event))


def random_match(
    game: Game[Any],
    rng: random.Random,
    table_id: str,
    max_commands: int = 200,
    options: dict[str, Any] | None = None,
    players: int | None = None,
    names: list[str] | None = None,
    policy: bool = False,
    timeout_rate: float = 0.15,
    control_rate: float = 0.0,
    avoid: Collection[str] = (),
) -> list[RecordedEvent]:
    """One match of random legal commands (`timeout_rate` of them clocks running out), recorded;
    the seats are named `names` (default "Player 0"…). With `policy`, the game's own random
    player (`random_policy`, which keeps the game going) picks from the seat's view; with
    `control_rate`, that share of the steps is a table action of the platform's instead (a seat's
    presence or controller changing, as the lobby tells the game). Commands whose type is in
    `avoid` (quitting, say, for a long match) only when nothing else is legal."""
    seed = rng.randbytes(32)
    players = players or rng.randint(game.min_seats, min(game.max_seats, 6))
    seats = [
        SeatInfo(i, f"user{i}", names[i] if names else f"Player {i}", is_bot=rng.random() < 0.3) for i in range(players)
    ]
    options = dict(game.parse_options(options or {}))
    rec = Recorder(table_id)
    now = NOW
    started = MatchStarted(game.id, game.rules_version, options, seats, commitment(seed), now)
    rec.add(STARTED, msgspec.json.encode(started), {"command_id": "start"})
    rng_source = DrawSource(seed, 0)
    first = game.start(options, seats, DecideContext(None, now, rng_source))
    state = None
    for event in first:
        state = game.evolve(state, event)
    rec.command(
        game, first, {"command_id": "start", "draws": msgspec.to_builtins(rng_source.draws)}, game.pending(state)
    )
    counter = rng_source.counter
    for n in range(max_commands):
        if game.outcome(state) is not None:
            break
        pending = game.pending(state)
        if not pending:
            break
        if control_rate and rng.random() < control_rate:
            control = _control(game, rng, players)
            if control is not None:
                source = DrawSource(seed, counter)
                try:
                    events = game.decide(state, control, DecideContext(None, now, source))
                except RuleError:
                    events = []
                for event in events:
                    state = game.evolve(state, event)
                if events:
                    meta = {"command_id": f"c{n}", "seat": None, "now_ms": now, "timeout": False}
                    meta["command"] = msgspec.to_builtins(control)
                    counter = source.counter
                    rec.command(game, events, meta, game.pending(state))
                continue
        decision = rng.choice(pending)
        legal = expand_all(game.legal(state, decision.seat, now), command_codec(game.id), limit=500)
        if avoid:
            legal = [c for c in legal if type_name(type(c)) not in avoid] or legal
        timeout = decision.has_clock and (rng.random() < timeout_rate or not legal)
        if not timeout and not legal:
            continue
        if timeout:
            command = game.default_command(state, decision)
        elif policy and isinstance(game, HasRandomPolicy):
            try:
                command = game.random_policy(game.view(state, Viewer.of_seat(decision.seat)), legal, rng)
            except NoMove:
                continue
        else:
            command = rng.choice(legal)
        now = decision.deadline_ms if timeout else now + rng.randint(1, 5000)
        source = DrawSource(seed, counter)
        try:
            timed_out = decision if timeout else None
            events = game.decide(state, command, DecideContext(decision.seat, now, source, timed_out))
        except RuleError:
            continue
        for event in events:
            state = game.evolve(state, event)
        meta = {
            "command_id": f"c{n}",
            "seat": decision.seat,
            "now_ms": now,
            "timeout": timeout,
            "decision_key": decision.key if timeout else None,
            "command": msgspec.to_builtins(command),
            "draws": msgspec.to_builtins(source.draws),
            "draw_start": counter,
        }
        counter = source.counter
        rec.command(game, events, meta, game.pending(state))
    outcome = game.outcome(state)
    if outcome is not None:
        ended = MatchEnded(msgspec.to_builtins(outcome), seed.hex(), now)
        rec.add(ENDED, msgspec.json.encode(ended), {"command_id": "end"})
    return rec.events


def _control(game: Any, rng: random.Random, players: int) -> Any:
    """A platform table action the game may take now: a seat's presence or controller."""
    seat = rng.randrange(players)
    if rng.random() < 0.5:
        return game.presence_command(seat, rng.random() < 0.5) if hasattr(game, "presence_command") else None
    return game.controller_command(seat, rng.random() < 0.5) if hasattr(game, "controller_command") else None
