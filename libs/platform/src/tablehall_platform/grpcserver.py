"""A gRPC server with what every Tablehall service needs.

Authentication on every call (health and reflection excepted), our errors
mapped to rich statuses in one place, health checking and server reflection.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import sys
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any

import asyncpg
import grpc
import structlog
from google.protobuf.message import Message
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from tablehall_platform.auth import Authenticator, Principal, current_principal
from tablehall_platform.errors import BadRequest, Internal, ServiceError, Unavailable, as_refusal, to_status
from tablehall_platform.input_policy import InputLimits, check_request
from tablehall_platform.reflection import enable_reflection
from tablehall_platform.request_digest import current_request
from tablehall_platform.stream_gate import StreamGate, StreamLimits
from tablehall_rules.errors import RuleError

log = structlog.get_logger("grpc")

OPEN_PREFIXES = ("/grpc.health.v1.", "/grpc.reflection.")
# the largest request a server accepts (TABLEHALL_MAX_MESSAGE_BYTES): gRPC refuses
# a bigger one with RESOURCE_EXHAUSTED before it is read into memory
MAX_MESSAGE_BYTES = int(os.environ.get("TABLEHALL_MAX_MESSAGE_BYTES", str(4 * 1024 * 1024)))
# Calls that arrived and wait for the server to take them (TABLEHALL_MAX_PENDING_CALLS).
# gRPC's own default (1,000, hard 3,000) cancels calls of a burst before any handler
# sees them (2,000 WatchTable opens at once: about 200 CANCELLED): ours answers a
# burst, and past our limits a call gets RESOURCE_EXHAUSTED with a reason instead.
MAX_PENDING_CALLS = int(os.environ.get("TABLEHALL_MAX_PENDING_CALLS", "20000"))
# How long such a call may wait to be taken (TABLEHALL_MAX_PENDING_SECONDS). gRPC's own 30 s
# cancelled a sixth of 5,000 WatchTable opens at once on a busy projection (CANCELLED, no
# reason, the handler never ran): a call now waits its turn, and a client that would rather
# not wait sets its deadline.
MAX_PENDING_SECONDS = int(os.environ.get("TABLEHALL_MAX_PENDING_SECONDS", "600"))
# An address several processes serve together (TABLEHALL_SHARED_ADDRESS, e.g. two match
# instances on one machine, each a Python thread of its own): each process listens there as
# well as on its own address (the one it advertises, for forwarding), with SO_REUSEPORT, and
# the kernel spreads the clients' connections over them. Empty: the own address only, and a
# port already taken is an error.
SHARED_ADDRESS = os.environ.get("TABLEHALL_SHARED_ADDRESS", "")


class _Guard(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Authenticates the caller and turns our errors into statuses.

    The wrapped handler of each method is built once and reused: the caller's
    token is read inside the call, so nothing per call is allocated here.
    """

    def __init__(
        self,
        authenticator: Authenticator,
        open_methods: Iterable[str] = (),
        limits: InputLimits | None = None,
        streams: StreamLimits | None = None,
    ) -> None:
        self.authenticator = authenticator
        self.open_methods = frozenset(open_methods)
        self.limits = limits or InputLimits()
        self.streams = StreamGate(streams or StreamLimits())
        self._wrapped: dict[str, grpc.RpcMethodHandler] = {}

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        method = details.method
        wrapped = self._wrapped.get(method)
        if wrapped is not None:
            return wrapped
        handler = await continuation(details)
        if handler is None or method.startswith(OPEN_PREFIXES):
            return handler
        wrapped = _wrap(
            handler,
            self.authenticator,
            method in self.open_methods,
            method=method,
            limits=self.limits,
            streams=self.streams,
        )
        self._wrapped[method] = wrapped
        return wrapped


def _authorization(context: grpc.aio.ServicerContext) -> str | None:
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            return value if isinstance(value, str) else value.decode()
    return None


async def _abort(context: grpc.aio.ServicerContext, error: ServiceError) -> None:
    await context.abort_with_status(to_status(error))


