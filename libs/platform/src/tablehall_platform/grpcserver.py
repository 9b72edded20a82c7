"""A gRPC server with what every Tablehall service needs.

Authentication on every call (health and reflection excepted), our errors
mapped to rich statuses in one place, health checking and server reflection.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from tablehall_platform.auth import Authenticator, Principal, current_principal
from tablehall_platform.errors import ServiceError, as_refusal, to_status
from tablehall_platform.reflection import enable_reflection
from tablehall_rules.errors import RuleError

log = structlog.get_logger("grpc")

OPEN_PREFIXES = ("/grpc.health.v1.", "/grpc.reflection.")


class _Guard(grpc.aio.ServerInterceptor):  # type: ignore[misc]
    """Authenticates the caller and turns our errors into statuses.

    The wrapped handler of each method is built once and reused: the caller's
    token is read inside the call, so nothing per call is allocated here.
    """

    def __init__(self, authenticator: Authenticator, open_methods: Iterable[str] = ()) -> None:
        self.authenticator = authenticator
        self.open_methods = frozenset(open_methods)
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
        wrapped = _wrap(handler, self.authenticator, method in self.open_methods)
        self._wrapped[method] = wrapped
        return wrapped


def _authorization(context: grpc.aio.ServicerContext) -> str | None:
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            return value if isinstance(value, str) else value.decode()
    return None


async def _abort(context: grpc.aio.ServicerContext, error: ServiceError) -> None:
    await context.abort_with_status(to_status(error))


def _wrap(handler: grpc.RpcMethodHandler, authenticator: Authenticator, is_open: bool = False) -> grpc.RpcMethodHandler:
    def principal(context: grpc.aio.ServicerContext) -> Principal | None:
        # an open method (e.g. a development sign-in) runs without a caller
        return None if is_open else authenticator.authenticate(_authorization(context))

    def unary(fn: Callable[..., Any]) -> Callable[..., Any]:
        async def call(request: Any, context: grpc.aio.ServicerContext) -> Any:
            try:
                current_principal.set(principal(context))
                return await fn(request, context)
            except (RuleError, ServiceError) as exc:
                await _abort(context, as_refusal(exc))

        return call

    def streaming(fn: Callable[..., Any]) -> Callable[..., Any]:
        async def call(request: Any, context: grpc.aio.ServicerContext) -> Any:
            try:
                current_principal.set(principal(context))
                result = fn(request, context)
                if inspect.isasyncgen(result):
                    async for item in result:
                        yield item
                else:
                    await result
            except (RuleError, ServiceError) as exc:
                await _abort(context, as_refusal(exc))

        return call

    if handler.unary_unary:
        return grpc.unary_unary_rpc_method_handler(
            unary(handler.unary_unary), handler.request_deserializer, handler.response_serializer
        )
    if handler.stream_unary:
        return grpc.stream_unary_rpc_method_handler(
            unary(handler.stream_unary), handler.request_deserializer, handler.response_serializer
        )
    if handler.unary_stream:
        return grpc.unary_stream_rpc_method_handler(
            streaming(handler.unary_stream), handler.request_deserializer, handler.response_serializer
        )
    return grpc.stream_stream_rpc_method_handler(
        streaming(handler.stream_stream), handler.request_deserializer, handler.response_serializer
    )


def build_server(
    authenticator: Authenticator,
    register: Iterable[Callable[[grpc.aio.Server], str]],
    address: str,
    open_methods: Iterable[str] = (),
) -> tuple[grpc.aio.Server, int, Any]:
    """A server on `address` with each `register(server) -> service full name`.

    `open_methods` (full method names, "/pkg.Service/Method") are served
    without a token; our errors are still mapped to statuses there.

    Returns the server (not started), the bound port and the health servicer
    (call `enter_graceful_shutdown()` on it before stopping).
    """
    server = grpc.aio.server(
        interceptors=[_Guard(authenticator, open_methods)],
        options=[("grpc.so_reuseport", 0), ("grpc.max_receive_message_length", 8 * 1024 * 1024)],
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
    return server, port, health_servicer


def _set_serving(servicer: Any, name: str) -> None:
    # The aio servicer's `set` is a coroutine; before the server runs there is
    # no watcher to notify, so setting the status directly is enough.
    servicer._server_status[name] = health_pb2.HealthCheckResponse.SERVING
