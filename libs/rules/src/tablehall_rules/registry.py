"""Which games exist. Product games are found by module path on first use;
tests may register more (the platform's test game does)."""

from __future__ import annotations

import importlib
from typing import Any

from tablehall_rules.errors import InvalidCommand

# game id -> "module:attribute" of its Game instance
KNOWN_GAMES: dict[str, str] = {
    "puzzipolia": "puzzipolia.game:GAME",
}

_loaded: dict[str, Any] = {}


def register(game: Any) -> None:
    _loaded[game.id] = game


def get_game(game_id: str) -> Any:
    """The Game for an id; `InvalidCommand(UNKNOWN_GAME)` when there is none."""
    if game_id in _loaded:
        return _loaded[game_id]
    target = KNOWN_GAMES.get(game_id)
    if target is None:
        raise InvalidCommand(
            "UNKNOWN_GAME", f"There is no game {game_id!r}.", f"Игры {game_id!r} нет."
        )
    module_name, attr = target.split(":")
    game = getattr(importlib.import_module(module_name), attr)
    _loaded[game_id] = game
    return game


def game_ids() -> list[str]:
    return sorted(set(KNOWN_GAMES) | set(_loaded))
