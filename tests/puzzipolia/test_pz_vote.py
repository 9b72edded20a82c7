"""Ending for all (■) by vote, and the other ways a match ends."""

from __future__ import annotations

from pz_helpers import deadline, given, kinds, of, owns, refused, started, then, when

from puzzipolia import commands as c
from puzzipolia.events import GameEnded, LotMortgaged, PresenceChanged, VoteFailed, VoteOpened
from puzzipolia.game import GAME
from puzzipolia.journal import entry


def opened(players: int = 3, bots: tuple[int, ...] = (), now: int = 1_000) -> object:
    state = given(table=started(players, bots=bots))
    return then(state, when(state, c.ProposeEnd(), 0, now=now))


def test_any_player_proposes_and_the_other_humans_vote() -> None:
    state = given(table=started(4, bots=(3,)))
    events = when(state, c.ProposeEnd(), 1)  # not only the player whose turn it is
    assert of(events, VoteOpened)[0].voters == [0, 2]
    state = then(state, events)
    assert {(d.seat, d.kind, d.clock_ms) for d in GAME.pending(state) if d.kind == "vote_answer"} == {
        (0, "vote_answer", 60_000),
        (2, "vote_answer", 60_000),
    }


def test_one_no_cancels_at_once() -> None:
    state = opened()
    events = when(state, c.VoteEnd(yes=False), 1)  # type: ignore[arg-type]
    assert kinds(events) == ["VoteAnswered", "VoteCancelled"]
    assert then(state, events).vote is None  # type: ignore[arg-type]


def test_everybody_yes_ends_the_game_with_places_by_net_worth() -> None:
    state = opened()
    state = then(state, when(state, c.VoteEnd(yes=True), 1))  # type: ignore[arg-type]
    assert state.phase != "over"  # the game goes on while the vote runs
    events = when(state, c.VoteEnd(yes=True), 2)
    assert of(events, GameEnded)[0].reason == "vote"
    assert GAME.outcome(then(state, events)) is not None


def test_time_up_absent_voters_do_not_hold_the_table() -> None:
    state = opened()
    state = then(state, when(state, c.VoteEnd(yes=True), 1))  # type: ignore[arg-type]
    state = then(state, when(state, c.SetPresence(seat=2, present=False), None))
    assert deadline(state, 2) == 61_000  # the match refuses its default move before
    events = when(state, c.CloseVote(), 2, now=61_000, timeout=True)
    assert "VotePassed" in kinds(events) and of(events, GameEnded)


def test_time_up_a_present_silent_voter_fails_the_vote() -> None:
    state = opened()
    state = then(state, when(state, c.VoteEnd(yes=True), 1))  # type: ignore[arg-type]
    events = when(state, c.CloseVote(), 2, now=61_000, timeout=True)
    assert of(events, VoteFailed)[0].silent == [2]
    assert not of(events, GameEnded)
    refused(state, c.CloseVote(), "CLOCK_DRIVEN_ONLY", 2, now=61_000)


def test_cooldown_3_min_for_the_same_proposer_30_s_for_another() -> None:
    state = opened(now=1_000)
    state = then(state, when(state, c.VoteEnd(yes=False), 1, now=2_000))  # type: ignore[arg-type]
    refused(state, c.ProposeEnd(), "VOTE_COOLDOWN", 0, now=181_999)
    assert of(when(state, c.ProposeEnd(), 0, now=182_000), VoteOpened)
    refused(state, c.ProposeEnd(), "VOTE_COOLDOWN", 1, now=31_999)
    assert of(when(state, c.ProposeEnd(), 1, now=32_000), VoteOpened)


def test_only_bots_besides_the_proposer_end_the_game_at_once() -> None:
    state = given(table=started(3, bots=(1, 2)))
    events = when(state, c.ProposeEnd(), 0)
    assert kinds(events) == ["VoteOpened", "VotePassed", "GameEnded"]


