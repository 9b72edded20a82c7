"""Property: across thousands of random events of every game that exists, each
viewer is shown exactly the game's own `view` for that viewer and only the
journal lines meant for them; opponents and spectators never see a seat's
secrets (checked on the test game, whose secrets are known).

Random legal play (and clocks running out) is generated from the rules
contract alone, recorded as the match service records it, and pushed through
the live feed (the shared rendering) and a private cursor (resumes), the code
`WatchTable` serves.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from datetime import UTC, datetime
from typing import Any

import msgspec
import pytest

from tablehall_eventstore import RecordedEvent
from tablehall_match.live_table import event_codec
from tablehall_match.stream_events import ENDED, STARTED, MatchEnded, MatchStarted
from tablehall_projection.access import Role
from tablehall_projection.fold import TableFold, viewer_of
from tablehall_projection.live.feed import Cursor, Feed
from tablehall_rules import DecideContext, DrawSource, RuleError, SeatInfo, commitment
from tablehall_rules.registry import game_ids, get_game

MATCHES_PER_GAME = 120
NOW = 1_700_000_000_000


def existing_games() -> list[Any]:
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


def random_match(game: Any, rng: random.Random, table_id: str, max_commands: int = 200) -> list[RecordedEvent]:
    seed = rng.randbytes(32)
    players = rng.randint(game.min_seats, min(game.max_seats, 6))
    seats = [SeatInfo(i, f"user{i}", f"Player {i}", is_bot=rng.random() < 0.3) for i in range(players)]
    options = dict(game.parse_options({}))
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
        decision = rng.choice(pending)
        timeout = rng.random() < 0.15
        legal = game.legal_commands(state, decision.seat)
        command = game.default_command(state, decision) if timeout or not legal else rng.choice(legal)
        now = decision.deadline_ms if timeout else now + rng.randint(1, 5000)
        source = DrawSource(seed, counter)
        try:
            events = game.decide(state, command, DecideContext(decision.seat, now, source, timeout))
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


def roles_of(players: int) -> list[Role]:
    return [Role("spectator"), *(Role("seat", s) for s in range(players))]


def check_secrets(game_id: str, role: Role, view: dict[str, Any], journal: list[Any]) -> None:
    """The test game's hidden information: each seat's secret number."""
    if game_id != "testgame":
        return
    if view and view.get("places") is None:
        for i, value in enumerate(view["secrets"]):
            assert (value is not None) == (role.seat == i), (role, view)
    for line in journal:
        if line.entry.code == "testgame.secret_dealt":
            assert line.entry.params["seat"] == role.seat, (role, line)


async def check_match(game: Any, events: list[RecordedEvent], cut: int) -> None:
    table_id = events[0].stream_id.removeprefix("table-")
    feed = Feed(table_id)
    feed.load(events[:cut])
    players = len(msgspec.json.decode(events[0].payload, type=MatchStarted).seats)
    roles = roles_of(players)
    for role in roles:
        feed.register(role)
    cursors = {role.key: Cursor(feed, role) for role in roles}
    truth = TableFold(table_id)
    for event in events[:cut]:
        truth.apply(event)
    for event in events[cut:]:
        assert feed.offer(event)
        lines = truth.apply(event, journal=True)
        for role in roles:
            shared = feed.frame(role, event.version)
            private = cursors[role.key].frame_at(event.version)
            assert shared is not None and shared.version == event.version
            expected_view = game.view(truth.state, viewer_of(role.name, role.seat)) if truth.state is not None else {}
            for frame in (shared, private):
                assert frame.view == expected_view  # redaction is the game's view, nothing added
                assert [(x.idx, x.entry) for x in frame.journal] == [
                    (x.idx, x.entry) for x in lines if x.entry.audience is None or role.seat in x.entry.audience
                ]
                check_secrets(game.id, role, frame.view, frame.journal)


@pytest.mark.parametrize("game", existing_games(), ids=lambda g: g.id)
def test_no_viewer_sees_hidden_information_across_random_play(game: Any) -> None:
    rng = random.Random(f"redaction-{game.id}")
    total = 0

    async def run() -> None:
        nonlocal total
        for n in range(MATCHES_PER_GAME):
            events = random_match(game, rng, f"prop-{n}")
            total += len(events)
            await check_match(game, events, cut=rng.randint(1, len(events)))

    asyncio.run(run())
    assert total >= 2000, total
    print(f"{game.id}: {MATCHES_PER_GAME} matches, {total} events checked")
