"""Processes behind one address (TABLEHALL_SHARED_ADDRESS): each server listens on its own
address and on the shared one, and the shared one reaches them both."""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tablehall.projection.v1 import projection_pb2_grpc
from tablehall_platform.auth import Authenticator
from tablehall_platform.grpcserver import build_server
from tablehall_platform.infra import free_port

PROJECTION = "tablehall.projection.v1.ProjectionService"


def _register(server: grpc.aio.Server) -> str:
    projection_pb2_grpc.add_ProjectionServiceServicer_to_server(projection_pb2_grpc.ProjectionServiceServicer(), server)
    return PROJECTION


async def _serving(address: str) -> bool:
    async with grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]) as channel:
        reply = await health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service=PROJECTION), timeout=5
        )
        return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


async def test_two_servers_share_one_address_and_keep_their_own() -> None:
    shared = f"127.0.0.1:{free_port()}"
    servers, ports = [], []
    for _ in range(2):
        server, port, _ = build_server(Authenticator([]), [_register], "127.0.0.1:0", shared_address=shared)
        await server.start()
        servers.append(server)
        ports.append(port)
    try:
        assert ports[0] != ports[1]
        for port in ports:
            assert await _serving(f"127.0.0.1:{port}")
        assert await _serving(shared)
        await servers[0].stop(None)  # the other one still answers there
        assert await _serving(shared)
    finally:
        for server in servers:
            await server.stop(None)


async def test_without_a_shared_address_a_taken_port_is_refused() -> None:
    server, port, _ = build_server(Authenticator([]), [_register], "127.0.0.1:0")
    await server.start()
    try:
        with pytest.raises((OSError, RuntimeError)):
            build_server(Authenticator([]), [_register], f"127.0.0.1:{port}")
    finally:
        await server.stop(None)
