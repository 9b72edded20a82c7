"""A stand-in server for the terminal client's screen tests: the SDK calls the app makes, answered
from a script of views (one per version), and the screen as text."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

from textual.app import App
from textual.pilot import Pilot

from tablehall_sdk import (
    ChatMessage,
    Command,
    Decision,
    FailedPrecondition,
    GameInfo,
    JournalLine,
    LegalMove,
    NotFound,
    Parameter,
    Role,
    Seat,
    Submitted,
    Table,
    TableView,
    Update,
)

NOW_MS = 1_800_000_000_000
BOARD = Path(__file__).parents[2] / "libs/boards/src/tablehall_boards/data/monopoly_classic.json"
GAMES = (
    GameInfo("puzzipolia", "1", {"en": "Puzzipolia", "ru": "Пузиполия"}, 2, 16, {"properties": {}}, False),
    GameInfo("testgame", "1", {"en": "Dice race", "ru": "Гонка костей"}, 1, 4, {"properties": {}}, True),
    GameInfo("magnates", "1.0.0", {"en": "Magnates", "ru": "Магнаты"}, 2, 4, {"properties": {}}, False),
)


def screen_text(app: App[Any]) -> str:
    """What the terminal shows, line by line (no colours)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips) + "\n"


class ScriptedClient:
    """The SDK Client's calls the terminal app makes, over `views` (version -> TableView).

    `watch` yields an update per version in `versions` with no pause (a burst); `view` answers the
    newest scripted version after `view_delay` seconds (slower than the feed)."""

    def __init__(
        self,
        game: str,
        names: tuple[str, ...],
        views: Mapping[int, TableView],
        view_delay: float = 0.0,
        feed_gap: float = 0.0,
    ):
        self.game = game
        self.names = names
        self.views = dict(views)
        self.view_delay = view_delay
        self.feed_gap = feed_gap  # the pause between two updates of the feed
        self.head = min(self.views)
        self.user_id = "me"
        self.views_asked = 0
        self.submitted: list[tuple[int, Command]] = []
        self.feed: asyncio.Queue[int | None] = asyncio.Queue()
        self.said: list[ChatMessage] = []
        self.missing_at_first = 0  # WatchTable answers NOT_FOUND this many times (a just-started table)
        self.presence_holds = 0

    def table(self) -> Table:
        seats = tuple(Seat(i, "me" if i == 0 else f"bot{i}", n, i != 0) for i, n in enumerate(self.names))
        return Table("tables/tsnap0001", self.game, "PLAYING", {}, "me", seats, False, 9)

    async def hold_presence(self, table: str) -> AsyncIterator[bool]:
        """Present until the app stops iterating (counted in `presence_holds`)."""
        self.presence_holds += 1
        yield True
        await asyncio.Event().wait()

    async def sign_in_dev(self, name: str, display_name: str = "") -> None:
        return None

    async def create_table(self, game: str, options: Mapping[str, Any], *, seat_count: int = 0) -> Table:
        return self.table()

    async def add_bot(self, table: str) -> tuple[Table, int]:
        return self.table(), 1

    async def start(self, table: str) -> tuple[Table, str]:
        return self.table(), "0" * 64

    async def get_table(self, table: str) -> Table:
        return self.table()

    async def list_games(self) -> tuple[GameInfo, ...]:
        return GAMES

    async def journal(self, table: str, role: Role = Role.DEFAULT) -> list[JournalLine]:
        return []

    async def view(self, table: str, role: Role = Role.DEFAULT) -> TableView:
        self.views_asked += 1
        await asyncio.sleep(self.view_delay)
        return self.views[self.head]

    async def submit(self, table: str, seat: int, command: Command) -> Submitted:
        view = self.views[self.head]
        self.submitted.append((view.version, command))
        if command not in view.legal and not any(_admits(m, command) for m in view.moves):
            raise FailedPrecondition("ILLEGAL", "Not now.", {"en": "Not now.", "ru": "Не сейчас."})
        return Submitted(view.version, False, view, "r")

    async def watch(self, table: str, *, from_version: int = 0, role: Role = Role.DEFAULT) -> AsyncIterator[Update]:
        if self.missing_at_first > 0:
            self.missing_at_first -= 1
            raise NotFound("TABLE_NOT_FOUND", "No table.", {"en": "No table.", "ru": "Такого стола нет."})
        while True:
            version = await self.feed.get()
            if version is None:
                return
            self.head = version
            view = self.views[version]
            yield Update(
                table,
                version == min(self.views),
                version,
                role,
                view.seat,
                self.game,
                view.state,
                tuple(JournalLine(version, "x", {}, r, e) for e, r in view.state.get("_journal", [])),
                view.decisions,
                view.finished,
                view.outcome,
            )
            if self.feed_gap:
                await asyncio.sleep(self.feed_gap)

    async def chat(self, table: str, *, after: str = "") -> tuple[list[ChatMessage], str]:
        start = int(after or 0)
        return self.said[start:], str(len(self.said))

    async def send_chat(self, table: str, text: str) -> ChatMessage:
        message = ChatMessage(len(self.said) + 1, "me", self.names[0], 0, text, NOW_MS)
        self.said.append(message)
        return message

    async def close(self) -> None:
        return None


