"""Dice race: seats take turns to roll a die or pass; first to `target` wins.

Each seat also draws a secret number at the start, seen only by its owner
until the race ends, so the platform's redaction is tested too. Ties at the
end are broken by the higher secret.

The AFK ladder is the platform's (`tablehall_rules.AfkLadder`): a seat whose
clock ran out (a `Passed` made with `timeout`) is AFK; so is a seat whose
presence dropped (the system command `Away`, event `WentAfk`). An AFK seat's
decisions get 2-second clocks until the seat rolls or passes itself.

Options beyond the race (so the platform's notions are tested on a game):

- `calls`: a rolled six opens a reaction window: every other live seat may
  `Call` it out of turn, the first call committed scores 1; the window closes
  at the next roll or pass. Each seat's call decision is known only to it.
- `teams` (4 seats): seats 0+2 and 1+3 race as teams on their summed score.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from tablehall_rules import (
    AfkLadder,
    DecideContext,
    Determinizable,
    Game,
    GameNature,
    GameOver,
    HasBotPolicy,
    HasEvaluation,
    HasRandomPolicy,
    HasStandings,
    IllegalCommand,
    InvalidCommand,
    InvalidOptions,
    Journaled,
    LegalMove,
    NotYourTurn,
    Outcome,
    PendingDecision,
    SeatInfo,
    TableControl,
    Viewer,
)
from tablehall_rules.journal import JournalEntry
from tablehall_rules.legal import concrete
from tablehall_rules.setups import Setup


class Roll(msgspec.Struct, frozen=True, tag="Roll"):
    """Roll one die and add it to your score."""


class Pass(msgspec.Struct, frozen=True, tag="Pass"):
    """End your turn without rolling."""


class Concede(msgspec.Struct, frozen=True, tag="Concede"):
    """System command: the table takes a seat out of the race."""

    seat: int


class Close(msgspec.Struct, frozen=True, tag="Close"):
    """System command: end the race as it stands."""

    reason: str


class Away(msgspec.Struct, frozen=True, tag="Away"):
    """System command: the seat's presence dropped (closed tab); it is AFK at once."""

    seat: int


class Call(msgspec.Struct, frozen=True, tag="Call"):
    """A reaction: call the six just rolled (option `calls`); the first call scores 1."""


Command = Roll | Pass | Concede | Close | Away | Call


class Started(msgspec.Struct, frozen=True, tag="Started"):
    seats: list[SeatInfo]
    target: int
    clock_ms: int
    secrets: list[int]
    at_ms: int
    calls: bool = False
    teams: list[list[int]] = msgspec.field(default_factory=list)


class Rolled(msgspec.Struct, frozen=True, tag="Rolled"):
    seat: int
    value: int
    at_ms: int


class Passed(msgspec.Struct, frozen=True, tag="Passed"):
    seat: int
    at_ms: int
    timeout: bool = False


class Conceded(msgspec.Struct, frozen=True, tag="Conceded"):
    seat: int
    at_ms: int


class Finished(msgspec.Struct, frozen=True, tag="Finished"):
    places: list[list[int]]


class WentAfk(msgspec.Struct, frozen=True, tag="WentAfk"):
    seat: int
    at_ms: int


class Called(msgspec.Struct, frozen=True, tag="Called"):
    seat: int
    at_ms: int


Event = Started | Rolled | Passed | Conceded | Finished | WentAfk | Called


class RaceState(msgspec.Struct):
    seats: list[SeatInfo]
    target: int
    clock_ms: int
    scores: list[int]
    secrets: list[int]
    out: list[bool]
    ladder: AfkLadder
    turn: int = 0
    turn_no: int = 0
    opened_at_ms: int = 0
    places: list[list[int]] | None = None
    calls: bool = False
    teams: list[list[int]] = msgspec.field(default_factory=list)
    # the seat whose six may be called now, and when it was rolled (-1: no window)
    six_by: int = -1
    six_at_ms: int = 0


def _clock_ms(state: RaceState, seat: int) -> int:
    return state.ladder.clock_ms(seat, state.clock_ms)


def _callers(state: RaceState) -> list[int]:
    """Seats that may call the open six now."""
    if state.six_by < 0 or state.places is not None:
        return []
    return [s for s in range(len(state.seats)) if s != state.six_by and not state.out[s]]


def _team_of(state: RaceState, seat: int) -> list[int]:
    return next((t for t in state.teams if seat in t), [seat])


def _next_live(state: RaceState, after: int) -> int:
    n = len(state.seats)
    for step in range(1, n + 1):
        seat = (after + step) % n
        if not state.out[seat]:
            return seat
    return after


