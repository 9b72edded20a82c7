"""Which games exist.

Product games are registered by package entry points in the group
`tablehall.games` (`puzzipolia = "puzzipolia.game:GAME"` in the game's
pyproject.toml), found on first use. Out-of-tree games (the platform's test
game) are added by TABLEHALL_EXTRA_GAMES ("id=module:attr,...") or
`register`.
"""

from __future__ import annotations

import importlib
import os
from importlib.metadata import entry_points
from typing import Any

from tablehall_rules.contract import Game
from tablehall_rules.errors import InvalidCommand

ENTRY_POINT_GROUP = "tablehall.games"

_loaded: dict[str, Game[Any]] = {}
_installed: dict[str, str] | None = None


def installed_games() -> dict[str, str]:
    """Game id -> "module:attribute", from the installed packages' entry points."""
    global _installed
    if _installed is None:
        _installed = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return dict(_installed)


def _targets() -> dict[str, str]:
    """Installed games plus TABLEHALL_EXTRA_GAMES ("id=module:attr,...")."""
    targets = installed_games()
    for item in os.environ.get("TABLEHALL_EXTRA_GAMES", "").split(","):
        if "=" in item:
            game_id, target = item.split("=", 1)
            targets[game_id.strip()] = target.strip()
    return targets


def game_module(game_id: str) -> str:
    """The package a game lives in (its proto codec is `<package>.proto_codec`)."""
    game = get_game(game_id)
    return str(type(game).__module__).rsplit(".", 1)[0]


def register(game: Game[Any]) -> None:
    _loaded[game.id] = game


def _load(target: str, game_id: str) -> Game[Any]:
    module_name, attr = target.split(":")
    game = getattr(importlib.import_module(module_name), attr)
    if not isinstance(game, Game) or game.id != game_id:
        raise TypeError(f"{target} is not the Game {game_id!r}")
    return game


def get_game(game_id: str) -> Game[Any]:
    """The Game for an id; `InvalidCommand(UNKNOWN_GAME)` when there is none."""
    game = _loaded.get(game_id)
    if game is not None:
        return game
    target = _targets().get(game_id)
    if target is None:
        raise InvalidCommand("UNKNOWN_GAME", f"There is no game {game_id!r}.", f"Игры {game_id!r} нет.")
    game = _load(target, game_id)
    _loaded[game_id] = game
    return game


def game_ids() -> list[str]:
    return sorted(set(_targets()) | set(_loaded))


def available_games() -> list[Game[Any]]:
    """Every registered game that loads (a registration whose package is missing is left out)."""
    games = []
    for game_id in game_ids():
        try:
            games.append(get_game(game_id))
        except (ImportError, TypeError, AttributeError):
            continue
    return games
