"""Which games exist. Product games are found by module path on first use;
tests may register more (the platform's test game does)."""

from __future__ import annotations

import importlib
import os
from typing import Any

from tablehall_rules.errors import InvalidCommand

# game id -> "module:attribute" of its Game instance
KNOWN_GAMES: dict[str, str] = {
    "puzzipolia": "puzzipolia.game:GAME",
}

_loaded: dict[str, Any] = {}


def _targets() -> dict[str, str]:
    """Known games plus TABLEHALL_EXTRA_GAMES ("id=module:attr,...", for tests)."""
    targets = dict(KNOWN_GAMES)
    for item in os.environ.get("TABLEHALL_EXTRA_GAMES", "").split(","):
        if "=" in item:
            game_id, target = item.split("=", 1)
            targets[game_id.strip()] = target.strip()
    return targets


def game_module(game_id: str) -> str:
    """The package a game lives in (its proto codec is `<package>.proto_codec`)."""
    game = get_game(game_id)
    return str(type(game).__module__).rsplit(".", 1)[0]


def register(game: Any) -> None:
    _loaded[game.id] = game


def get_game(game_id: str) -> Any:
    """The Game for an id; `InvalidCommand(UNKNOWN_GAME)` when there is none."""
    if game_id in _loaded:
        return _loaded[game_id]
    target = _targets().get(game_id)
    if target is None:
        raise InvalidCommand("UNKNOWN_GAME", f"There is no game {game_id!r}.", f"Игры {game_id!r} нет.")
    module_name, attr = target.split(":")
    game = getattr(importlib.import_module(module_name), attr)
    _loaded[game_id] = game
    return game


def game_ids() -> list[str]:
    return sorted(set(_targets()) | set(_loaded))
