"""The lobby and the projection report a table's status with one enum, the same numbers in both."""

from __future__ import annotations

from tablehall.common.v1 import table_pb2
from tablehall.lobby.v1 import lobby_pb2
from tablehall.projection.v1 import projection_pb2


def test_lobby_and_projection_share_tablehall_common_v1_table_status() -> None:
    lobby = lobby_pb2.Table.DESCRIPTOR.fields_by_name["status"].enum_type
    summary = projection_pb2.TableSummary.DESCRIPTOR.fields_by_name["status"].enum_type
    listing = projection_pb2.ListTablesRequest.DESCRIPTOR.fields_by_name["status"].enum_type
    assert lobby is summary is listing is table_pb2.TableStatus.DESCRIPTOR
    assert lobby.full_name == "tablehall.common.v1.TableStatus"
    assert "TableStatus" not in lobby_pb2.DESCRIPTOR.enum_types_by_name
    assert "TableStatus" not in projection_pb2.DESCRIPTOR.enum_types_by_name
