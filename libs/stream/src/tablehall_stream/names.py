"""How a table's stream and its events are named.

A table's stream `table-{table_id}` holds lobby events (`lobby.*`, written by
the lobby), `match.Started`, the game's events (`<game>.<Tag>`) and
`match.Ended`. Every service reads these names from here.
"""

from __future__ import annotations

STREAM_PREFIX = "table-"
LOBBY_PREFIX = "lobby."
STARTED = "match.Started"
ENDED = "match.Ended"
# the bot service's identity (ServiceProvider.service_token("bot"))
BOT_SERVICE = "service:bot"


def stream_id(table_id: str) -> str:
    return f"{STREAM_PREFIX}{table_id}"


def table_of(stream: str) -> str | None:
    """The table id of a table's stream; None for any other stream (chat, ...)."""
    return stream[len(STREAM_PREFIX) :] if stream.startswith(STREAM_PREFIX) else None


def game_event_type(game_id: str, tag: str) -> str:
    return f"{game_id}.{tag}"


def split_type(event_type: str) -> tuple[str, str]:
    prefix, _, tag = event_type.partition(".")
    return prefix, tag
