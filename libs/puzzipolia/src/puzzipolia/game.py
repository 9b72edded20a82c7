"""The Пузиполия game object the platform loads (`puzzipolia.game:GAME`)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from puzzipolia import bot, determinize, journal, moves, pending, setup, simulate, view
from puzzipolia import decide as deciding
from puzzipolia.commands import (
    COMMAND_TYPES,
    HostProposeEnd,
    IdleClose,
    OperatorClose,
    RemovePlayer,
    SetController,
    SetPresence,
)
from puzzipolia.events import EVENT_TYPES
from puzzipolia.evolve import evolve
from puzzipolia.rules import end
from puzzipolia.rules.end import net_worth
from puzzipolia.state import State
from tablehall_rules import (
    DecideContext,
    Determinizable,
    Game,
    HasBotPolicy,
    HasEvaluation,
    HasRandomPolicy,
    HasStandings,
    Journaled,
    LegalMove,
    Outcome,
    PendingDecision,
    SeatInfo,
    TableControl,
    Viewer,
)
from tablehall_rules.journal import JournalEntry


class Puzzipolia(
    Game[State],
    TableControl,
    Journaled,
    HasStandings,
    Determinizable,
    HasBotPolicy,
    HasRandomPolicy,
    HasEvaluation,
):
    id: ClassVar[str] = "puzzipolia"
    rules_version: ClassVar[str] = "1.0.0"
    min_seats: ClassVar[int] = setup.MIN_SEATS
    max_seats: ClassVar[int] = setup.MAX_SEATS
    state_type: ClassVar[type[Any]] = State
    command_types: ClassVar[Sequence[type[msgspec.Struct]]] = COMMAND_TYPES
    event_types: ClassVar[Sequence[type[msgspec.Struct]]] = EVENT_TYPES
    title: ClassVar[Mapping[str, str]] = {"en": "Puzzipolia", "ru": "Пузиполия"}
    options_schema: ClassVar[Mapping[str, Any]] = setup.OPTIONS_SCHEMA
    end_reasons: ClassVar[Mapping[str, Mapping[str, str]]] = {
        "round_limit": {"en": "the round limit was reached", "ru": "сыграны все круги"},
        "vote": {"en": "the players voted to end it", "ru": "игроки проголосовали за конец"},
        "last_standing": {"en": "one player is left", "ru": "остался один игрок"},
        "operator": {"en": "an operator closed the table", "ru": "оператор закрыл стол"},
        "idle": {"en": "the table stood idle", "ru": "стол простаивал"},
    }

    def parse_options(self, raw: Mapping[str, Any]) -> Mapping[str, Any]:
        return setup.parse_options(raw)

    def start(self, options: Mapping[str, Any], seats: Sequence[SeatInfo], ctx: DecideContext) -> list[msgspec.Struct]:
        return list(setup.start(options, seats, ctx))

    def decide(self, state: State, command: msgspec.Struct, ctx: DecideContext) -> list[msgspec.Struct]:
        return list(deciding.decide(state, command, ctx))

    def evolve(self, state: State | None, event: msgspec.Struct) -> State:
        """Updates `state` in place and returns it."""
        return evolve(state, event)

    def view(self, state: State, viewer: Viewer) -> dict[str, Any]:
        return view.view(state, viewer)

    def legal(self, state: State, seat: int, now_ms: int) -> list[LegalMove]:
        return moves.legal_moves(state, seat, now_ms)

    def pending(self, state: State) -> list[PendingDecision]:
        return pending.pending(state)

    def default_command(self, state: State, decision: PendingDecision) -> msgspec.Struct:
        return pending.default_command(state, decision)

    # TableControl: the platform's generic table actions as this game's system commands
    def presence_command(self, seat: int, present: bool) -> msgspec.Struct | None:
        return SetPresence(seat=seat, present=present)

    def controller_command(self, seat: int, by_bot: bool) -> msgspec.Struct | None:
        return SetController(seat=seat, by_bot=by_bot)

    def remove_command(self, seat: int) -> msgspec.Struct | None:
        return RemovePlayer(seat=seat)

    def close_command(self, reason: str) -> msgspec.Struct | None:
        return IdleClose() if reason == "idle" else OperatorClose()

    def host_end_command(self, host_seat: int | None) -> msgspec.Struct | None:
        """The host's ■ (end for all): a vote, or the end at once when only bots play on."""
        return HostProposeEnd(host_seat=-1 if host_seat is None else host_seat)

    # the projection service's hooks: the journal and live standings
    def journal(self, state_before: State | None, event: msgspec.Struct) -> list[JournalEntry]:
        # names come from the table's seats; the first event brings them
        names = state_before if state_before is not None else evolve(None, event)
        return [journal.entry(event, names)]

    def standings(self, state: State) -> list[list[int]]:
        """Live places by net worth: cash, lots and buildings are all public."""
        return [list(p) for p in end.places(state)[0]]

    # Bot hooks (tablehall_rules.bots): search over samples of what a seat may know
    def determinize(self, view: dict[str, Any], seat: int, rng: random.Random) -> State:
        return determinize.determinize(view, seat, rng)

    def bot_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        return bot.choose(view, legal, rng)  # type: ignore[arg-type]

    def random_policy(self, view: dict[str, Any], legal: list[msgspec.Struct], rng: random.Random) -> msgspec.Struct:
        # a bot never leaves nor proposes the end: with nothing else legal it makes no move
        staying = [x for x in legal if not isinstance(x, bot.NEVER)]
        if not staying:
            raise bot.NoMove("only leaving is legal: a bot has no decision here")
        return simulate.random_choice(staying, rng, quitting=False)  # type: ignore[arg-type]

    def evaluate(self, state: State, seat: int) -> float:
        """1 for a sole winner; in play, the seat's share of the live players' net worth."""
        if state.phase == "over":
            first = state.places[0] if state.places else []
            return 1.0 / len(first) if seat in first else 0.0
        if not state.player(seat).is_playing:
            return 0.0
        worth = {s: max(net_worth(state, s), 0) for s in state.live_seats()}
        total = sum(worth.values())
        return worth[seat] / total if total else 1.0 / len(worth)

    def outcome(self, state: State) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(places=[list(p) for p in state.places], reason=state.end_reason, scores=dict(state.scores))


GAME = Puzzipolia()
