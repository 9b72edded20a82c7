"""Lobby state <-> protobuf (an adapter module: it imports *_pb2)."""

from __future__ import annotations

import json

from tablehall.common.v1 import table_pb2
from tablehall.lobby.v1 import lobby_pb2
from tablehall.match.v1 import match_pb2
from tablehall_lobby.chat import Message
from tablehall_lobby.state import LobbyTable
from tablehall_platform.table_access import Exposure
from tablehall_platform.table_options import split as table_options_split
from tablehall_rules import Game, RuleError
from tablehall_rules.registry import get_game

STATUS = {
    "waiting": table_pb2.TABLE_STATUS_WAITING,
    "starting": table_pb2.TABLE_STATUS_STARTING,
    "playing": table_pb2.TABLE_STATUS_PLAYING,
    "finished": table_pb2.TABLE_STATUS_FINISHED,
    "closed": table_pb2.TABLE_STATUS_CLOSED,
}


def game_to_proto(game: Game[object]) -> lobby_pb2.GameInfo:
    return lobby_pb2.GameInfo(
        id=game.id,
        rules_version=game.rules_version,
        title=dict(game.title),
        min_seats=game.min_seats,
        max_seats=game.max_seats,
        options_schema_json=json.dumps(game.options_schema, sort_keys=True, ensure_ascii=False),
        supports_teams=game.supports_teams,
    )


def teams_of(table: LobbyTable) -> list[list[int]]:
    """The teams the table's game options make for its seats."""
    try:
        game = get_game(table.game)
        _, game_options = table_options_split(table.options)
        return game.teams(game.parse_options(game_options), len(table.seats))
    except RuleError:
        return []


def table_to_proto(table: LobbyTable, exposure: Exposure) -> lobby_pb2.Table:
    """The table as much as `exposure` shows (docs/security.md): members and
    operators also see who watches and who is invited; others no version; of a
    private table a non-member sees only that it exists, its game and seat count."""
    if exposure == Exposure.HIDDEN:
        return lobby_pb2.Table(
            name=f"tables/{table.table_id}",
            game=table.game,
            status=STATUS[table.status],
            seats=[lobby_pb2.SeatState(seat=i) for i in range(len(table.seats))],
            seats_taken=table.seats_taken(),
            private=True,
            spectators_allowed=table.spectators_allowed,
        )
    detailed = exposure == Exposure.FULL
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
        teams=[match_pb2.Team(seats=t) for t in teams_of(table)],
        seats_taken=table.seats_taken(),
        private=table.private,
        spectators_allowed=table.spectators_allowed,
        spectator_chat=table.spectator_chat,
        bot_seats_to_spectators=table.bot_seats_to_spectators,
        spectators=sorted(table.spectators) if detailed else [],
        invited=list(table.invited) if detailed else [],
        version=table.version if detailed else 0,
        created_at_unix_ms=table.created_at_ms,
        pin_failures=table.pin_failures if detailed else 0,
        pin_locked_until_unix_ms=table.pin_locked_until_ms if detailed else 0,
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
