"""The digest of the request being served, for idempotency checks.

The gRPC guard records each call's method and request here; a service that
records a command id with its events also records `request_digest()`, and
refuses the same id sent again with a different request (REQUEST_ID_REUSED)
instead of answering it as a duplicate of the first.
"""

from __future__ import annotations

import contextvars
import hashlib

from google.protobuf.message import Message

from tablehall_platform.errors import Refused

current_request: contextvars.ContextVar[tuple[str, Message] | None] = contextvars.ContextVar(
    "current_request", default=None
)


def request_digest() -> str | None:
    """sha256 of the method and the request's deterministic encoding (None outside a call)."""
    found = current_request.get()
    if found is None:
        return None
    method, request = found
    body = request.SerializeToString(deterministic=True)
    return hashlib.sha256(method.encode() + b"\n" + body).hexdigest()[:32]


def request_id_reused() -> Refused:
    return Refused(
        "REQUEST_ID_REUSED",
        "This request id was used for a different request; send a new request id.",
        ru="Этот request_id уже использован для другого запроса; пришлите новый.",
    )