class _Undecodable:
    """What the guard's deserializer hands on for bytes that are no valid request."""

    __slots__ = ("error",)

    def __init__(self, error: str) -> None:
        self.error = error


def _safe_deserializer(deserialize: Callable[[bytes], Any] | None) -> Callable[[bytes], Any] | None:
    if deserialize is None:
        return None

    def parse(data: bytes) -> Any:
        try:
            return deserialize(data)
        except Exception as exc:  # corrupt protobuf, invalid UTF-8 in a string field
            return _Undecodable(type(exc).__name__)

    return parse


def _checked(request: Any, limits: InputLimits) -> Any:
    if isinstance(request, _Undecodable):
        raise _malformed()
    if isinstance(request, Message):
        check_request(request, limits)
    return request


async def _decoded_stream(requests: AsyncIterator[Any]) -> AsyncIterator[Any]:
    """A client stream's messages; undecodable bytes end the stream (MALFORMED_REQUEST).

    The policy's other checks are the servicer's, per message (`check_request`),
    so that a refused command is answered in the stream and the stream goes on.
    """
    async for request in requests:
        if isinstance(request, _Undecodable):
            raise _malformed()
        yield request


def _malformed() -> BadRequest:
    return BadRequest(
        "MALFORMED_REQUEST",
        "The request is not a valid protobuf message of this method (corrupt bytes or invalid UTF-8).",
        ru="Запрос повреждён (неверный protobuf или UTF-8).",
    )


# Before a client stream ends with an error, what the client already sent is read
# (at most this many messages, for at most this long): a status sent over unread
# messages reaches the client as a reset stream (INTERNAL from its own gRPC core).
DRAIN_MESSAGES = 256
DRAIN_SECONDS = 1.0


async def _end(context: grpc.aio.ServicerContext, error: ServiceError, requests: AsyncIterator[Any] | None) -> None:
    if requests is not None:

        async def drain() -> None:
            count = 0
            async for _ in requests:
                count += 1
                if count >= DRAIN_MESSAGES:
                    return

        with contextlib.suppress(Exception):
            await asyncio.wait_for(drain(), DRAIN_SECONDS)
    await _abort(context, error)


# The database or a peer could not be reached (PostgreSQL restarting, a connection lost): the
# call may be retried as it is (a command keeps its request id, so it never applies twice).
_UNREACHABLE = (
    OSError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.OperatorInterventionError,
)


def _internal(method: str) -> ServiceError:
    """An unexpected error: logged with a correlation id, answered without its text; a
    database out of reach is UNAVAILABLE (retry), not INTERNAL."""
    exc = sys.exc_info()[1]
    if isinstance(exc, _UNREACHABLE):
        log.warning("database unreachable", method=method, error=repr(exc))
        return Unavailable(
            "DATABASE_UNAVAILABLE",
            "The database does not answer; retry shortly with the same request id.",
            ru="База данных не отвечает; повторите чуть позже с тем же request_id.",
        )
    correlation = uuid.uuid4().hex[:16]
    log.exception("unexpected error", method=method, correlation_id=correlation)
    return Internal(
        "INTERNAL",
        f"Internal error (correlation id {correlation}).",
        ru=f"Внутренняя ошибка (код {correlation}).",
        metadata={"correlation_id": correlation},
    )


