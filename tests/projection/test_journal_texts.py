"""Every journal line of every game reads as a person writes: names, words, numbers.

Random games of each game (the game's own random player for half of them, clocks running
out, the platform's presence and controller actions now and then) are folded by the
projection exactly as it writes a table's journal; every line of every event type, in Russian
and in English, is checked: no Python or JSON literal (`[[4, 6, 2], [1, 3]]`, `[-22, 702]`,
None), no 0-based or unnamed seat ("Player 0": the seats have names), no internal identifier
(`round_limit`, `order_roll`, a game id), every sentence starting upper-case. The games must
between them reach every event type of each game (the few that random play cannot reach are
named below with why, and their lines are checked on an event of theirs written into a
mid-game state of those games).
"""

from __future__ import annotations

import random
import re
from collections import defaultdict
from functools import cache
from typing import Any

import pytest
from support.randomplay import existing_games, random_match

from tablehall_rules.registry import game_ids
from tablehall_stream.codecs import event_codec
from tablehall_stream.fold import TableFold

NAMES = ["Анна", "Boris", "Вера", "Gleb", "Дина", "Egor", "Жанна", "Zoya", "Ира", "Kim", "Лев", "Mila"]
GAMES = [g for g in existing_games() if g.id != "testgame"]
# (games, most commands per game): enough for every reachable event type, a few seconds a game
BUDGET = {"puzzipolia": (12, 2000), "magnates": (8, 2000), "dragons": (8, 2000), "homunculus": (8, 2000)}
# event types random play rarely reaches within the budget: (why, the fields of one such event)
UNREACHED: dict[str, dict[str, tuple[str, dict[str, Any]]]] = {
    "puzzipolia": {
        "StreetDealt": ("only boards of 9 or more players deal streets", {"seat": 1, "square": 1}),
        "FindPaid": ("a find is one square of 40 and pays only on landing", {"seat": 1, "square": 7, "amount": 50}),
        "VoteFailed": ("a vote fails only when a present voter stays silent", {"vote_id": 1, "silent": [1, 2]}),
        "AfkChanged": ("retired: only streams recorded before the AFK ladder hold it", {"seat": 1, "afk": True}),
    },
    "nim": {
        "Left": ("only a removal by the lobby puts a seat out; random play removes nobody", {"seat": 1}),
        "PresenceChanged": ("a short game rarely meets the 1 % of table actions", {"seat": 1, "present": False}),
    },
    "dragons": {"DieDiscarded": ("a die with no legal cell at all", {"seat": 1, "face": 4})},
    "homunculus": {
        "KingWounded": ("a king stepping on a mine", {"seat": 1, "cell": 40}),
        "KingHealed": ("medicine bought for a wounded king", {"seat": 1}),
        "MineCleared": ("a piece leaving its own side's mine", {"cell": 40}),
        "DebtForgiven": ("a debt larger than all a player can raise (rare in random play)", {"seat": 1, "amount": 7}),
    },
}

LITERAL = re.compile(r"\[\s*[-\d\['\"]|\{\s*['\"]|\b(None|True|False)\b|\(\s*\d+\s*,\s*\d+\s*\)")
UNNAMED_SEAT = re.compile(r"\b(Player|Игрок|Seat|Место|игрока)\s+#?\d")
SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
LATIN_WORD_IN_RUSSIAN = re.compile(r"(?<![A-Za-z])[a-z]{3,}\b")
SENTENCE_START = re.compile(r"(?:^|[.!?]\s+)[^\w«(\"']*([^\W\d_])")


@cache
def _lines(game_id: str) -> dict[str, list[tuple[str, str]]]:
    """Event type -> every (ru, en) line it wrote, over the budget's games (types without a line: [])."""
    game = next(g for g in GAMES if g.id == game_id)
    games, commands = BUDGET.get(game_id, (8, 2000))
    rng = random.Random(f"journal-texts-{game_id}")
    out: dict[str, list[tuple[str, str]]] = defaultdict(list)
    middle: Any = None
    for n in range(games):
        events = random_match(
            game,
            rng,
            f"t{n}",
            max_commands=commands,
            names=NAMES,
            policy=n % 2 == 0,
            timeout_rate=0.05,
            control_rate=0.01,
        )
        fold = TableFold(f"t{n}")
        for i, event in enumerate(events):
            lines = fold.apply(event, journal=True)
            out[event.type].extend((line.entry.ru, line.entry.en) for line in lines)
            if middle is None and i == len(events) // 2:
                middle = fold.state
    codec = event_codec(game_id)
    for name, (_why, fields) in UNREACHED.get(game_id, {}).items():
        entries = game.journal(middle, codec.by_name[name](**fields))
        out[f"sample:{name}"].extend((entry.ru, entry.en) for entry in entries)
    return out


def _problems(game_id: str, ru: str, en: str) -> list[str]:
    found = []
    internal = {*game_ids(), game_id}
    for lang, text in (("ru", ru), ("en", en)):
        if not text.strip():
            found.append(f"{lang}: an empty line")
            continue
        if LITERAL.search(text):
            found.append(f"{lang}: a Python/JSON literal")
        if UNNAMED_SEAT.search(text):
            found.append(f"{lang}: a seat by number, not by name")
        if SNAKE.search(text) or any(re.search(rf"\b{re.escape(i)}\b", text) for i in internal):
            found.append(f"{lang}: an internal identifier")
        for letter in SENTENCE_START.findall(text):
            if letter.islower():
                found.append(f"{lang}: a sentence starting lower-case ({letter!r})")
    hex_free = re.sub(r"\b[0-9a-f]{16,}\b", "", ru)  # the revealed seed is for auditors to copy
    if LATIN_WORD_IN_RUSSIAN.search(hex_free):
        found.append("ru: an untranslated code in the Russian line")
    return found


@pytest.mark.parametrize("game_id", [g.id for g in GAMES])
def test_every_journal_line_of_every_event_type_reads_as_a_person_writes(game_id: str) -> None:
    bad: dict[str, tuple[str, str, list[str]]] = {}
    for event_type, lines in _lines(game_id).items():
        for ru, en in lines:
            problems = _problems(game_id, ru, en)
            if problems and event_type not in bad:
                bad[event_type] = (ru, en, problems)
    assert bad == {}


@pytest.mark.parametrize("game_id", [g.id for g in GAMES])
def test_random_games_reach_every_event_type(game_id: str) -> None:
    reached = {t.split(".", 1)[1] for t in _lines(game_id) if t.startswith(f"{game_id}.")}
    every = set(event_codec(game_id).by_name)
    sampled = {t.split(":", 1)[1] for t in _lines(game_id) if t.startswith("sample:")}
    assert sorted(every - reached - sampled) == []
    platform = {t for t in _lines(game_id) if t.startswith("match.")}
    assert {"match.Started", "match.Ended"} <= platform
