"""A view in the shape its JSON decodes to.

Services hand a seat's view to whoever reads it as JSON gives it (string keys, lists, numbers,
strings, None): the match and the projection encode it, a bot decides on the decoded (or its own
rendering made so, `json_shaped`). A game whose `view` builds that shape already says so by
returning a `JsonView`, and nobody converts it again (a deep copy of the whole view on every bot
decision). The conformance kit checks that such a view equals its JSON round trip.

A part many views show unchanged (a board's squares with their rent cards, a shop's catalogue)
is a `SharedJson`: the game builds it once and hands the very same list to every view until what
it shows changes, and `encode_view` encodes it once for all of them (it was most of a
spectator frame's encoding: Пузиполия's squares are 25 of a view's 27 kB).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec


class JsonView(dict[str, Any]):
    """A view made JSON-shaped by its game: string keys and builtin values only, no tuples."""


def json_shaped(view: Any) -> Any:
    """`view` as its JSON decodes: itself when its game made it so (a `JsonView`)."""
    if type(view) is JsonView:
        return view
    return msgspec.to_builtins(view, str_keys=True)


class SharedJson(list[Any]):
    """A JSON-shaped list that many views hold as it is. Nobody changes it once made (a game
    makes a new one when what it shows changes; readers of a view only read): its JSON is
    encoded once, on first request, and reused (`encode_view`)."""

    __slots__ = ("_encoded",)

    def __init__(self, items: Iterable[Any] = ()) -> None:
        super().__init__(items)
        self._encoded: msgspec.Raw | None = None

    def __reduce__(self) -> tuple[type[list[Any]], tuple[list[Any]]]:
        # a copy is made to be changed: a plain list, which keeps no encoding to go stale
        return list, (list(self),)

    def encoded(self) -> msgspec.Raw:
        """This list's JSON, encoded the first time it is asked for."""
        if self._encoded is None:
            self._encoded = msgspec.Raw(msgspec.json.encode(self))
        return self._encoded


def encode_view(view: Any) -> bytes:
    """`msgspec.json.encode(view)`, the same bytes, with each `SharedJson` at the top of a
    `JsonView` encoded once for every view that holds it."""
    # (a view without a shared part pays one pass in C over its values' types)
    if type(view) is JsonView and SharedJson in map(type, view.values()):
        view = {key: part.encoded() if type(part) is SharedJson else part for key, part in view.items()}
    return msgspec.json.encode(view)
