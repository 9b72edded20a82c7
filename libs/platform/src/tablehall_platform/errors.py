"""The one mapping from our error types to gRPC statuses (AIP-193).

Every refusal carries a `google.rpc.Status` with exactly one `ErrorInfo`
(domain "tablehall", a stable UPPER_SNAKE reason) and, for rule errors, a
`LocalizedMessage` per language. Never a blanket INTERNAL for a known error.
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2
from grpc_status import rpc_status

from tablehall_rules.errors import IllegalCommand, InvalidCommand, InvalidOptions, RuleError

DOMAIN = "tablehall"


class ServiceError(Exception):
    """An error a service raises; `code` is the gRPC status it maps to."""

    code: grpc.StatusCode = grpc.StatusCode.FAILED_PRECONDITION

    def __init__(
        self,
        reason: str,
        message: str,
        *,
        ru: str | None = None,
        metadata: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message
        self.ru = ru
        self.metadata = dict(metadata or {})


class BadRequest(ServiceError):
    code = grpc.StatusCode.INVALID_ARGUMENT


class Refused(ServiceError):
    code = grpc.StatusCode.FAILED_PRECONDITION


class NotFound(ServiceError):
    code = grpc.StatusCode.NOT_FOUND


class PermissionDenied(ServiceError):
    code = grpc.StatusCode.PERMISSION_DENIED


class Unauthenticated(ServiceError):
    code = grpc.StatusCode.UNAUTHENTICATED


class Conflict(ServiceError):
    code = grpc.StatusCode.ABORTED


class AlreadyExists(ServiceError):
    code = grpc.StatusCode.ALREADY_EXISTS


class Unavailable(ServiceError):
    code = grpc.StatusCode.UNAVAILABLE


class ResourceExhausted(ServiceError):
    """A limit was reached (streams per user, a slow reader's queue...)."""

    code = grpc.StatusCode.RESOURCE_EXHAUSTED


class Internal(ServiceError):
    """An unexpected failure, answered without its text (the guard logs it)."""

    code = grpc.StatusCode.INTERNAL


class Relayed(ServiceError):
    """A refusal from another instance (a table's writer), passed on unchanged."""

    def __init__(self, status: status_pb2.Status) -> None:
        info = status_error_info(status)
        super().__init__(info.reason if info else "RELAYED", status.message)
        self.status = status
        self.code = next((c for c in grpc.StatusCode if c.value[0] == status.code), grpc.StatusCode.UNKNOWN)

    @classmethod
    def from_call(cls, error: grpc.RpcError) -> Relayed:
        status = rpc_status.from_call(error)
        if status is None:  # a plain status without details
            status = status_pb2.Status(code=error.code().value[0], message=error.details() or "")
        return cls(status)


def from_rule_error(error: RuleError) -> ServiceError:
    kind: type[ServiceError]
    if isinstance(error, InvalidCommand | InvalidOptions):
        kind = BadRequest
    elif isinstance(error, IllegalCommand):
        kind = Refused
    else:
        kind = Refused
    return kind(error.reason, error.message_en, ru=error.message_ru, metadata=error.details)


def as_refusal(error: RuleError | ServiceError) -> ServiceError:
    """A rule's refusal or a service's, as the service error it is answered with."""
    return from_rule_error(error) if isinstance(error, RuleError) else error


def status_proto(error: ServiceError) -> status_pb2.Status:
    """The google.rpc.Status of an error: code, message, ErrorInfo, LocalizedMessage en/ru."""
    if isinstance(error, Relayed):
        return error.status
    info = error_details_pb2.ErrorInfo(reason=error.reason, domain=DOMAIN, metadata=error.metadata)
    details = [any_pb2.Any()]
    details[0].Pack(info)
    for locale, text in (("en", error.message), ("ru", error.ru)):
        if text:
            packed = any_pb2.Any()
            packed.Pack(error_details_pb2.LocalizedMessage(locale=locale, message=text))
            details.append(packed)
    code_value = error.code.value[0]
    assert code_pb2.Code.Name(code_value)  # a real google.rpc code
    return status_pb2.Status(code=code_value, message=error.message, details=details)


def to_status(error: ServiceError) -> grpc.Status:
    return rpc_status.to_status(status_proto(error))


def status_error_info(status: status_pb2.Status) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo among a status's details."""
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            return info
    return None


def error_info(error: grpc.RpcError) -> error_details_pb2.ErrorInfo | None:
    """The ErrorInfo of a received error (for clients and tests)."""
    status = rpc_status.from_call(error)
    return None if status is None else status_error_info(status)
