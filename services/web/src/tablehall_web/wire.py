"""The SDK's models as the page's JSON, and the page's JSON as SDK calls' arguments.

One shape for everything the page reads: dataclasses become objects, enums their value,
tuples lists. Errors keep the server's reason and both texts, so the page shows the refusal
exactly as a gRPC client would.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from typing import Any

from tablehall_sdk import InvalidArgument, TablehallError

# how each gRPC status is answered over HTTP (the body always carries the gRPC code and reason)
HTTP_STATUS: dict[str, int] = {
    "INVALID_ARGUMENT": 400,
    "UNAUTHENTICATED": 401,
    "PERMISSION_DENIED": 403,
    "NOT_FOUND": 404,
    "ALREADY_EXISTS": 409,
    "FAILED_PRECONDITION": 409,
    "ABORTED": 409,
    "RESOURCE_EXHAUSTED": 429,
    "UNAVAILABLE": 503,
    "DEADLINE_EXCEEDED": 504,
}


def plain(value: Any) -> Any:
    """`value` as JSON-ready builtins."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def error_body(error: TablehallError) -> dict[str, Any]:
    return {
        "error": {
            "code": error.code,
            "reason": error.reason,
            "message": error.message,
            "messages": dict(error.messages),
            "metadata": dict(error.metadata),
        }
    }


def http_status(error: TablehallError) -> int:
    return HTTP_STATUS.get(error.code, 502)


def bad_request(what: str, ru: str) -> InvalidArgument:
    """The page sent something the web front cannot pass on (not JSON, a field of the wrong type)."""
    return InvalidArgument("BAD_WEB_REQUEST", what, messages={"en": what, "ru": ru})


def field(body: Mapping[str, Any], name: str, kind: type, default: Any = None) -> Any:
    """`body[name]` of type `kind` (bool is no int here), else `default` when absent."""
    value = body.get(name, default)
    if value is None and default is None and name not in body:
        return None
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise bad_request(f"the field {name!r} must be {kind.__name__}", f"поле {name!r} должно быть {kind.__name__}")
    return value
