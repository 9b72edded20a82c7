"""The projection's hooks: a journal entry for every event, live standings of every seat."""

from __future__ import annotations

import msgspec

from puzzipolia.game import GAME
from puzzipolia.simulate import play
from tablehall_rules.journal import JournalEntry


def test_every_event_has_a_journal_entry_and_standings_place_everyone() -> None:
    result = play(["bot", "random", "bot"], 11, options={"round_limit": 6})
    state = None
    for event in result.events:
        before = msgspec.json.encode(state) if state is not None else b""
        entries = GAME.journal(state, event)
        assert entries and all(isinstance(e, JournalEntry) and e.ru and e.en for e in entries)
        assert (msgspec.json.encode(state) if state is not None else b"") == before  # the hook only reads
        state = GAME.evolve(state, event)
        places = GAME.standings(state)
        assert sorted(s for place in places for s in place) == [0, 1, 2]


def test_the_deck_order_is_not_in_the_journal() -> None:
    result = play(["bot", "bot"], 12, options={"round_limit": 2})
    first = result.events[0]
    (entry,) = GAME.journal(None, first)
    assert "decks" not in entry.params
