"""Ending for all (■) by vote. The engine keeps the state machine; the timer keeps the clock.

Any player still in the game, or the host, proposes; every other human player
still in the game votes within 60 s; one ✗ cancels at once; all ✓ end the game.
When time is up, voters who are not at the table (absent or AFK) neither vote
nor hold it, but a present voter who did not answer fails the vote. After a
failed vote the same proposer waits 3 min and anybody else 30 s.
"""

from __future__ import annotations

from puzzipolia import commands as c
from puzzipolia.events import VoteAnswered, VoteCancelled, VoteFailed, VoteOpened, VotePassed
from puzzipolia.flow import Flow
from puzzipolia.rules.end import end_game
from puzzipolia.state import State
from tablehall_rules import illegal

VOTE_MS = 60_000
SAME_PROPOSER_WAIT_MS = 180_000
OTHER_PROPOSER_WAIT_MS = 30_000
HOST = -1

Problem = tuple[str, str, str]


def propose_problem(st: State, proposer: int | None, now_ms: int) -> Problem | None:
    if st.vote is not None:
        return ("VOTE_RUNNING", "A vote is already running.", "Голосование уже идёт.")
    if proposer is not None:
        p = st.player(proposer)
        if not p.is_playing:
            return (
                "NOT_IN_GAME",
                "Only players still in the game may propose.",
                "Предложить может только игрок в игре.",
            )
        if st.played_by_bot(proposer):
            return ("BOTS_DO_NOT_VOTE", "Bots do not propose or vote.", "Боты не предлагают и не голосуют.")
    if st.vote_fail_proposer != -2:
        who = HOST if proposer is None else proposer
        wait = SAME_PROPOSER_WAIT_MS if who == st.vote_fail_proposer else OTHER_PROPOSER_WAIT_MS
        if now_ms < st.vote_fail_at_ms + wait:
            return (
                "VOTE_COOLDOWN",
                "Too soon after a failed vote.",
                "Слишком рано после неудачного голосования.",
            )
    return None


def voters_for(st: State, proposer: int | None) -> list[int]:
    return [p.seat for p in st.players if p.is_playing and not st.played_by_bot(p.seat) and p.seat != proposer]


def open_vote(f: Flow, proposer: int | None) -> None:
    st = f.state
    problem = propose_problem(st, proposer, f.now_ms)
    if problem:
        raise illegal(*problem)
    f.emit(VoteOpened(vote_id=st.next_vote_id, proposer=proposer, voters=voters_for(st, proposer)))
    pass_if_unanimous(f)


def propose_end(f: Flow, cmd: c.ProposeEnd, seat: int) -> None:
    open_vote(f, seat)


def host_propose_end(f: Flow, cmd: c.HostProposeEnd) -> None:
    st = f.state
    seat = cmd.host_seat
    if st.has_seat(seat) and st.player(seat).is_playing and not st.played_by_bot(seat):
        open_vote(f, seat)  # a host still in the game proposes as a player (and does not vote on it)
    else:
        open_vote(f, None)


def pass_if_unanimous(f: Flow) -> None:
    """With every voter's ✓ (or no voter at all: only bots besides the proposer) the game ends."""
    v = f.state.vote
    if v is not None and all(s in v.yes for s in v.voters):
        f.emit(VotePassed(vote_id=v.id))
        end_game(f, "vote")


def vote_end(f: Flow, cmd: c.VoteEnd, seat: int) -> None:
    v = f.state.vote
    if v is None:
        raise illegal("NO_VOTE", "No vote is running.", "Голосования нет.")
    if seat not in v.voters:
        raise illegal("NOT_A_VOTER", "You do not vote in this one.", "Ты в этом голосовании не участвуешь.")
    if seat in v.yes:
        raise illegal("ALREADY_VOTED", "You have already answered.", "Ты уже ответил.")
    f.emit(VoteAnswered(vote_id=v.id, seat=seat, yes=cmd.yes))
    if not cmd.yes:
        f.emit(VoteCancelled(vote_id=v.id, by=seat))
        return
    pass_if_unanimous(f)


def close_vote(f: Flow, cmd: c.CloseVote, seat: int) -> None:
    st = f.state
    v = st.vote
    if v is None:
        raise illegal("NO_VOTE", "No vote is running.", "Голосования нет.")
    silent = [s for s in v.voters if s not in v.yes and not st.afk.is_absent(s) and not st.afk.is_afk(s)]
    if silent:
        f.emit(VoteFailed(vote_id=v.id, silent=silent))
    else:
        f.emit(VotePassed(vote_id=v.id))
        end_game(f, "vote")
