"""Reflection: v1 and v1alpha both served, method names and enum values resolved (grpcurl describe)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection_pb2
from grpc_reflection.v1alpha.proto_reflection_descriptor_database import ProtoReflectionDescriptorDatabase

from tablehall.projection.v1 import projection_pb2_grpc
from tablehall_platform.auth import Authenticator
from tablehall_platform.grpcserver import build_server

PROJECTION = "tablehall.projection.v1.ProjectionService"


def _register(server: grpc.aio.Server) -> str:
    projection_pb2_grpc.add_ProjectionServiceServicer_to_server(projection_pb2_grpc.ProjectionServiceServicer(), server)
    return PROJECTION


@pytest.fixture
async def address() -> AsyncIterator[str]:
    server, port, _ = build_server(Authenticator([]), [_register], "127.0.0.1:0")
    await server.start()
    yield f"127.0.0.1:{port}"
    await server.stop(None)


def _ask(
    address: str, version: str, request: reflection_pb2.ServerReflectionRequest
) -> reflection_pb2.ServerReflectionResponse:
    with grpc.insecure_channel(address) as channel:
        call = channel.stream_stream(
            f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo",
            request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
            response_deserializer=reflection_pb2.ServerReflectionResponse.FromString,
        )
        (reply,) = list(call(iter([request]), timeout=10))
        return reply


def _files(reply: reflection_pb2.ServerReflectionResponse) -> set[str]:
    assert reply.WhichOneof("message_response") == "file_descriptor_response", reply
    return {
        descriptor_pb2.FileDescriptorProto.FromString(raw).name
        for raw in reply.file_descriptor_response.file_descriptor_proto
    }


@pytest.mark.parametrize("version", ["v1", "v1alpha"])
async def test_both_versions_list_and_resolve_methods_and_enum_values(address: str, version: str) -> None:
    # the blocking client runs in a thread: the server is on this test's event loop
    await asyncio.to_thread(_both_versions, address, version)


def _both_versions(address: str, version: str) -> None:
    listed = _ask(address, version, reflection_pb2.ServerReflectionRequest(list_services=""))
    names = {s.name for s in listed.list_services_response.service}
    assert {PROJECTION, "grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection"} <= names
    for symbol in (
        f"{PROJECTION}.WatchTable",
        PROJECTION,
        "tablehall.projection.v1.WatchTableRequest",
        "tablehall.projection.v1.WatchTableRequest.table",
        "tablehall.match.v1.ViewerRole.VIEWER_ROLE_SPECTATOR",
    ):
        reply = _ask(address, version, reflection_pb2.ServerReflectionRequest(file_containing_symbol=symbol))
        assert "tablehall/projection/v1/projection.proto" in _files(
            reply
        ) or "tablehall/match/v1/match.proto" in _files(reply), symbol
    unknown = _ask(
        address, version, reflection_pb2.ServerReflectionRequest(file_containing_symbol=f"{PROJECTION}.Nope")
    )
    assert unknown.error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]
    by_name = _ask(
        address, version, reflection_pb2.ServerReflectionRequest(file_by_filename="grpc/reflection/v1/reflection.proto")
    )
    assert "grpc/reflection/v1/reflection.proto" in _files(by_name)


async def test_a_reflection_client_describes_a_method(address: str) -> None:
    await asyncio.to_thread(_describe_a_method, address)


def _describe_a_method(address: str) -> None:
    with grpc.insecure_channel(address) as channel:
        pool = descriptor_pool.DescriptorPool(ProtoReflectionDescriptorDatabase(channel))
        method = pool.FindMethodByName(f"{PROJECTION}.WatchTable")
        assert method.input_type.full_name == "tablehall.projection.v1.WatchTableRequest"
        assert method.server_streaming
        v1 = pool.FindServiceByName("grpc.reflection.v1.ServerReflection")
        assert (
            v1.methods_by_name["ServerReflectionInfo"].input_type.full_name
            == "grpc.reflection.v1.ServerReflectionRequest"
        )
