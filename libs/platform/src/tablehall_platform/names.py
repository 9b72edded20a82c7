"""Resource names and JSON fields every service reads the same way."""

from __future__ import annotations

import json
import re
from typing import Any

from tablehall_platform.errors import BadRequest

# `tables/{id}`: 1-64 characters of a-z, 0-9 and '-', not starting with '-'
TABLE_NAME = re.compile(r"tables/([a-z0-9][a-z0-9-]{0,63})")  # use fullmatch: `$` passes a final newline


def parse_table(name: str) -> str:
    """The table id of a `tables/{id}` resource name; INVALID_TABLE_NAME otherwise."""
    found = TABLE_NAME.fullmatch(name)
    if not found:
        raise BadRequest(
            "INVALID_TABLE_NAME",
            "A table is named 'tables/{id}', id of [a-z0-9-], 1-64 chars.",
            ru="Стол называется 'tables/{id}'.",
        )
    return found.group(1)


def options_from_json(text: str) -> dict[str, Any]:
    """A request's `options_json`: an object (empty text: no options); INVALID_OPTIONS_JSON otherwise."""
    try:
        options = json.loads(text or "{}")
    except json.JSONDecodeError as exc:
        raise BadRequest(
            "INVALID_OPTIONS_JSON", f"options_json is not JSON: {exc}", ru="options_json — не JSON."
        ) from exc
    if not isinstance(options, dict):
        raise BadRequest("INVALID_OPTIONS_JSON", "options_json must be an object.", ru="Нужен объект JSON.")
    return options
