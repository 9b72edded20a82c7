"""Место игрока — боту: a bot plays an absent player's seat on, and the player takes it back."""

from __future__ import annotations

from pz_helpers import given, kinds, of, refused, started, then, when

from puzzipolia import commands as c
from puzzipolia.events import ControllerChanged, VoteOpened
from puzzipolia.game import GAME
from puzzipolia.journal import entry


def test_a_handed_over_seat_keeps_its_money_and_neither_proposes_nor_votes() -> None:
    state = given(table=started(3))
    money_before = state.player(2).money
    events = when(state, c.SetController(seat=2, by_bot=True), None)
    assert of(events, ControllerChanged) == [ControllerChanged(seat=2, by_bot=True, at_ms=events[0].at_ms)]
    state = then(state, events)
    assert state.player(2).money == money_before and state.played_by_bot(2)
    assert of(when(state, c.ProposeEnd(), 0), VoteOpened)[0].voters == [1]
    refused(state, c.ProposeEnd(), "BOTS_DO_NOT_VOTE", 2)


def test_the_player_reclaims_the_seat_and_votes_again() -> None:
    state = given(table=started(3))
    state = then(state, when(state, c.SetController(seat=2, by_bot=True), None))
    state = then(state, when(state, c.SetController(seat=2, by_bot=False), None))
    assert not state.played_by_bot(2)
    assert of(when(state, c.ProposeEnd(), 0), VoteOpened)[0].voters == [1, 2]


def test_only_the_table_hands_seats_over() -> None:
    state = given(table=started(3, bots=(1,)))
    refused(state, c.SetController(seat=2, by_bot=True), "SYSTEM_ONLY", 0)
    refused(state, c.SetController(seat=9, by_bot=True), "NO_SUCH_SEAT", None)
    assert when(state, c.SetController(seat=2, by_bot=False), None) == []  # already its player's
    assert when(state, c.SetController(seat=1, by_bot=True), None) == []  # a bot's seat has its bot


def test_a_person_who_takes_a_bots_seat_holds_it_as_a_persons_seat() -> None:
    """«Места ботов — зрителям»: from then on the seat votes and counts as a person's."""
    state = given(table=started(3, bots=(1, 2)))
    assert of(when(state, c.ProposeEnd(), 0), VoteOpened)[0].voters == []  # only bots: ■ ends at once
    events = when(state, c.SetController(seat=1, by_bot=False), None)
    assert of(events, ControllerChanged) == [ControllerChanged(seat=1, by_bot=False, at_ms=events[0].at_ms)]
    line = entry(events[0], state)
    assert "занял игрок" in line.ru and "person took" in line.en
    state = then(state, events)
    assert not state.player(1).is_bot and not state.played_by_bot(1)
    assert of(when(state, c.ProposeEnd(), 0), VoteOpened)[0].voters == [1]
    assert of(when(state, c.ProposeEnd(), 1), VoteOpened)[0].voters == [0]


def test_the_journal_says_who_plays_the_seat() -> None:
    state = given(table=started(3))
    (event,) = when(state, c.SetController(seat=2, by_bot=True), None)
    line = entry(event, state)
    assert "бот" in line.ru and "bot" in line.en


def test_the_platforms_table_actions_map_to_system_commands() -> None:
    assert GAME.presence_command(1, False) == c.SetPresence(seat=1, present=False)
    assert GAME.controller_command(1, True) == c.SetController(seat=1, by_bot=True)
    assert GAME.close_command("idle") == c.CloseTable(reason="idle")
    assert GAME.close_command("operator") == c.CloseTable(reason="operator")
    assert kinds([]) == []


def test_a_removed_player_leaves_the_game_and_their_lots_go_back_to_the_bank() -> None:
    from pz_helpers import owns

    from puzzipolia.events import PlayerEliminated

    state = given(*owns(2, 1, 3), table=started(3))
    events = when(state, c.RemovePlayer(seat=2), None)
    (gone,) = of(events, PlayerEliminated)
    assert gone.seat == 2 and gone.reason == "removed"
    state = then(state, events)
    assert state.owners[1] == -1 and state.owners[3] == -1  # -1: the bank
    assert not state.player(2).is_playing
    refused(state, c.RemovePlayer(seat=2), "NOT_IN_GAME", None)
    refused(state, c.RemovePlayer(seat=1), "SYSTEM_ONLY", 0)
    assert GAME.remove_command(1) == c.RemovePlayer(seat=1)


def test_a_hand_over_keeps_the_afk_mark_until_the_seat_acts() -> None:
    """Пузиполия's rule on the ladder: the bot playing for an away player keeps its 2-s clocks
    until the seat's first own move (its recorded streams hold it so)."""
    state = given(table=started(3))
    state = then(state, when(state, c.SetPresence(seat=0, present=False), None))
    state = then(state, when(state, c.SetController(seat=0, by_bot=True), None))
    assert state.is_away(0) and state.played_by_bot(0)
    assert GAME.pending(state)[0].clock_ms == 2_000
    events = when(state, c.Roll(), 0, dice=[1, 2])
    assert kinds(events)[0] == "BackFromAfk"
    state = then(state, events)
    assert not state.is_away(0) and GAME.pending(state)[0].clock_ms == 30_000
    # taken back, the seat is its player's again, with the mark as it was
    state = then(state, when(state, c.SetController(seat=0, by_bot=False), None))
    assert not state.played_by_bot(0) and not state.is_away(0)


def test_a_snapshot_from_before_the_ladder_reads_into_it() -> None:
    import msgspec

    from puzzipolia.state import State

    state = given(table=started(3))
    stored = msgspec.to_builtins(state)
    del stored["afk"]  # the ladder did not exist: the marks were the players'
    stored["players"][1].update(afk=True, absent=True, bot_controlled=True)
    old = msgspec.convert(stored, State)
    assert old.afk.afk == [False, True, False] and old.afk.absent == [False, True, False]
    assert old.afk.by_bot == [False, True, False] and old.played_by_bot(1)
    assert msgspec.to_builtins(old)["players"][1]["afk"] is False  # written back, the ladder holds the mark
