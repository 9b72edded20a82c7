"""Server reflection as both `grpc.reflection.v1` and `grpc.reflection.v1alpha`.

grpcio-reflection ships only v1alpha. The v1 protocol is the same messages
under another package, so one servicer answers both: v1's descriptor is
v1alpha's renamed (added to the descriptor pool, so v1 describes itself), and
its method is served with v1alpha's message classes (the bytes are the same).

Symbols are resolved completely: besides packages' messages, enums, services
and fields, a method (`pkg.Service.Method`) and an enum value resolve to
their file, as `grpcurl describe pkg.Service.Method` asks.
"""

from __future__ import annotations

from typing import Any

import grpc
from google.protobuf import descriptor_pb2, descriptor_pool
from grpc_reflection.v1alpha import reflection, reflection_pb2
from grpc_reflection.v1alpha._async import ReflectionServicer

V1_SERVICE = "grpc.reflection.v1.ServerReflection"
V1_FILE = "grpc/reflection/v1/reflection.proto"
V1ALPHA_SERVICE: str = reflection.SERVICE_NAME
SERVICE_NAMES = (V1_SERVICE, V1ALPHA_SERVICE)


def _add_v1_descriptor(pool: Any) -> None:
    try:
        pool.FindFileByName(V1_FILE)
        return
    except KeyError:
        pass
    proto = descriptor_pb2.FileDescriptorProto()
    reflection_pb2.DESCRIPTOR.CopyToProto(proto)
    proto.name, proto.package = V1_FILE, "grpc.reflection.v1"
    for message in proto.message_type:
        for field in message.field:
            if field.HasField("type_name"):
                field.type_name = field.type_name.replace(".grpc.reflection.v1alpha.", ".grpc.reflection.v1.")
    for service in proto.service:
        for method in service.method:
            method.input_type = method.input_type.replace(".grpc.reflection.v1alpha.", ".grpc.reflection.v1.")
            method.output_type = method.output_type.replace(".grpc.reflection.v1alpha.", ".grpc.reflection.v1.")
    proto.options.java_package = "io.grpc.reflection.v1"
    pool.Add(proto)


class _Reflection(ReflectionServicer):  # type: ignore[misc]
    """v1alpha's servicer with method names and enum values resolved too."""

    def _file_containing_symbol(self, request: Any, fully_qualified_name: str) -> Any:
        parent, _, member = fully_qualified_name.rpartition(".")
        if parent and self._member_of(parent, member):
            return super()._file_containing_symbol(request, parent)
        return super()._file_containing_symbol(request, fully_qualified_name)

    def _member_of(self, parent: str, member: str) -> bool:
        """True when `parent.member` is a method of a service or a value of an enum (absent from the pool's index)."""
        pool: Any = self._pool
        try:
            return member in pool.FindServiceByName(parent).methods_by_name
        except KeyError:
            pass
        try:
            return member in pool.FindEnumTypeByName(parent).values_by_name
        except KeyError:
            return False


def enable_reflection(service_names: list[str], server: grpc.aio.Server) -> None:
    """Serve reflection (v1 and v1alpha) of `service_names` and of reflection itself on `server`."""
    pool = descriptor_pool.Default()
    _add_v1_descriptor(pool)
    servicer = _Reflection([*service_names, *SERVICE_NAMES], pool=pool)
    method = grpc.stream_stream_rpc_method_handler(
        servicer.ServerReflectionInfo,
        request_deserializer=reflection_pb2.ServerReflectionRequest.FromString,
        response_serializer=reflection_pb2.ServerReflectionResponse.SerializeToString,
    )
    for name in SERVICE_NAMES:
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(name, {"ServerReflectionInfo": method}),))