def _admits(move: LegalMove, command: Command) -> bool:
    if move.command.kind != command.kind:
        return False
    for p in move.parameters:
        value = command.args.get(p.field)
        if p.is_range and not (isinstance(value, int) and p.lo <= value <= p.hi):
            return False
    return True


def view(
    version: int,
    state: Mapping[str, Any],
    moves: tuple[LegalMove, ...] = (),
    *,
    seat: int | None = 0,
    decisions: tuple[Decision, ...] = (),
    finished: bool = False,
    outcome: Mapping[str, Any] | None = None,
    game: str = "puzzipolia",
) -> TableView:
    legal = tuple(m.command for m in moves if not m.parameters)
    return TableView(
        "tables/tsnap0001", game, version, Role.SEAT, seat, state, legal, decisions, finished, outcome, moves
    )


def decision(seat: int, kind: str = "turn", seconds: int = 25, reaction: bool = False) -> Decision:
    return Decision(f"{kind}-{seat}", seat, kind, "decision", NOW_MS, seconds * 1000, NOW_MS + seconds * 1000, reaction)


def puzzipolia_state(**changes: Any) -> dict[str, Any]:
    """A Пузиполия view (docs/rules/puzzipolia.md «view»): four players, some lots owned."""
    squares: list[dict[str, Any]] = []
    for i, sq in enumerate(json.loads(BOARD.read_text())):
        entry: dict[str, Any] = {"index": i, "kind": sq["kind"], "en": sq["en"], "ru": sq["ru"]}
        if sq["kind"] in ("street", "transport", "utility"):
            entry.update(
                group=sq.get("group"),
                price=sq.get("price", 100),
                owner=None,
                buildings=0,
                hotel=False,
                mortgaged=False,
                rent_card={"house_cost": sq.get("house_cost", 50)},
            )
        squares.append(entry)
    for index, owner in ((1, 0), (3, 0), (11, 1), (16, 2), (19, 3), (39, 1), (5, 3)):
        squares[index]["owner"] = owner
    squares[3]["buildings"] = 2
    squares[39]["hotel"] = True
    squares[16]["mortgaged"] = True
    players = [
        {
            "seat": s,
            "name": n,
            "is_bot": s != 0,
            "money": m,
            "position": pos,
            "status": "playing",
            "in_jail": s == 2,
            "afk": False,
            "net_worth": m + 400,
        }
        for s, n, m, pos in (
            (0, "Ann", 1340, 11),
            (1, "Bot 1", 15250, 16),
            (2, "Bot 2", 980, 10),
            (3, "Bot 3", 1500, 11),
        )
    ]
    state: dict[str, Any] = {
        "game": "puzzipolia",
        "phase": "turn",
        "active_seat": 0,
        "round": 3,
        "round_limit": 8,
        "squares": squares,
        "players": players,
        "debts": [],
        "auction": None,
        "vote": None,
        "buy_square": None,
        "me": {"offers": []},
    }
    state.update(changes)
    return state


def move(kind: str, **params: Any) -> LegalMove:
    parameters = tuple(
        Parameter(name, lo=v[0], hi=v[1], step=1) if isinstance(v, tuple) else Parameter(name, values=tuple(v))
        for name, v in params.items()
    )
    return LegalMove(Command("puzzipolia", kind, {p.field: 0 for p in parameters if p.is_range}), parameters)


Factory = Callable[[], ScriptedClient]


async def until(pilot: Pilot[None], ok: Callable[[], bool], steps: int = 2000) -> None:
    """Wait (in 5 ms pauses, at most `steps`) until `ok()` holds on the screen."""
    for _ in range(steps):
        if ok():
            return
        await pilot.pause(0.005)
    raise AssertionError("the screen never got there")


async def settled(pilot: Pilot[None], app: App[Any]) -> str:
    """The screen's text once two reads a moment apart agree (a busy machine paints late)."""
    await pilot.pause(0.05)
    text = screen_text(app)
    for _ in range(100):
        await pilot.pause(0.05)
        again = screen_text(app)
        if again == text:
            return text
        text = again
    return text


