"""A view in the shape its JSON decodes to.

Services hand a seat's view to whoever reads it as JSON gives it (string keys, lists, numbers,
strings, None): the match and the projection encode it, a bot decides on the decoded (or its own
rendering made so, `json_shaped`). A game whose `view` builds that shape already says so by
returning a `JsonView`, and nobody converts it again (a deep copy of the whole view on every bot
decision). The conformance kit checks that such a view equals its JSON round trip.
"""

from __future__ import annotations

from typing import Any

import msgspec


class JsonView(dict[str, Any]):
    """A view made JSON-shaped by its game: string keys and builtin values only, no tuples."""


def json_shaped(view: Any) -> Any:
    """`view` as its JSON decodes: itself when its game made it so (a `JsonView`)."""
    if type(view) is JsonView:
        return view
    return msgspec.to_builtins(view, str_keys=True)