def _team_score(state: RaceState, seat: int) -> int:
    return sum(state.scores[s] for s in _team_of(state, seat))


def _places(state: RaceState) -> list[list[int]]:
    if state.teams:

        def rank(team: list[int]) -> tuple[int, int, int]:
            live = any(not state.out[s] for s in team)
            return (0 if live else 1, -_team_score(state, team[0]), -max(state.secrets[s] for s in team))

        return [list(t) for t in sorted(state.teams, key=rank)]
    live = [s for s in range(len(state.seats)) if not state.out[s]]
    gone = [s for s in range(len(state.seats)) if state.out[s]]
    ranked = sorted(live, key=lambda s: (-state.scores[s], -state.secrets[s]))
    return [[s] for s in ranked] + ([gone] if gone else [])


def _won(state: RaceState, seat: int, extra: int) -> bool:
    return _team_score(state, seat) + extra >= state.target


SOLO_MAX_TARGET = 500


class DiceRace(
    Game[RaceState],
    TableControl,
    Journaled,
    HasStandings,
    Determinizable,
    HasBotPolicy,
    HasRandomPolicy,
    HasEvaluation,
):
    id: ClassVar[str] = "testgame"
    rules_version: ClassVar[str] = "1"
    min_seats: ClassVar[int] = 1
    max_seats: ClassVar[int] = 4
    state_type: ClassVar[type[Any]] = RaceState
    command_types: ClassVar[Sequence[type[msgspec.Struct]]] = (Roll, Pass, Concede, Close, Away, Call)
    event_types: ClassVar[Sequence[type[msgspec.Struct]]] = (
        Started,
        Rolled,
        Passed,
        Conceded,
        Finished,
        WentAfk,
        Called,
    )
    title: ClassVar[Mapping[str, str]] = {"en": "Dice race (test game)", "ru": "Гонка костей (тестовая игра)"}
    supports_teams: ClassVar[bool] = True
    # the race has no forced end (seats may pass forever): 5000 bounds random play, whose
    # races of the set-ups below end in a few dozen commands
    nature: ClassVar[GameNature] = GameNature(
        hidden_information=True, chance=True, simultaneous=True, max_commands=5000
    )
    # solo, 2-4 seats, reaction windows, teams
    conformance_setups: ClassVar[Sequence[Setup]] = (
        Setup(1, {"target": 15}, examples=15),
        Setup(2, {"target": 20}, examples=15),
        Setup(3, {"target": 20, "calls": True}, examples=15),
        Setup(4, {"target": 25, "calls": True, "teams": True}, examples=15),
    )
    end_reasons: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "target reached": {"en": "the target was reached", "ru": "цель достигнута"}
    }
    options_schema: ClassVar[Mapping[str, Any]] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "target": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 20},
            "clock_ms": {"type": "integer", "minimum": 100, "maximum": 600_000, "default": 30_000},
            "calls": {"type": "boolean", "default": False},
            "teams": {"type": "boolean", "default": False, "description": "4 seats: 0+2 against 1+3"},
        },
    }

    def parse_options(self, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        unknown = set(raw) - {"target", "clock_ms", "calls", "teams"}
        if unknown:
            raise InvalidOptions("UNKNOWN_OPTION", f"Unknown options {sorted(unknown)}.", "Неизвестные настройки.")
        target = raw.get("target", 20)
        clock_ms = raw.get("clock_ms", 30_000)
        if not isinstance(target, int) or not 1 <= target <= 1000:
            raise InvalidOptions("INVALID_TARGET", "target must be 1..1000.", "Цель должна быть от 1 до 1000.")
        if not isinstance(clock_ms, int) or not 100 <= clock_ms <= 600_000:
            raise InvalidOptions("INVALID_CLOCK", "clock_ms must be 100..600000.", "Часы: от 100 до 600000 мс.")
        flags = {name: raw.get(name, False) for name in ("calls", "teams")}
        if any(not isinstance(v, bool) for v in flags.values()):
            raise InvalidOptions("INVALID_FLAG", "calls and teams are true or false.", "calls и teams — да или нет.")
        return {"target": target, "clock_ms": clock_ms, **flags}

    def teams(self, options: Mapping[str, Any], seat_count: int) -> list[list[int]]:
        return [[0, 2], [1, 3]] if options.get("teams") and seat_count == 4 else []

    def start(self, options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext) -> list[msgspec.Struct]:
        opts = self.parse_options(options)
        if not self.min_seats <= len(seats) <= self.max_seats:
            raise InvalidOptions("SEAT_COUNT", "1 to 4 seats.", "От 1 до 4 мест.")
        if len(seats) == 1 and opts["target"] > SOLO_MAX_TARGET:
            # a rule that depends on the seats, checked only at the start (like a
            # round limit that only big tables must have)
            raise InvalidOptions(
                "SOLO_TARGET", f"A solo race has a target of at most {SOLO_MAX_TARGET}.", "Соло — цель не больше 500."
            )
        if opts["teams"] and len(seats) != 4:
            raise InvalidOptions("TEAMS_NEED_FOUR", "Teams are played by 4 seats.", "Командами играют вчетвером.")
        secrets = [ctx.rng.randint(1, 100) for _ in seats]
        teams = self.teams(opts, len(seats))
        return [Started(list(seats), opts["target"], opts["clock_ms"], secrets, ctx.now_ms, opts["calls"], teams)]

    def decide(self, state: RaceState, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
        if state.places is not None:
            raise GameOver()
        if isinstance(command, Close):
            if ctx.seat is not None:
                raise IllegalCommand("SYSTEM_ONLY", "Only the table may close the race.", "Только стол.")
            return [Finished(_places(state))]
        if isinstance(command, Concede):
            if ctx.seat is not None:
                raise IllegalCommand("SYSTEM_ONLY", "Only the table may take a seat out.", "Только стол.")
            if not 0 <= command.seat < len(state.seats):
                raise InvalidCommand("NO_SUCH_SEAT", "No such seat.", "Нет такого места.")
            if state.out[command.seat]:
                raise IllegalCommand("ALREADY_OUT", "That seat is out already.", "Место уже выбыло.")
            return self._maybe_finish(state, [Conceded(command.seat, ctx.now_ms)], conceding=command.seat)
        if isinstance(command, Away):
            if ctx.seat is not None:
                raise IllegalCommand("SYSTEM_ONLY", "Only the table marks a seat away.", "Только стол.")
            if not 0 <= command.seat < len(state.seats):
                raise InvalidCommand("NO_SUCH_SEAT", "No such seat.", "Нет такого места.")
            if state.ladder.is_afk(command.seat):
                raise IllegalCommand("ALREADY_AFK", "That seat is AFK already.", "Игрок уже отошёл.")
            return [WentAfk(command.seat, ctx.now_ms)]
        if isinstance(command, Call):
            if ctx.seat not in _callers(state):
                raise IllegalCommand("NOTHING_TO_CALL", "There is no six for you to call.", "Нечего окликать.")
            events: list[msgspec.Struct] = [Called(ctx.seat, ctx.now_ms)]
            if _won(state, ctx.seat, 1):
                events.append(Finished(_places(_with_point(state, ctx.seat, 1))))
            return events
        if ctx.seat != state.turn:
            raise NotYourTurn()
        if ctx.timed_out is not None:
            if ctx.timed_out not in self.pending(state) or ctx.timed_out.seat != ctx.seat:
                raise IllegalCommand("NO_SUCH_DECISION", "No such open decision.", "Нет такого решения.")
            if ctx.now_ms < state.opened_at_ms + _clock_ms(state, ctx.seat):
                raise IllegalCommand("CLOCK_NOT_EXPIRED", "The clock has not run out.", "Часы ещё идут.")
        if isinstance(command, Roll):
            value = ctx.rng.die()
            rolled: list[msgspec.Struct] = [Rolled(ctx.seat, value, ctx.now_ms)]
            if _won(state, ctx.seat, value):
                rolled.append(Finished(_places(_with_point(state, ctx.seat, value))))
            return rolled
        if isinstance(command, Pass):
            return [Passed(ctx.seat, ctx.now_ms, ctx.timeout)]
        raise InvalidCommand("UNKNOWN_COMMAND", "Unknown command.", "Неизвестная команда.")

    def _maybe_finish(self, state: RaceState, events: list[msgspec.Struct], conceding: int) -> list[msgspec.Struct]:
        live = [s for s in range(len(state.seats)) if not state.out[s] and s != conceding]
        sides = {tuple(_team_of(state, s)) for s in live}
        if len(sides) <= 1:
            out = list(state.out)
            out[conceding] = True
            probe = msgspec.structs.replace(state, out=out)
            events.append(Finished(_places(probe)))
        return events

    def evolve(self, state: RaceState | None, event: msgspec.Struct) -> RaceState:
        """Updates `state` in place (the caller hands it over) and returns it."""
        if isinstance(event, Started):
            n = len(event.seats)
            return RaceState(
                event.seats,
                event.target,
                event.clock_ms,
                [0] * n,
                event.secrets,
                [False] * n,
                AfkLadder.for_seats(n),
                opened_at_ms=event.at_ms,
                calls=event.calls,
                teams=event.teams,
            )
        assert state is not None, "the first event must be Started"
        if isinstance(event, Rolled):
            state.scores[event.seat] += event.value
            state.ladder.acted(event.seat)
            state.six_by = event.seat if state.calls and event.value == 6 else -1
            state.six_at_ms = event.at_ms
            self._advance(state, event.at_ms)
        elif isinstance(event, Passed):
            if event.timeout:
                state.ladder.timed_out(self._turn_decision(state))
            else:
                state.ladder.acted(event.seat)
            state.six_by = -1
            self._advance(state, event.at_ms)
        elif isinstance(event, Called):
            state.scores[event.seat] += 1
            state.six_by = -1
        elif isinstance(event, WentAfk):
            state.ladder.presence(event.seat, False)
        elif isinstance(event, Conceded):
            state.out[event.seat] = True
            if state.turn == event.seat:
                self._advance(state, event.at_ms)
        elif isinstance(event, Finished):
            state.places = event.places
        return state

    def _advance(self, state: RaceState, at_ms: int) -> None:
        state.turn = _next_live(state, state.turn)
        state.turn_no += 1
        state.opened_at_ms = at_ms

    def view(self, state: RaceState, viewer: Viewer) -> dict[str, Any]:
        everything = viewer.role == "auditor" or state.places is not None
        return {
            "scores": list(state.scores),
            "turn": state.turn,
            "target": state.target,
            "out": list(state.out),
            "afk": list(state.ladder.afk),
            "teams": state.teams,
            "six_by": state.six_by,
            "six_at_ms": state.six_at_ms,
            "turn_no": state.turn_no,
            "opened_at_ms": state.opened_at_ms,
            "clock_ms": state.clock_ms,
            "secrets": [s if everything or viewer.seat == i else None for i, s in enumerate(state.secrets)],
            "places": state.places,
        }

    def legal(self, state: RaceState, seat: int, now_ms: int) -> list[LegalMove]:
        if state.places is None and seat in _callers(state):
            calls: list[msgspec.Struct] = [Call()]
        else:
            calls = []
        if state.places is not None or seat != state.turn:
            return concrete(calls)
        return concrete([Roll(), Pass(), *calls])

    @staticmethod
    def _turn_decision(state: RaceState) -> PendingDecision:
        return PendingDecision(
            f"turn-{state.turn_no}",
            state.turn,
            "turn",
            "decision",
            state.opened_at_ms,
            _clock_ms(state, state.turn),
        )

    def pending(self, state: RaceState) -> list[PendingDecision]:
        if state.places is not None:
            return []
        calls = [
            PendingDecision(f"six-{state.turn_no}-{s}", s, "call", "reaction", state.six_at_ms, 0, [], True)
            for s in _callers(state)
        ]
        return [self._turn_decision(state), *calls]

    def default_command(self, state: RaceState, decision: PendingDecision) -> msgspec.Struct:
        if decision.reaction:
            raise ValueError("a reaction window has no default move")
        return Pass()

    # TableControl: a dropped presence makes the seat AFK at once; coming back
    # is not acting (the seat leaves AFK by its own roll or pass); no bots.
    def presence_command(self, seat: int, present: bool) -> msgspec.Struct | None:
        return None if present else Away(seat)

    def controller_command(self, seat: int, by_bot: bool) -> msgspec.Struct | None:
        return None

    def remove_command(self, seat: int) -> msgspec.Struct | None:
        return None  # the race has no rule for a removed player: the lobby's removal is recorded only

    def close_command(self, reason: str) -> msgspec.Struct | None:
        return Close(reason)

    # Bot hooks (tablehall_rules.bots): the heuristic always rolls; searches
    # sample the secrets the seat cannot see.
    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> RaceState:
        n = len(view["scores"])
        secrets = [s if s is not None else rng.randint(1, 100) for s in view["secrets"]]
        ladder = AfkLadder.for_seats(n)
        ladder.afk = list(view["afk"])
        return RaceState(
            seats=[SeatInfo(i, f"seat-{i}", f"Seat {i}") for i in range(n)],
            target=view["target"],
            clock_ms=view["clock_ms"],
            scores=list(view["scores"]),
            secrets=secrets,
            out=list(view["out"]),
            ladder=ladder,
            turn=view["turn"],
            turn_no=view["turn_no"],
            opened_at_ms=view["opened_at_ms"],
            places=view["places"],
            teams=[list(t) for t in view["teams"]],
            calls=view["six_by"] >= 0,
            six_by=view["six_by"],
            six_at_ms=view["six_at_ms"],
        )

    def bot_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        # a call is a free point: take it first; else always roll
        return next(
            (c for c in legal if isinstance(c, Call)), next((c for c in legal if isinstance(c, Roll)), legal[0])
        )

    def random_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return rng.choice(legal)

    def evaluate(self, state: RaceState, seat: int) -> float:
        if state.places is not None:
            return 1.0 if seat in state.places[0] else 0.0
        if state.out[seat]:
            return 0.0
        live = [s for s in range(len(state.seats)) if not state.out[s]]
        return (state.scores[seat] + 1) / sum(state.scores[s] + 1 for s in live)

    # Projection hooks: the journal and live standings (public information only)
    def journal(self, state_before: RaceState | None, event: msgspec.Struct) -> list[JournalEntry]:
        return _journal(state_before, event)

    def standings(self, state: RaceState) -> list[list[int]]:
        if state.places is not None:
            return state.places
        if state.teams:  # by team score alone (the secrets that break ties are hidden)
            scores = {tuple(t): _team_score(state, t[0]) for t in state.teams}
            return [
                [s for t in state.teams if scores[tuple(t)] == score for s in t]
                for score in sorted(set(scores.values()), reverse=True)
            ]
        live = [s for s in range(len(state.seats)) if not state.out[s]]
        gone = [s for s in range(len(state.seats)) if state.out[s]]
        places: list[list[int]] = []
        for score in sorted({state.scores[s] for s in live}, reverse=True):
            places.append([s for s in live if state.scores[s] == score])
        return places + ([gone] if gone else [])

    def outcome(self, state: RaceState) -> Outcome | None:
        if state.places is None:
            return None
        return Outcome(
            places=state.places, reason="target reached", scores=dict(enumerate(state.scores)), teams=state.teams
        )


def _with_point(state: RaceState, seat: int, points: int) -> RaceState:
    scores = list(state.scores)
    scores[seat] += points
    return msgspec.structs.replace(state, scores=scores)


def _name(state: RaceState | None, seat: int) -> str:
    return state.seats[seat].name if state is not None else str(seat)


def _journal(before: RaceState | None, event: msgspec.Struct) -> list[JournalEntry]:
    if isinstance(event, Started):
        n, target = len(event.seats), event.target
        entries = [
            JournalEntry(
                "testgame.started",
                {"players": n, "target": target},
                f"Гонка до {target}, игроков: {n}. Каждому роздано тайное число.",
                f"A race to {target} with {n} players. Each has been dealt a secret number.",
            )
        ]
        for seat, secret in enumerate(event.secrets):
            entries.append(
                JournalEntry(
                    "testgame.secret_dealt",
                    {"seat": seat, "secret": secret},
                    f"Ваше тайное число: {secret}.",
                    f"Your secret number is {secret}.",
                    audience=[seat],
                )
            )
        return entries
    assert before is not None
    if isinstance(event, Rolled):
        name, total = _name(before, event.seat), before.scores[event.seat] + event.value
        return [
            JournalEntry(
                "testgame.rolled",
                {"seat": event.seat, "value": event.value, "total": total},
                f"{name} выбрасывает {event.value}, всего {total}.",
                f"{name} rolls {event.value}, {total} in all.",
            )
        ]
    if isinstance(event, Passed):
        name = _name(before, event.seat)
        if event.timeout:
            ru, en = f"У {name} вышло время: пас.", f"{name}'s clock ran out: pass."
        else:
            ru, en = f"{name} пасует.", f"{name} passes."
        return [JournalEntry("testgame.passed", {"seat": event.seat, "timeout": event.timeout}, ru, en)]
    if isinstance(event, Called):
        name = _name(before, event.seat)
        return [
            JournalEntry(
                "testgame.called", {"seat": event.seat}, f"{name} окликает шестёрку: +1.", f"{name} calls the six: +1."
            )
        ]
    if isinstance(event, Conceded):
        name = _name(before, event.seat)
        return [JournalEntry("testgame.conceded", {"seat": event.seat}, f"{name} выбывает.", f"{name} is out.")]
    if isinstance(event, Finished):
        winners = ", ".join(_name(before, s) for s in event.places[0])
        secrets = list(before.secrets)
        return [
            JournalEntry(
                "testgame.finished",
                {"places": event.places, "secrets": secrets},
                f"Гонка окончена. Победа: {winners}. Тайные числа: {secrets}.",
                f"The race is over. Won by {winners}. Secret numbers: {secrets}.",
            )
        ]
    return []


GAME = DiceRace()
