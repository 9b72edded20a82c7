"""An easy bot whose game decides on descriptors (`bot_policy_moves`) is asked that way on a view
the bot rendered itself: the same move as on the spelled-out commands, none of them spelled out."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, cast

import msgspec
import pytest
from support.randomplay import existing_games, random_match
from tablehall_bot.app import BotApp
from tablehall_bot.local_view import folded_view
from tablehall_bot.match_client import Answer, MatchClient
from tablehall_bot.players import EASY_NOISE, Difficulty, Player
from tablehall_bot.search import hooks
from tablehall_bot.search.hooks import GameHooks
from tablehall_bot.seats import BotSeat, TableSeats
from tablehall_bot.settings import BotSettings

from dragons.game import GAME as DRAGONS
from tablehall_rules import LegalMove

NOW_MS = 1_700_000_100_000


class Submitted:
    """The match as `BotApp._move` uses it: every move taken."""

    last_error = ""

    def __init__(self) -> None:
        self.commands: list[msgspec.Struct] = []

    async def submit(
        self, table: str, game: str, seat: int, command: msgspec.Struct, request_id: str, for_decisions: list[str]
    ) -> Answer:
        self.commands.append(command)
        return Answer.MADE


@pytest.fixture
def policy_calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every call of Драконы' `bot_policy_moves`, by the number of the call."""
    real = type(DRAGONS).bot_policy_moves
    calls: list[int] = []

    def counted(self: Any, view: dict[str, Any], moves: Sequence[LegalMove], rng: random.Random) -> msgspec.Struct:
        calls.append(len(calls))
        return real(self, view, moves, rng)

    monkeypatch.setattr(type(DRAGONS), "bot_policy_moves", counted)
    return calls


async def test_an_easy_bot_moves_on_a_local_views_descriptors(policy_calls: list[int]) -> None:
    match = Submitted()
    app = BotApp(cast(Any, None), cast(MatchClient, match), cast(Any, None), BotSettings("unused", "unused"))
    app.rng = random.Random(5)
    seats = TableSeats()
    decided = described = 0
    for event in random_match(DRAGONS, random.Random("easy-descriptors"), "t", max_commands=120):
        seats.apply(event.version, event.type, event.payload, event.metadata, event.schema_version)
        view = folded_view("t", seats, 0, NOW_MS)
        if view is None or not any(d.seat == 0 for d in view.decisions) or not view.any_legal:
            continue
        # the move the player would make on the spelled-out commands (the app's rng, one draw a move)
        twin = random.Random()
        twin.setstate(app.rng.getstate())
        player = Player(GameHooks(DRAGONS), Difficulty.EASY, random.Random(twin.getrandbits(64)))
        noise = random.Random()
        noise.setstate(player.rng.getstate())
        want = player.choose(view.view, 0, cast(Any, folded_view("t", seats, 0, NOW_MS)).legal).command

        await app._move(view, BotSeat(0, "bot-0", "easy", False), "r", ["k"])
        assert match.commands[-1] == want
        assert "legal" not in vars(view)  # never spelled out: the noise's random move neither
        decided += 1
        if noise.random() >= EASY_NOISE:  # the heuristic's move, not the noise's random one
            described += 1
            assert len(policy_calls) == described
    assert decided >= 30 and described >= 20, (decided, described)


def test_descriptors_that_spell_out_more_than_a_bot_considers_are_spelled_out(
    policy_calls: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past `LEGAL_LIMIT` commands, the heuristic decides on the first ones as on a remote view."""
    seats = TableSeats()
    for event in random_match(DRAGONS, random.Random("limit"), "t", max_commands=40):
        seats.apply(event.version, event.type, event.payload, event.metadata, event.schema_version)
    moves = DRAGONS.legal(cast(Any, seats.game_fold).state, 0, NOW_MS)
    view = cast(Any, folded_view("t", seats, 0, NOW_MS)).view
    game = GameHooks(DRAGONS)
    assert len(game.spell(moves)) > 1
    monkeypatch.setattr(hooks, "LEGAL_LIMIT", 1)
    assert game.heuristic_on_moves(view, moves, random.Random(1)) == game.heuristic(
        view, game.spell(moves), random.Random(1)
    )
    assert len(game.spell(moves)) <= 1 and policy_calls == []


@pytest.mark.parametrize("game", existing_games(), ids=lambda g: g.id)
def test_a_random_move_on_the_descriptors_is_the_one_on_the_spelled_out_commands(game: Any) -> None:
    """The noise's random move (`random_on_moves`): the command `random` draws from the spelled-out
    commands, with the same draws; where the game has no random player of its own, or its own reads
    the descriptors (`random_policy_moves`), spelled out alone (`nth`), and past `LEGAL_LIMIT` one
    of the first ones as on a remote view."""
    hooks_of = GameHooks(game)
    compared = 0
    for match in range(10):  # random matches until enough decisions (some end at once: a seat leaves)
        if compared >= 10:
            break
        compared += _compare_random_moves(game, hooks_of, match, compared)
    assert compared >= 10


def _compare_random_moves(game: Any, hooks_of: GameHooks, match: int, compared: int) -> int:
    seats = TableSeats()
    start = compared
    for event in random_match(game, random.Random(f"noise-{game.id}-{match}"), "t", max_commands=300):
        seats.apply(event.version, event.type, event.payload, event.metadata, event.schema_version)
        for seat in range(game.max_seats):
            view = folded_view("t", seats, seat, NOW_MS)
            if view is None or not any(d.seat == seat for d in view.decisions) or not view.any_legal:
                continue
            spelled_calls: list[int] = []

            def legal(view: Any = view, calls: list[int] = spelled_calls) -> list[msgspec.Struct]:
                calls.append(1)
                return cast(list[msgspec.Struct], view.legal)

            mine, theirs = random.Random(compared), random.Random(compared)
            assert view.moves is not None  # a view the bot rendered itself
            got = hooks_of.random_on_moves(view.view, view.moves, legal, mine)
            assert got == hooks_of.random(view.view, view.legal, theirs)
            assert mine.getstate() == theirs.getstate()
            # spelled out only for a game's own random player that cannot read descriptors
            assert bool(spelled_calls) == (hooks_of._random is not None and hooks_of._random_moves is None)
            compared += 1
    return compared - start
