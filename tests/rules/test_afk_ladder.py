"""The shared AFK ladder of libs/rules."""

from __future__ import annotations

import msgspec

from tablehall_rules import AFK_CLOCK_MS, AfkLadder, PendingDecision


def turn(seat: int) -> PendingDecision:
    return PendingDecision(f"turn-{seat}", seat, "turn", "decision", 0, 30_000)


def test_a_missed_clock_puts_the_seat_on_short_clocks_until_it_acts() -> None:
    ladder = AfkLadder.for_seats(2)
    assert ladder.clock_ms(0, 30_000) == 30_000
    ladder.timed_out(turn(0))
    assert ladder.is_afk(0) and ladder.clock_ms(0, 30_000) == AFK_CLOCK_MS and ladder.strikes[0] == 1
    ladder.timed_out(turn(0))
    assert ladder.strikes[0] == 2 and ladder.clock_ms(1, 30_000) == 30_000
    ladder.acted(0)
    assert not ladder.is_afk(0) and ladder.strikes[0] == 0


def test_lost_presence_is_afk_at_once_and_coming_back_is_not_acting() -> None:
    ladder = AfkLadder.for_seats(2)
    ladder.presence(1, False)
    assert ladder.is_afk(1) and ladder.strikes[1] == 0
    ladder.presence(1, True)
    assert ladder.is_afk(1)


def test_a_reaction_window_or_an_uncounted_clock_is_no_strike() -> None:
    ladder = AfkLadder.for_seats(2)
    ladder.timed_out(PendingDecision("uno", 0, "uno", "reaction", 0, 0, reaction=True))
    ladder.timed_out(turn(0), counts=False)
    assert not ladder.is_afk(0) and ladder.strikes[0] == 0


def test_a_seat_handed_to_a_bot_plays_on_normal_clocks_and_is_its_players_again_when_taken_back() -> None:
    ladder = AfkLadder.for_seats(2)
    ladder.timed_out(turn(0))
    ladder.controller(0, True)
    assert ladder.clock_ms(0, 30_000) == 30_000 and ladder.by_bot[0]
    ladder.controller(0, False)
    assert not ladder.by_bot[0] and not ladder.is_afk(0) and ladder.strikes[0] == 0


def test_a_seat_a_bot_holds_from_the_start_is_never_away() -> None:
    ladder = AfkLadder.for_seats(3, bots=[1, 2])
    assert ladder.bots == [False, True, True]
    for seat in range(3):
        ladder.timed_out(turn(seat))
    ladder.presence(2, False)
    assert [ladder.is_afk(s) for s in range(3)] == [True, False, False]
    assert ladder.strikes == [1, 0, 0] and ladder.clock_ms(1, 30_000) == 30_000 and ladder.clock_ms(2, 30_000) == 30_000
    assert ladder.clock_ms(0, 30_000) == AFK_CLOCK_MS


def test_a_person_taking_over_a_bot_seat_makes_it_a_persons_seat() -> None:
    ladder = AfkLadder.for_seats(2, bots=[1])
    ladder.controller(1, False)
    ladder.timed_out(turn(1))
    assert ladder.is_afk(1) and ladder.clock_ms(1, 30_000) == AFK_CLOCK_MS


def test_a_ladder_stored_before_bots_existed_reads_as_every_seat_a_persons() -> None:
    stored = b'{"afk":[false,false],"strikes":[0,0],"by_bot":[false,false],"absent":[false,false]}'
    ladder = msgspec.json.decode(stored, type=AfkLadder)
    assert ladder.bots == [False, False]
    ladder.timed_out(turn(1))
    assert ladder.is_afk(1)