def _wrap(
    handler: grpc.RpcMethodHandler,
    authenticator: Authenticator,
    is_open: bool = False,
    *,
    method: str = "",
    limits: InputLimits | None = None,
    streams: StreamGate | None = None,
) -> grpc.RpcMethodHandler:
    policy = limits or InputLimits()
    gate = streams or StreamGate(StreamLimits())

    def principal(context: grpc.aio.ServicerContext) -> Principal | None:
        # an open method (e.g. a development sign-in) runs without a caller
        return None if is_open else authenticator.authenticate(_authorization(context))

    def request_of(request: Any, client_streams: bool) -> Any:
        return _decoded_stream(request) if client_streams else _checked(request, policy)

    def unary(fn: Callable[..., Any], client_streams: bool) -> Callable[..., Any]:
        async def call(request: Any, context: grpc.aio.ServicerContext) -> Any:
            try:
                current_principal.set(principal(context))
                checked = request_of(request, client_streams)
                if not client_streams:
                    current_request.set((method, checked))
                return await fn(checked, context)
            except (RuleError, ServiceError) as exc:
                await _abort(context, as_refusal(exc))
            except grpc.aio.AbortError:
                raise
            except Exception:
                await _abort(context, _internal(method))

        return call

    def streaming(fn: Callable[..., Any], client_streams: bool) -> Callable[..., Any]:
        async def call(request: Any, context: grpc.aio.ServicerContext) -> Any:
            try:
                caller = principal(context)
                current_principal.set(caller)
                with gate.open(method, caller):
                    result = fn(request_of(request, client_streams), context)
                    if inspect.isasyncgen(result):
                        source = result if client_streams else gate.bounded(result)
                        async for item in source:
                            yield item
                    else:
                        await result
            except (RuleError, ServiceError) as exc:
                await _end(context, as_refusal(exc), request if client_streams else None)
            except grpc.aio.AbortError:
                raise
            except Exception:
                await _end(context, _internal(method), request if client_streams else None)

        return call

    decode = _safe_deserializer(handler.request_deserializer)
    if handler.unary_unary:
        return grpc.unary_unary_rpc_method_handler(
            unary(handler.unary_unary, False), decode, handler.response_serializer
        )
    if handler.stream_unary:
        return grpc.stream_unary_rpc_method_handler(
            unary(handler.stream_unary, True), decode, handler.response_serializer
        )
    if handler.unary_stream:
        return grpc.unary_stream_rpc_method_handler(
            streaming(handler.unary_stream, False), decode, handler.response_serializer
        )
    return grpc.stream_stream_rpc_method_handler(
        streaming(handler.stream_stream, True), decode, handler.response_serializer
    )


def build_server(
    authenticator: Authenticator,
    register: Iterable[Callable[[grpc.aio.Server], str]],
    address: str,
    open_methods: Iterable[str] = (),
    *,
    limits: InputLimits | None = None,
    streams: StreamLimits | None = None,
    shared_address: str = SHARED_ADDRESS,
) -> tuple[grpc.aio.Server, int, Any]:
    """A server on `address` with each `register(server) -> service full name`.

    `open_methods` (full method names, "/pkg.Service/Method") are served
    without a token; our errors are still mapped to statuses there. Every
    request passes the input policy (`limits`, default: the environment's)
    and every server stream the stream limits (`streams`).

    `shared_address` (TABLEHALL_SHARED_ADDRESS) is listened on too, shared with the
    other processes given the same (SO_REUSEPORT).

    Returns the server (not started), the bound port and the health servicer
    (call `enter_graceful_shutdown()` on it before stopping).
    """
    server = grpc.aio.server(
        interceptors=[_Guard(authenticator, open_methods, limits, streams)],
        options=[
            ("grpc.so_reuseport", 1 if shared_address else 0),
            ("grpc.max_receive_message_length", MAX_MESSAGE_BYTES),
            ("grpc.server.max_pending_requests", MAX_PENDING_CALLS),
            ("grpc.server.max_pending_requests_hard_limit", MAX_PENDING_CALLS * 3),
            ("grpc.server_max_unrequested_time_in_server", MAX_PENDING_SECONDS),
        ],
    )
    names = [fn(server) for fn in register]
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    for name in names:
        _set_serving(health_servicer, name)
    enable_reflection([*names, health.SERVICE_NAME], server)
    port = server.add_insecure_port(address)
    if port == 0:
        raise OSError(f"cannot listen on {address}")
    if shared_address and server.add_insecure_port(shared_address) == 0:
        raise OSError(f"cannot listen on the shared address {shared_address}")
    return server, port, health_servicer


def _set_serving(servicer: Any, name: str) -> None:
    # The aio servicer's `set` is a coroutine; before the server runs there is
    # no watcher to notify, so setting the status directly is enough.
    servicer._server_status[name] = health_pb2.HealthCheckResponse.SERVING
