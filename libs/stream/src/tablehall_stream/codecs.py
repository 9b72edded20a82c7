"""One codec per game for its events and one for its commands, built once."""

from __future__ import annotations

from typing import Any

from tablehall_rules import StructCodec
from tablehall_rules.registry import get_game

_events: dict[str, StructCodec[Any]] = {}
_commands: dict[str, StructCodec[Any]] = {}


def event_codec(game_id: str) -> StructCodec[Any]:
    codec = _events.get(game_id)
    if codec is None:
        game = get_game(game_id)
        codec = StructCodec(game.event_types, game.upcasters)
        _events[game_id] = codec
    return codec


def command_codec(game_id: str) -> StructCodec[Any]:
    codec = _commands.get(game_id)
    if codec is None:
        codec = StructCodec(get_game(game_id).command_types)
        _commands[game_id] = codec
    return codec
