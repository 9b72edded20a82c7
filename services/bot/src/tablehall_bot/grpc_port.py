"""The gRPC face of the bot service (the only module importing bot_pb2)."""

from __future__ import annotations

from typing import Any

import grpc

from tablehall.bot.v1 import bot_pb2, bot_pb2_grpc
from tablehall_bot.tables import Tables
from tablehall_platform.auth import current_principal
from tablehall_platform.errors import NotFound, Unauthenticated
from tablehall_platform.names import parse_table
from tablehall_platform.table_access import read_access

_DIFFICULTY = {"easy": bot_pb2.DIFFICULTY_EASY, "strong": bot_pb2.DIFFICULTY_STRONG}


class BotServicer(bot_pb2_grpc.BotServiceServicer):  # type: ignore[misc]
    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    async def GetTableBots(
        self, request: bot_pb2.GetTableBotsRequest, context: grpc.aio.ServicerContext
    ) -> bot_pb2.GetTableBotsResponse:
        principal = current_principal.get()
        if principal is None:
            raise Unauthenticated("TOKEN_MISSING", "Not signed in.", ru="Вход не выполнен.")
        table = parse_table(request.table)
        seats = await self.tables.seats(table)
        if not seats.version:
            raise NotFound("TABLE_NOT_FOUND", f"There is no table {table}.", ru=f"Стола {table} нет.")
        facts = await read_access(self.tables.store.pool, table)
        facts.require_table_facts(principal, seats.players.values())
        return bot_pb2.GetTableBotsResponse(
            table=request.table,
            game=seats.game,
            finished=seats.ended,
            seats=[
                bot_pb2.BotSeat(
                    seat=s.seat, difficulty=_DIFFICULTY[s.difficulty], handed_over=s.handed_over, user_id=s.user_id
                )
                for s in seats.bot_seats()
            ],
        )


def register(servicer: BotServicer) -> Any:
    def add(server: grpc.aio.Server) -> str:
        bot_pb2_grpc.add_BotServiceServicer_to_server(servicer, server)
        return str(bot_pb2.DESCRIPTOR.services_by_name["BotService"].full_name)

    return add