def test_bots_bankrupts_and_spectators_do_not_vote() -> None:
    state = given(table=started(3, bots=(2,)))
    refused(state, c.ProposeEnd(), "BOTS_DO_NOT_VOTE", 2)
    state = then(state, when(state, c.Leave(), 1))
    refused(state, c.ProposeEnd(), "NOT_IN_GAME", 1)


def test_the_host_proposes_with_a_system_command() -> None:
    state = given()
    refused(state, c.HostProposeEnd(), "SYSTEM_ONLY", 0)
    events = when(state, c.HostProposeEnd(), None)
    assert of(events, VoteOpened)[0].proposer is None and of(events, VoteOpened)[0].voters == [0, 1, 2]


def test_the_journal_says_who_proposed_and_who_answered_how() -> None:
    state = opened()
    events = when(state, c.VoteEnd(yes=False), 1)  # type: ignore[arg-type]
    lines = [entry(e, state).en for e in events]  # type: ignore[arg-type]
    assert lines == ["P1 answers ✗.", "The vote is cancelled: P1 said no."]
    first = given(table=started(3))
    line = entry(when(first, c.ProposeEnd(), 0)[0], first)
    assert line.ru == "P0 предлагает закончить игру для всех ■." and line.code == "VOTE_OPENED"


def test_last_player_standing_wins() -> None:
    state = given(table=started(2))
    events = when(state, c.Leave(), 1)
    assert of(events, GameEnded)[0].reason == "last_standing"
    assert GAME.outcome(then(state, events)).places == [[0], [1]]  # type: ignore[union-attr]


def test_leaving_returns_lots_to_the_bank_and_the_game_goes_on() -> None:
    state = given(*owns(1, 3, 5), LotMortgaged(seat=1, square=5, amount=0))
    state = then(state, when(state, c.Leave(), 1))
    assert state.owners[3] == -1 and state.owners[5] == -1 and not state.mortgaged[5]
    assert state.phase == "roll" and state.player(1).status == "left"


def test_leaving_in_debt_hands_lots_to_the_creditor() -> None:
    from puzzipolia.events import DebtOpened

    state = given(*owns(1, 3), DebtOpened(debt_id=1, debtor=1, creditor=2, amount=80, reason="rent", square=9))
    state = then(state, when(state, c.Leave(), 1))
    # the lots only: the money leaves the game with the player (see test_pz_debts)
    assert state.owners[3] == 2 and state.player(2).money == 1500


def test_the_operator_and_the_idle_clock_close_the_table() -> None:
    state = given(*owns(2, 39))
    refused(state, c.CloseTable(reason="operator"), "SYSTEM_ONLY", 0)
    ended = of(when(state, c.CloseTable(reason="operator"), None), GameEnded)[0]
    assert ended.reason == "operator" and ended.places == [[2], [0, 1]]
    assert of(when(state, c.CloseTable(reason="idle"), None), GameEnded)[0].reason == "idle"
    # the retired close commands of old streams and old clients close it so too
    assert when(state, c.OperatorClose(), None) == when(state, c.CloseTable(reason="operator"), None)
    assert when(state, c.IdleClose(), None) == when(state, c.CloseTable(reason="idle"), None)
    over = then(state, when(state, c.CloseTable(reason="idle"), None))
    refused(over, c.Roll(), "GAME_OVER")


def test_presence_is_a_system_command() -> None:
    state = given()
    events = when(state, c.SetPresence(seat=1, present=False), None)
    assert kinds(events) == ["PresenceChanged"]  # AFK at once: the ladder reads it
    assert then(state, events).is_away(1)
    refused(state, c.SetPresence(seat=1, present=False), "SYSTEM_ONLY", 1)
    back = then(state, events)
    assert of(when(back, c.SetPresence(seat=1, present=True), None), PresenceChanged)
    refused(state, c.Roll(), "SEAT_REQUIRED", None)
