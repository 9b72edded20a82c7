"""Lobby state <-> protobuf (an adapter module: it imports *_pb2)."""

from __future__ import annotations

import json

from tablehall.common.v1 import table_pb2
from tablehall.lobby.v1 import lobby_pb2
from tablehall_lobby.chat import Message
from tablehall_lobby.state import LobbyTable

STATUS = {
    "waiting": table_pb2.TABLE_STATUS_WAITING,
    "starting": table_pb2.TABLE_STATUS_STARTING,
    "playing": table_pb2.TABLE_STATUS_PLAYING,
    "finished": table_pb2.TABLE_STATUS_FINISHED,
    "closed": table_pb2.TABLE_STATUS_CLOSED,
}


def table_to_proto(table: LobbyTable, detailed: bool) -> lobby_pb2.Table:
    """`detailed` adds who watches and who is invited (members and operators)."""
    seats = []
    for index, seat in enumerate(table.seats):
        if seat is None:
            seats.append(lobby_pb2.SeatState(seat=index))
        else:
            seats.append(
                lobby_pb2.SeatState(
                    seat=index,
                    user_id=seat.user_id,
                    name=seat.name,
                    is_bot=seat.is_bot,
                    present=seat.present,
                    played_by_bot=seat.by_bot,
                    removed=seat.removed,
                )
            )
    return lobby_pb2.Table(
        name=f"tables/{table.table_id}",
        game=table.game,
        options_json=json.dumps(table.options, sort_keys=True),
        status=STATUS[table.status],
        host_user_id=table.host_user_id,
        host_name=table.host_name,
        seats=seats,
        seats_taken=table.seats_taken(),
        private=table.private,
        spectators_allowed=table.spectators_allowed,
        spectator_chat=table.spectator_chat,
        bot_seats_to_spectators=table.bot_seats_to_spectators,
        spectators=sorted(table.spectators) if detailed else [],
        invited=list(table.invited) if detailed else [],
        version=table.version,
        created_at_unix_ms=table.created_at_ms,
    )


def message_to_proto(message: Message) -> lobby_pb2.ChatMessage:
    posted = message.posted
    return lobby_pb2.ChatMessage(
        number=message.number,
        user_id=posted.user_id,
        name=posted.name,
        seat=posted.seat if posted.seat is not None else -1,
        text=posted.text,
        at_unix_ms=posted.at_ms,
    )
