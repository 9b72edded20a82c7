"""Tablehall's Python SDK: a typed async client over the published protos.

async with Client("127.0.0.1:50051") as client:
    await client.sign_in_dev("ann")
    table = await client.create_table("puzzipolia", {"round_limit": 2}, seat_count=4)
    ...
"""

from tablehall_sdk.client import Client, CommandStream, new_request_id, table_name
from tablehall_sdk.errors import (
    Aborted,
    AlreadyExists,
    DeadlineExceeded,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    ServerError,
    TablehallError,
    Unauthenticated,
    Unavailable,
)
from tablehall_sdk.models import (
    ChatMessage,
    Checked,
    Command,
    Decision,
    GameInfo,
    Identity,
    JournalLine,
    LegalMove,
    Page,
    Parameter,
    Principal,
    Role,
    Seat,
    Submitted,
    Table,
    TableView,
    Update,
    Verified,
)
from tablehall_sdk.retry import RetryPolicy

__all__ = [
    "Aborted",
    "AlreadyExists",
    "ChatMessage",
    "Checked",
    "Client",
    "Command",
    "CommandStream",
    "DeadlineExceeded",
    "Decision",
    "FailedPrecondition",
    "GameInfo",
    "Identity",
    "InvalidArgument",
    "JournalLine",
    "LegalMove",
    "NotFound",
    "Page",
    "Parameter",
    "PermissionDenied",
    "Principal",
    "ResourceExhausted",
    "RetryPolicy",
    "Role",
    "Seat",
    "ServerError",
    "Submitted",
    "Table",
    "TableView",
    "TablehallError",
    "Unauthenticated",
    "Unavailable",
    "Update",
    "Verified",
    "new_request_id",
    "table_name",
]
