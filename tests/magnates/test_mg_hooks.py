"""The view (everything is public), determinize (the view rebuilds the state), standings, the
journal lines in both languages, the proto codec, the bots and evaluate."""

from __future__ import annotations

import random

import msgspec
import pytest
from mg_helpers import cell

from magnates import commands as c
from magnates.bot import RESERVE, raid_worth, win_chance
from magnates.game import GAME
from magnates.journal import LINES
from magnates.proto_codec import COMMAND_MESSAGE, command_from_proto, command_to_proto
from magnates.state import Stop
from tablehall_rules import InvalidCommand, StructCodec, Viewer
from tablehall_rules import conformance as kit
from tablehall_rules.legal import expand_all
from tablehall_rules.table import CloseTable, RemovePlayer, SetController, SetPresence
from tablehall_rules.testing import Table


def played(seed: int = 3, seats: int = 3) -> kit.Played:
    _, record = kit.play_random_game(GAME, {"round_limit": 10}, seats, random.Random(seed))
    return record


def test_every_viewer_sees_the_same_view() -> None:
    state = Table(GAME, 3).state
    views = [GAME.view(state, v) for v in (Viewer.of_seat(0), Viewer.of_seat(2), Viewer.spectator(), Viewer.auditor())]
    assert all(v == views[0] for v in views)
    assert len(views[0]["companies"]) == 32 and views[0]["players"][0]["net_worth"] == 10000


def test_determinize_rebuilds_the_state_from_a_view() -> None:
    record = played()
    for _, snapshot in record.checkpoints[::25]:
        state = msgspec.json.decode(snapshot, type=GAME.state_type)
        rebuilt = GAME.determinize(GAME.view(state, Viewer.of_seat(1)), 1, random.Random(0))
        assert GAME.view(rebuilt, Viewer.of_seat(1)) == GAME.view(state, Viewer.of_seat(1))
        assert rebuilt.players == state.players and rebuilt.owner == state.owner


def test_every_journal_line_has_russian_and_english() -> None:
    record = played()
    state = None
    keys = set()
    for event in record.events:
        for entry in GAME.journal(state, event):
            assert entry.ru and entry.en, entry.code
            keys.add(entry.code)
        state = GAME.evolve(state, event)
    assert {"DICE_ROLLED", "KING_MOVED", "PAID", "FINISHED"} <= keys
    assert LINES.missing(GAME.event_types) == [], "every event has a line or is declared silent"


def test_the_proto_codec_round_trips_every_command() -> None:
    commands = [
        c.Roll(),
        c.BuyCompany(),
        c.Upgrade(cell=11),
        c.ArbitrageBuy(cell=34),
        c.BuyPiece(piece="queen", office=14),
        c.AttackKing(),
        c.EndStop(),
        c.MovePiece(piece="knight", to=45),
        c.PassMove(),
        c.PayFine(),
        c.Raid(),
        SetPresence(seat=1, present=False),
        SetController(seat=2, by_bot=True),
        RemovePlayer(seat=3),
        CloseTable(reason="idle"),
    ]
    assert {type(x) for x in commands} == set(GAME.command_types)
    for command in commands:
        wire = command_to_proto(command).SerializeToString()
        assert command_from_proto(COMMAND_MESSAGE.FromString(wire)) == command


def test_the_proto_codec_refuses_an_empty_command_or_a_missing_piece() -> None:
    with pytest.raises(InvalidCommand):
        command_from_proto(COMMAND_MESSAGE())
    msg = COMMAND_MESSAGE()
    msg.move_piece.to = 45
    with pytest.raises(InvalidCommand):
        command_from_proto(msg)


def test_standings_rank_by_net_worth() -> None:
    state = Table(GAME, 3).state
    state.players[2].cash = 9000
    assert GAME.standings(state) == [[2], [0, 1]]


def test_evaluate_without_a_round_limit_is_the_share_of_live_net_worth() -> None:
    state = Table(GAME, 2).state
    assert GAME.evaluate(state, 0) == pytest.approx(0.5)
    state.players[0].cash = 15000
    assert GAME.evaluate(state, 0) == pytest.approx(20000 / 30000)


def test_the_bots_choose_legal_commands() -> None:
    codec = StructCodec(GAME.command_types)
    record = played(seed=5)
    rng = random.Random(1)
    for _, snapshot in record.checkpoints[::10]:
        state = msgspec.json.decode(snapshot, type=GAME.state_type)
        if state.phase == "over":
            continue
        seat = state.turn
        legal = expand_all(GAME.legal(state, seat, 0), codec)
        view = GAME.view(state, Viewer.of_seat(seat))
        for policy in (GAME.bot_policy, GAME.random_policy):
            assert policy(view, legal, rng) in legal


