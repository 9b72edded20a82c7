"""Typed errors: every refusal of the server as one exception class per gRPC status.

Each carries the stable machine-readable `reason` (google.rpc.ErrorInfo, UPPER_SNAKE), the
server's messages by language (google.rpc.LocalizedMessage, "en" and "ru") and the ErrorInfo
metadata (e.g. `retry_after_seconds`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType


class TablehallError(Exception):
    """A call the server refused or could not answer."""

    code = "UNKNOWN"

    def __init__(
        self,
        reason: str,
        message: str,
        messages: Mapping[str, str] | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{self.code} {reason}: {message}")
        self.reason = reason
        self.message = message
        self.messages: Mapping[str, str] = MappingProxyType(dict(messages or {}))
        self.metadata: Mapping[str, str] = MappingProxyType(dict(metadata or {}))

    def text(self, lang: str = "en") -> str:
        """The message in `lang` (en, ru), else English, else the status details."""
        return self.messages.get(lang) or self.messages.get("en") or self.message


class InvalidArgument(TablehallError):
    code = "INVALID_ARGUMENT"


class FailedPrecondition(TablehallError):
    code = "FAILED_PRECONDITION"


class PermissionDenied(TablehallError):
    code = "PERMISSION_DENIED"


class NotFound(TablehallError):
    code = "NOT_FOUND"


class AlreadyExists(TablehallError):
    code = "ALREADY_EXISTS"


class Unauthenticated(TablehallError):
    code = "UNAUTHENTICATED"


class ResourceExhausted(TablehallError):
    code = "RESOURCE_EXHAUSTED"


class Aborted(TablehallError):
    """The table changed under the call (optimistic concurrency); the SDK retries these."""

    code = "ABORTED"


class Unavailable(TablehallError):
    """The server could not be reached or asked to retry; the SDK retries these."""

    code = "UNAVAILABLE"


class DeadlineExceeded(TablehallError):
    code = "DEADLINE_EXCEEDED"


class ServerError(TablehallError):
    """Any other status (INTERNAL, UNKNOWN, CANCELLED...)."""


BY_CODE: dict[str, type[TablehallError]] = {
    cls.code: cls
    for cls in (
        InvalidArgument,
        FailedPrecondition,
        PermissionDenied,
        NotFound,
        AlreadyExists,
        Unauthenticated,
        ResourceExhausted,
        Aborted,
        Unavailable,
        DeadlineExceeded,
    )
}

RETRYABLE: tuple[type[TablehallError], ...] = (Unavailable, Aborted)


def error_for(
    code: str,
    reason: str,
    message: str,
    messages: Mapping[str, str] | None = None,
    metadata: Mapping[str, str] | None = None,
) -> TablehallError:
    """The typed error of a status code name (e.g. "FAILED_PRECONDITION")."""
    cls = BY_CODE.get(code, ServerError)
    error = cls(reason or code, message, messages, metadata)
    if cls is ServerError:
        error.code = code
    return error
