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


# Numbers a game option may hold: JSON integers within int64 (jsonb, msgspec and the protos
# agree on them), finite floats. Longer digit strings are refused before Python converts them
# (a 5,000-digit integer is past Python's own limit and would answer INTERNAL).
_MAX_INT_DIGITS = 19
_INT64 = 2**63


class _OutOfRange(ValueError):
    pass


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > _MAX_INT_DIGITS or not -_INT64 <= (value := int(text)) < _INT64:
        raise _OutOfRange("an integer beyond 64 bits")
    return value


def _json_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _OutOfRange("a number beyond a float's range")
    return value


def _json_constant(name: str) -> Any:
    raise _OutOfRange(f"{name}, which is not JSON")


def options_from_json(text: str) -> dict[str, Any]:
    """A request's `options_json`: an object (empty text: no options); INVALID_OPTIONS_JSON otherwise."""
    try:
        options = json.loads(text or "{}", parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant)
    except _OutOfRange as exc:
        raise BadRequest(
            "INVALID_OPTIONS_JSON",
            f"options_json holds {exc}.",
            ru="options_json: число вне допустимого диапазона (целые — до 64 бит) или не JSON.",
        ) from exc
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        raise BadRequest(
            "INVALID_OPTIONS_JSON", f"options_json is not JSON: {exc}", ru="options_json — не JSON."
        ) from exc
    if not isinstance(options, dict):
        raise BadRequest("INVALID_OPTIONS_JSON", "options_json must be an object.", ru="Нужен объект JSON.")
    return options