def test_the_easy_bot_rolls_and_buys_what_it_can_afford_with_a_reserve() -> None:
    table = Table(GAME)
    rng = random.Random(0)
    view = GAME.view(table.state, Viewer.of_seat(0))
    assert GAME.bot_policy(view, [c.Roll()], rng) == c.Roll()
    table.play(c.Roll(), dice=(3, 4))  # a4 for 320
    stop = table.state
    view = GAME.view(stop, Viewer.of_seat(0))
    assert GAME.bot_policy(view, [c.BuyCompany(), c.EndStop()], rng) == c.BuyCompany()
    stop.players[0].cash = 320 + RESERVE - 1
    view = GAME.view(stop, Viewer.of_seat(0))
    assert GAME.bot_policy(view, [c.BuyCompany(), c.EndStop()], rng) == c.EndStop()


def test_the_easy_bot_raids_when_the_raid_is_worth_more_than_the_fine() -> None:
    state = Table(GAME).state
    d4 = cell("d4")
    state.owner[d4] = 1
    state.phase, state.piece = "fine", "queen"
    state.stop = Stop(d4, by_king=False)
    rng = random.Random(0)
    assert GAME.bot_policy(GAME.view(state, Viewer.of_seat(0)), [c.PayFine(), c.Raid()], rng) == c.Raid()
    # a knight against level 3 wins 6 in 36: the raid's expected worth, against the fine's
    # (a won raid moves 800 + 3 upgrades of 400 from the owner to the raider: 2000 each way)
    assert raid_worth("knight", {"price": 800, "level": 3}) == pytest.approx(6 / 36 * 4000 - 30 / 36 * 1000)
    assert win_chance(1, 1) == pytest.approx(15 / 36) and win_chance(2, 0) == pytest.approx(26 / 36)


def test_the_easy_bot_risks_its_last_piece_only_for_much_more_and_buys_a_piece_back_first() -> None:
    state = Table(GAME).state
    d4 = cell("d4")
    state.owner[d4] = 1
    state.phase, state.piece = "fine", "rook"
    state.stop = Stop(d4, by_king=False)
    rng = random.Random(0)
    # with its army the rook raids (21 in 36 against level 0: 2 × 800 against 1000)...
    assert GAME.bot_policy(GAME.view(state, Viewer.of_seat(0)), [c.PayFine(), c.Raid()], rng) == c.Raid()
    # ...but not as the last piece: a lost raid would leave the King lone
    state.players[0].pieces = {"rook": d4}
    assert GAME.bot_policy(GAME.view(state, Viewer.of_seat(0)), [c.PayFine(), c.Raid()], rng) == c.PayFine()
    # a King about to be lone buys a piece back whatever the reserve
    shop = Table(GAME).state
    shop.players[0].pieces = {"rook": cell("d2")}
    shop.players[0].cash = 1000 + RESERVE - 1
    view = GAME.view(shop, Viewer.of_seat(0))
    buy = c.BuyPiece(piece="knight", office=cell("e2"))
    assert GAME.bot_policy(view, [buy, c.EndStop()], rng) == buy
    shop.players[0].pieces = {"rook": cell("d2"), "queen": cell("e2")}
    view = GAME.view(shop, Viewer.of_seat(0))
    assert GAME.bot_policy(view, [buy, c.EndStop()], rng) == c.EndStop()


def test_the_easy_bot_never_attacks_with_its_king_and_avoids_losing_duels() -> None:
    state = Table(GAME).state
    rng = random.Random(0)
    view = GAME.view(state, Viewer.of_seat(0))
    assert GAME.bot_policy(view, [c.AttackKing(), c.EndStop()], rng) == c.EndStop()
    state.players[1].pieces["queen"] = cell("e4")
    state.players[0].pieces["knight"] = cell("e2")
    view = GAME.view(state, Viewer.of_seat(0))
    # a knight against a queen wins 10 in 36: worse than standing still
    assert GAME.bot_policy(view, [c.MovePiece(piece="knight", to=cell("e4")), c.PassMove()], rng) == c.PassMove()


def test_the_game_is_registered_by_entry_point_with_every_hook() -> None:
    from tablehall_rules import Game, TableControl
    from tablehall_rules.bots import Determinizable, HasBotPolicy, HasEvaluation, HasRandomPolicy
    from tablehall_rules.journal import HasStandings, Journaled
    from tablehall_rules.registry import get_game, installed_games

    assert installed_games()["magnates"] == "magnates.game:GAME"
    game = get_game("magnates")
    assert game is GAME and isinstance(game, Game)
    hooks = (TableControl, Journaled, HasStandings, Determinizable, HasBotPolicy, HasRandomPolicy, HasEvaluation)
    assert all(isinstance(game, hook) for hook in hooks)