def homunculus_views() -> dict[str, TableView]:
    """Гомункул as the match serves it (the engine's view and descriptors through the wire
    adapters): seat 0 at its action after random play, at an auction of the ring, and a finished
    game."""
    import msgspec

    from homunculus import commands as hc
    from homunculus.game import GAME
    from tablehall_rules import DecideContext, Viewer
    from tablehall_rules import conformance as kit
    from tablehall_rules.legal import expand_all
    from tablehall_sdk.adapters.convert import legal_move_from_proto
    from tablehall_stream.codecs import command_codec
    from tablehall_stream.proto_games import legal_move_to_proto

    rng = random.Random(16)
    state, _, source = kit.start(GAME, {}, kit.seats_for(4), b"terminal-snapshot-homunculus-016")
    now, steps, out = kit.START_MS, 0, {}
    while GAME.outcome(state) is None:
        pend = rng.choice(GAME.pending(state))
        at_auction = state.phase == "auction" and any(d.seat == 0 for d in GAME.pending(state))
        for name, now_shown in (
            ("turn", steps >= 160 and state.turn == 0 and state.phase == "action"),
            ("auction", steps >= 40 and at_auction),
        ):
            if now_shown and name not in out:
                seen = json.loads(msgspec.json.encode(GAME.view(state, Viewer.of_seat(0))))
                legal = GAME.legal(state, 0, now)
                moves = tuple(legal_move_from_proto(legal_move_to_proto("homunculus", m)) for m in legal)
                out[name] = view(steps, seen, moves, decisions=(decision(0),), game="homunculus")
        now += 250
        commands = [
            m
            for m in expand_all(GAME.legal(state, pend.seat, now), command_codec("homunculus"), limit=400)
            if not isinstance(m, hc.Surrender)
        ]
        if not commands:
            continue
        command = GAME.random_policy({}, commands, rng)
        for event in GAME.decide(state, command, DecideContext(pend.seat, now, source)):
            state = GAME.evolve(state, event)
        steps += 1
    done = json.loads(msgspec.json.encode(GAME.view(state, Viewer.of_seat(0))))
    outcome = GAME.outcome(state)
    assert outcome is not None
    places = {"places": outcome.places, "reason": outcome.reason}
    out["over"] = view(steps, done, finished=True, outcome=places, game="homunculus")
    return out


def magnates_state(seed: int, wanted: Callable[[Mapping[str, Any]], bool], after: int = 0) -> Any:
    """The first state of a Магнаты game (three seats, random legal commands, seeded) from
    step `after` on whose view satisfies `wanted`: screens of this game are drawn from real views."""
    import random

    from magnates.game import GAME
    from tablehall_rules import DecideContext, DrawSource, SeatInfo, StructCodec, Viewer
    from tablehall_rules.legal import expand_all

    codec = StructCodec(GAME.command_types)
    seats = [SeatInfo(i, f"u{i}", n, i != 0) for i, n in enumerate(("Ann", "Bot 1", "Bot 2"))]
    draws = DrawSource(seed.to_bytes(4, "big") * 8)
    rng = random.Random(seed)
    state = None
    for event in GAME.start({"round_limit": 12, "clock_ms": 25_000}, seats, DecideContext(None, NOW_MS, draws)):
        state = GAME.evolve(state, event)
    assert state is not None
    for step in range(20_000):
        seen = GAME.view(state, Viewer.of_seat(0))
        if step >= after and wanted(seen):
            return state
        if GAME.outcome(state) is not None:
            break
        (pending,) = GAME.pending(state)
        legal = expand_all(GAME.legal(state, pending.seat, NOW_MS), codec)
        command = rng.choice(legal)  # random legal commands: the screens do not follow the bot's changes
        for event in GAME.decide(state, command, DecideContext(pending.seat, NOW_MS, draws)):
            state = GAME.evolve(state, event)
    raise AssertionError("no such state in the game")


def magnates_table_view(version: int, state: Any, *, seat: int | None = 0) -> TableView:
    """A seat's (or a spectator's) TableView of an engine state, its moves through the match's protos."""
    from magnates.game import GAME
    from tablehall_rules import Viewer
    from tablehall_sdk.adapters.convert import decision_from_proto, legal_move_from_proto
    from tablehall_stream import proto_games

    shown = GAME.view(state, Viewer.of_seat(seat) if seat is not None else Viewer.spectator())
    moves: tuple[LegalMove, ...] = ()
    if seat is not None:
        moves = tuple(
            legal_move_from_proto(proto_games.legal_move_to_proto("magnates", m))
            for m in GAME.legal(state, seat, NOW_MS)
        )
    decisions = tuple(decision_from_proto(proto_games.decision_to_proto(d)) for d in GAME.pending(state))
    outcome = GAME.outcome(state)
    done = None
    if outcome is not None:
        done = {
            "places": outcome.places,
            "reason": outcome.reason,
            "scores": {str(k): v for k, v in outcome.scores.items()},
        }
    return view(
        version, shown, moves, seat=seat, decisions=decisions, finished=done is not None, outcome=done, game="magnates"
    )
